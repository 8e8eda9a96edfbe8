# torch.compile's kernels for bf16 LayerNorm / RMSNorm at 32768x256 (the source goes to stderr via TORCH_LOGS)
import sys, torch, torch.nn.functional as F
op = sys.argv[1]; rows, cols = 32768, int(sys.argv[2]) if len(sys.argv) > 2 else 256
x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
w = torch.randn(cols, device="cuda", dtype=torch.bfloat16); b = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
if op == "ln":
    fn = torch.compile(lambda x, w, b: F.layer_norm(x, (cols,), w, b, 1e-5), dynamic=False)
elif op == "softmax":
    fn = torch.compile(lambda x, w, b: torch.softmax(x, -1), dynamic=False)
else:
    fn = torch.compile(lambda x, w, b: F.rms_norm(x, (cols,), w, 1e-6), dynamic=False)
for _ in range(5):
    y = fn(x, w, b)
torch.cuda.synchronize()
