"""The toy family `kernel: scale` from Python (tests/toy/): what a real
family's module python/kgen/_STEM.py holds, outside the package.  It gives
libkgen's launch call its C signature (as python/kgen/_lib.py does for the
real families), adds the family's row to kgen._kernel.RUNNERS, through
which kgen.Kernel(spec)(x) reaches _run_scale, and has a one-call function
as kgen.transpose is one.  It needs a libkgen built with the toy
(tests/toy/libkgen-toy.so, named by $KGEN_LIBRARY: tests/python_test.sh)."""
from typing import Any, Union

from kgen import _lib, _memory
from kgen._arrays import Array, describe, empty, finish, packed_strides, stream_address
from kgen._kernel import RUNNERS, cached, contiguous, new_kernel, stream_of, writable_out
from kgen._spec import _err, _spec_key

WHERE = "kgen_scale.scale"

# kgen_scale(kernel, in, out, n, stream, err): tests/toy/kgen_scale.h.
kgen_scale = _lib._sig("kgen_scale", [_lib._P, _lib._U64, _lib._U64, _lib._U64, _lib._P, _lib._E])


def _run_scale(k, a, out, stream, where):
    """out = a * factor, every element, a of any shape (contiguous)."""
    if a.dtype != k.spec.fields["dtype"]:
        raise TypeError("kgen: the kernel scales %s, the input is %s" % (k.spec.fields["dtype"], a.dtype))
    if not contiguous(a):
        raise ValueError("kgen: scale reads a contiguous array; pass x.contiguous()")
    s = stream_of(a, stream, where)
    if out is None:
        res, ptr = empty(a, a.shape, a.dtype, s, where)
        o = Array(res, a.kind, ptr, a.dtype, tuple(a.shape), packed_strides(a.shape), a.device)
    else:
        res, o = out, writable_out(out, where, a.dtype, a.shape, a, "kernel: scale")
    n = 1
    for d in a.shape:
        n *= d
    err = _err()
    st = kgen_scale(k._handle, _lib.arg(where, "x's address", a.ptr), _lib.arg(where, "out's address", o.ptr),
                    _lib.arg(where, "x's size", n), s, _lib.ctypes.byref(err))
    _lib.check(st, err)
    if a.keep is not None:
        _memory.hold(a.device or 0, s, a.keep)
    return res if out is not None else finish(a, res)


def scale(x: Any, factor: int = 3, spec: Any = None, out: Any = None, stream: Any = None,
          **overrides: Union[int, str]) -> Any:
    """x * factor as a new array in x's framework (or into out), by a
    `kernel: scale` kernel built once per dtype, factor and spec."""
    a = describe(x, where=WHERE, stream=None if stream is None else stream_address(stream))
    device = a.device or 0
    s = stream_of(a, stream, WHERE)
    over = dict({"dtype": a.dtype, "factor": factor}, **overrides)
    base = spec if spec is not None else {"kernel": "scale"}
    key = ("scale", device, _spec_key(base), tuple(sorted(over.items())))
    k = cached(key, lambda: new_kernel(WHERE, base, device, over), device, s, WHERE)
    return _run_scale(k, a, out, stream, WHERE)


RUNNERS["scale"] = (_run_scale, 1)
