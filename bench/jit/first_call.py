"""first_call.py [LABEL]: the wall time of a fresh process's first
kgen.softmax(x) of a 4096 x 4096 bf16 torch tensor (the shipped
specs/rows/softmax.yaml, strategy auto: 16 kernels, built lazily unless
KGEN_JIT_LAZY=0), from the call to its result on the GPU, build included.
Run it with KGEN_CACHE=0 so that the build is a compile; LABEL is printed
with the figure.  Needs torch and a GPU."""
import sys
import time

import torch

import kgen


def main():
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    torch.cuda.synchronize()
    t = time.perf_counter()
    kgen.softmax(x)
    torch.cuda.synchronize()
    t = time.perf_counter() - t
    print("first kgen.softmax(4096x4096 bf16) call: %.1f ms (%s)" % (t * 1e3, label))


if __name__ == "__main__":
    main()
