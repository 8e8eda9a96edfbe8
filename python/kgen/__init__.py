"""kgen from Python: YAML kernel specs turned into CUDA C, compiled with NVRTC
and run on PyTorch, CuPy and JAX arrays (and anything with DLPack or
__cuda_array_interface__), through libkgen's C API (ctypes).

    import kgen, torch
    x = torch.randn(4096, 1000, device="cuda")
    kgen.reduce(x)                     # the sum of every element, a 0-d tensor
    kgen.reduce(x, "max", axis=1)      # one maximum per row
    kgen.reduce(x, "argmax", axis=1)   # ArgResult(values, indices), as torch.max(x, 1)
    kgen.argmax(x, axis=1)             # the indices alone, as torch.argmax(x, 1)
    kgen.cumsum(v)                     # the prefix sums of a vector, one pass (also kgen.scan(v, "max", exclusive=True))
    kgen.transpose(x)                  # a new 1000 x 4096 tensor
    kgen.matmul(a, b.t())              # a @ b.t(), b read as column-major, no copy
    kgen.softmax(x)                    # each row (the last dimension), one fused kernel
    kgen.rms_norm(x, w, eps=1e-6)      # also log_softmax, layer_norm, cross_entropy(logits, labels)

A spec is a path to a YAML file, YAML text or a dict; keyword arguments
override its fields as `kgen --set` does.  A wrong spec raises SpecError,
which names the file, line and column as kgen does.  Results are returned
in the caller's framework, written on its current stream unless stream= is
given.  Under torch.compile the calls are torch custom ops (kgen::reduce,
kgen::matmul, kgen::softmax, ...), so a model calling them compiles without
a graph break.
See docs/python.md.
"""
import sys

from . import _arrays, _lib
from ._arrays import describe  # noqa: F401 (kgen.describe, kgen._layouts, kgen._default_reduce: for the tests and bench)
from ._errors import CaptureError, KgenError, SpecError
from ._kernel import Kernel
from ._matmul import _layouts, matmul  # noqa: F401
from ._memory import DeviceArray
from ._reduce import OPS, ArgResult, _default_reduce, argmax, argmin, reduce, reduce_kernel  # noqa: F401
from ._scan import cumsum, scan  # noqa: F401
from ._rows import cross_entropy, layer_norm, log_softmax, rms_norm, softmax
from ._spec import Spec, check, compile, generate
from ._transpose import transpose

__all__ = ["check", "generate", "compile", "Spec", "Kernel", "reduce", "reduce_kernel", "argmax", "argmin",
           "transpose", "matmul", "scan", "cumsum", "softmax", "log_softmax", "rms_norm", "layer_norm", "cross_entropy", "ArgResult", "DeviceArray", "OPS",
           "KgenError", "SpecError", "CaptureError", "library_path", "__version__"]

__version__ = _lib.kgen_version().decode()
library_path = _lib.path

if "torch" in sys.modules:  # else the first torch tensor kgen meets registers the custom ops (kgen._torch)
    _arrays.torch_ops()
