"""kgen on torch tensors: sums along both axes, a maximum, argmax, a mean, a
transpose, and a spec of your own.  Needs a CUDA GPU, torch, and libkgen (KGEN_LIBRARY=path
to libkgen.so, or `make install`).

    KGEN_LIBRARY=$PWD/.libs/libkgen.so PYTHONPATH=python python3 examples/reduce_torch.py

Without torch it says so and exits 2; without a GPU torch can see, exit 5
(as `kgen run` without one).
"""
import sys

try:
    import torch
except ImportError as e:
    sys.stderr.write("reduce_torch.py: this example needs PyTorch (%s): pip install torch\n"
                     "(kgen takes CuPy and JAX arrays too: docs/python.md)\n" % e)
    sys.exit(2)
if not torch.cuda.is_available():
    sys.stderr.write("reduce_torch.py: torch sees no CUDA GPU: this example runs kernels on one "
                     "(kgen.check, kgen.generate and kgen.compile work without)\n")
    sys.exit(5)

import kgen  # noqa: E402  (after the checks: they need no libkgen)

x = torch.randn(4096, 1000, device="cuda")

print("sum:", kgen.reduce(x).item(), "torch:", x.sum().item())
rows = kgen.reduce(x, axis=1)                  # one sum per row (torch.sum(x, dim=1))
cols = kgen.reduce(x, axis=0)                  # one sum per column (torch.sum(x, dim=0))
print("rows:", rows.shape, (rows - x.sum(1)).abs().max().item())
print("cols:", cols.shape, (cols - x.sum(0)).abs().max().item())
print("max of each row:", torch.equal(kgen.reduce(x, "max", axis=1), x.amax(1)))
best = kgen.reduce(x, "argmax", axis=1)        # ArgResult(values, indices), as torch.max(x, 1)
print("argmax of each row:", torch.equal(best.indices, torch.max(x, 1).indices))
print("mean:", kgen.reduce(x, "mean").item(), "norm2:", kgen.reduce(x, "norm2").item())

t = kgen.transpose(x)                          # a new 1000 x 4096 tensor
print("transpose:", t.shape, torch.equal(t, x.t().contiguous()))

# A spec of your own (a path, YAML text or a dict), with fields overridden:
two_pass = {"kernel": "reduce", "stages": "two_pass", "threads": 256}
print("two-pass sum:", kgen.reduce(x, spec=two_pass, items_per_thread=16).item())

try:
    kgen.reduce(x, spec="kernel: reduce\nstages: one_pass\n")
except kgen.SpecError as e:
    print(e)                                   # <string>:2:9: error: stages: unknown value 'one_pass' ...
