"""kgen's Python API where it needs no GPU: specs from files, text and dicts,
overrides, errors with their place, generation and NVRTC compilation."""
import os
import re
import subprocess
import sys
from importlib import machinery

import pytest

import kgen

TOP = os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SPECS = os.path.join(TOP, "specs")
SUM_F32 = os.path.join(SPECS, "reduce", "best", "sum-f32.yaml")


def test_version_is_the_library_version():
    # One place for it: configure.ac's AC_INIT (the C library's, and the wheel's, python/setup.py).
    with open(os.path.join(TOP, "configure.ac")) as f:
        want = re.search(r"AC_INIT\(\[kgen\],\s*\[([^\]]+)\]", f.read()).group(1)
    assert kgen.__version__ == want
    assert os.path.exists(kgen.library_path) or kgen.library_path.startswith("lib")


def built():
    """The kgen._fast the build made, if it made one (configure found Python.h)."""
    lib = os.environ.get("KGEN_LIBRARY")
    if not lib:
        return None
    d = os.path.join(os.path.dirname(os.path.abspath(lib)), "..", "python", "kgen")
    p = os.path.join(d, "_fast" + machinery.EXTENSION_SUFFIXES[0])
    return p if os.path.isfile(p) else None


def test_the_built_module_is_the_one_loaded():
    # kgen._fast (python/kgen/_fast.c): where the build made it, the package loads it (test_fake_fast.py tests it).
    if os.environ.get("KGEN_NO_FAST"):
        pytest.skip("KGEN_NO_FAST is set: the Python path is the one")
    if built() is None:
        pytest.skip("kgen._fast was not built here (no Python.h when configured): the Python path is the one")
    from kgen import _lib, _reduce
    assert _lib.fast is not None, _lib.fast_where
    assert os.path.samefile(_lib.fast_where, built())
    assert _reduce._fast_reduce is _lib.fast.reduce


def test_check_a_file_resolves_defaults():
    s = kgen.check(SUM_F32)
    assert s.fields["kernel"] == "reduce"
    assert s.fields["threads"] == "512"
    assert s.fields["acc_dtype"] == "f32"
    assert s.source == SUM_F32
    assert s["name"] == "reduce_sum_f32"


def test_check_text_and_dict_agree():
    text = kgen.check("kernel: transpose\ndtype: bf16\ntile_rows: 64\nbatch: 8\n")
    d = kgen.check({"kernel": "transpose", "dtype": "bf16", "tile_rows": 64, "batch": 8})
    assert text.fields == d.fields
    assert text.source == "<string>" and d.source == "<dict>"


def test_overrides_set_fields_as_set_does():
    s = kgen.check(SUM_F32, threads=256, op="max")
    assert s.fields["threads"] == "256"
    assert s.fields["op"] == "max"
    assert s.fields["name"] == "reduce_max_f32"


def test_spec_error_names_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kernel: reduce\nop: sun\n")
    with pytest.raises(kgen.SpecError) as e:
        kgen.check(str(bad))
    err = e.value
    assert (err.file, err.line, err.column) == (str(bad), 2, 5)
    assert "unknown value 'sun'" in err.message
    # Printed as kgen prints it: the place, the line, a caret under the column.
    lines = str(err).splitlines()
    assert lines[0].startswith("%s:2:5: error: op: unknown value 'sun'" % bad)
    assert lines[1:] == ["  op: sun", "      ^"]
    kgen_cmd = os.environ.get("KGEN", os.path.join(TOP, "kgen"))
    if os.path.exists(kgen_cmd):  # the command is built
        out = subprocess.run([kgen_cmd, "check", str(bad)], capture_output=True, text=True)
        if out.returncode != 127:
            assert out.stderr.rstrip("\n") == str(err)


def test_spec_error_from_text_and_from_an_override():
    with pytest.raises(kgen.SpecError) as e:
        kgen.check("kernel: transpose\ntile_rows: 32\ntile_cols: 32\nbatch: 64\n")
    assert (e.value.file, e.value.line, e.value.column) == ("<string>", 4, 8)
    assert e.value.message.endswith("must be a multiple of 32 and at most 1024: use batch: 32")
    with pytest.raises(kgen.SpecError) as e:
        kgen.check(SUM_F32, threads=100)
    assert "threads" in e.value.message
    assert isinstance(e.value, ValueError)


def test_unknown_key_suggests_the_nearest():
    with pytest.raises(kgen.SpecError) as e:
        kgen.check({"kernel": "reduce", "thread": 256})
    assert "threads" in e.value.message


def test_a_missing_file_is_an_io_error():
    with pytest.raises(kgen.KgenError) as e:
        kgen.check("no-such-spec.yaml")
    assert e.value.status == "KGEN_EIO"
    assert not isinstance(e.value, kgen.SpecError)


def test_values_are_integers_or_names():
    with pytest.raises(TypeError):
        kgen.check({"kernel": "reduce", "threads": 2.5})
    with pytest.raises(TypeError):
        kgen.check({"kernel": "reduce", "threads": True})
    with pytest.raises(TypeError):
        kgen.check(3)


def test_generate_matches_the_golden_file():
    src = kgen.generate(SUM_F32)
    with open(os.path.join(TOP, "tests", "golden", "reduce__best__sum-f32.cu")) as f:
        assert src == f.read()


def test_generate_with_overrides_names_the_kernel():
    src = kgen.generate({"kernel": "reduce_axis", "axis": "cols"}, dtype="bf16")
    assert 'extern "C"' in src
    assert "reduce_cols_sum_bf16" in src


def test_compile_to_cubin_and_ptx():
    cubin = kgen.compile(os.path.join(SPECS, "transpose", "best.yaml"))
    assert cubin[:4] == b"\x7fELF"
    ptx = kgen.compile({"kernel": "reduce", "op": "min", "dtype": "i32"}, arch="sm_80", ptx=True)
    assert ".target sm_80" in ptx and "reduce_min_i32" in ptx


def test_compile_names_a_bad_architecture():
    with pytest.raises(kgen.KgenError) as e:
        kgen.compile(SUM_F32, arch="sm_1")
    assert e.value.status == "KGEN_EINVAL" and "unknown architecture 'sm_1'" in str(e.value)


def test_compile_chooses_the_architecture_a_spec_needs():
    # As `kgen compile`: wgmma compiles for sm_90a when sm_90 is asked for, and a GPU too old is a spec error at
    # the key that needs a newer one (not ptxas's log).
    wgmma = {"kernel": "matmul", "math": "wgmma", "dtype": "bf16", "producer": "warpgroup", "store": "direct"}
    ptx = kgen.compile(wgmma, ptx=True)
    assert ".target sm_90a" in ptx
    with pytest.raises(kgen.SpecError, match="math: wgmma needs sm_90a .*not sm_80: use math: mma"):
        kgen.compile(wgmma, arch="sm_80")


class FakeArray:
    """A device array as __cuda_array_interface__ describes it (never touched)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x10000):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3}


class NumpyLikeInt:
    """An axis that compares and hashes as 1 but is no int (as numpy.int64)."""

    def __eq__(self, other):
        return other == 1

    def __hash__(self):
        return hash(1)

    def __index__(self):
        return 1


def test_inputs_kgen_cannot_take_are_refused_before_any_gpu():
    with pytest.raises(ValueError, match="contiguous"):
        kgen.reduce(FakeArray((10, 20), strides=(4, 40)))
    with pytest.raises(TypeError, match="dtype <c8 of the input is not supported"):
        kgen.reduce(FakeArray((10,), "<c8"))
    with pytest.raises(TypeError, match="is not a CUDA array"):
        kgen.reduce([1, 2, 3])
    with pytest.raises(ValueError, match="op is one of sum, min, max, prod, mean, sumsq, norm2, amax, count_nonzero, "
                                         "any, all, argmin, argmax, custom, not 'median'"):
        kgen.reduce(FakeArray((10,)), "median")
    with pytest.raises(ValueError, match="axis 2 is out of range for 2 dimensions"):
        kgen.reduce(FakeArray((10, 20)), axis=2)
    for axis in (True, False, 1.0, "1"):  # an integer of NumPy's (__index__) is an axis: test_fake_reduce.py
        with pytest.raises(TypeError, match="axis is an int .0 to 1, or negative from the end. or None, not "):
            kgen.reduce(FakeArray((10, 20)), axis=axis)
    with pytest.raises(ValueError, match="whole elements"):
        kgen.reduce(FakeArray((10,), strides=(6,)))
    with pytest.raises(TypeError, match="stream= takes"):
        kgen._arrays.stream_address(object())


# ---- hardening: what a caller passes reaches C as it was meant, or is refused ----

CUSTOM = {"kernel": "reduce", "op": "custom", "combine": "a + b", "identity": "0"}


def test_a_dict_value_is_the_value_never_yaml():
    # A newline injected a key (op: max); now it is part of threads' value, which kgen refuses.
    with pytest.raises(kgen.SpecError, match=r"threads: '256\\x0aop: max' is not a decimal integer") as e:
        kgen.check({"kernel": "reduce", "threads": "256\nop: max"})
    assert e.value.file == "<dict>" and e.value.line == 0
    # YAML's own syntax is text of the expression: `? :` and a leading `!` (a YAML tag).
    s = kgen.check(dict(CUSTOM, combine="a < b ? a : b", map="!x"))
    assert (s.fields["combine"], s.fields["map"]) == ("'a < b ? a : b'", "'!x'")
    # A comment and quotes were dropped by YAML; kgen now sees and refuses them.
    with pytest.raises(kgen.SpecError, match="'#' would start a preprocessor line"):
        kgen.check(dict(CUSTOM, map="x * x # square"))
    with pytest.raises(kgen.SpecError, match="a string literal has no place"):
        kgen.check(dict(CUSTOM, map='"x"'))
    # A dict spec is the same spec as its YAML text.
    assert kgen.check(dict(CUSTOM, combine="a < b ? a : b")).fields == \
        kgen.check("kernel: reduce\nop: custom\ncombine: 'a < b ? a : b'\nidentity: '0'\n").fields


def test_a_dict_kernel_is_a_family_name():
    with pytest.raises(ValueError, match=r"kgen.check: kernel is the name of a kernel family, such as 'reduce', "
                                         r"not 'reduce\\nop: max'"):
        kgen.check({"kernel": "reduce\nop: max"})
    with pytest.raises(TypeError, match="kgen.check: kernel is the name of a kernel family"):
        kgen.check({"kernel": 3})
    with pytest.raises(kgen.SpecError, match="kernel: unknown value 'reduse' \\(did you mean 'reduce'\\?\\): "
                                             "expected reduce, transpose") as e:
        kgen.generate({"kernel": "reduse"})
    assert str(e.value).startswith("<dict>: error: kernel:")
    with pytest.raises(kgen.SpecError, match="missing key 'kernel'"):
        kgen.check({"threads": 256})


def test_a_string_with_a_nul_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"kgen.check: map must not contain a NUL character: 'x\\x00; evil\(\)'"):
        kgen.check(dict(CUSTOM, map="x\0; evil()"))
    with pytest.raises(ValueError, match="kgen.generate: map must not contain a NUL character"):
        kgen.generate(CUSTOM, map="x\0; evil()")
    with pytest.raises(ValueError, match="kgen.check: spec must not contain a NUL character"):
        kgen.check("kernel: reduce\nop: max\0\n")
    with pytest.raises(ValueError, match="kgen.check: spec must not contain a NUL character"):
        kgen.check(SUM_F32 + "\0.bak")
    with pytest.raises(ValueError, match="kgen.compile: arch must not contain a NUL character"):
        kgen.compile(SUM_F32, arch="sm_90\0x")
    with pytest.raises(ValueError, match="kgen.check: a spec key must not contain a NUL character"):
        kgen.check(SUM_F32, **{"threads\0x": 256})


def test_an_int_that_would_wrap_is_refused_before_any_gpu():
    msg = "kgen.Kernel: device must be an int from 0 to 2147483647, not 4294967296"
    with pytest.raises(ValueError, match=msg):
        kgen.Kernel(SUM_F32, device=2**32)  # was GPU 0
    with pytest.raises(ValueError, match="device must be an int from 0 to 2147483647, not -1"):
        kgen.Kernel(SUM_F32, device=-1)
    with pytest.raises(TypeError, match=r"device must be an int from 0 to 2147483647, not True \(bool\)"):
        kgen.Kernel(SUM_F32, device=True)
    # An array's own numbers: its device, its size (was reduced as 5 elements) and its address.
    big = FakeArray((10,))
    big.device = type("Device", (), {"id": 2**32})()
    with pytest.raises(ValueError, match="kgen.reduce: device must be an int from 0 to 2147483647, not 4294967296"):
        kgen.reduce(big)
    with pytest.raises(ValueError, match=r"kgen.reduce: x.shape\[0\] must be an int from 0 to 18446744073709551615, "
                                         "not 18446744073709551621"):
        kgen.reduce(FakeArray((2**64 + 5,)))
    with pytest.raises(ValueError, match="kgen.reduce: x's element count must be .* not 18446744073709551616"):
        kgen.reduce(FakeArray((2**32, 2**32)))
    with pytest.raises(ValueError, match="kgen.transpose: out's address must be .* not -16"):
        kgen.transpose(FakeArray((64, 64)), out=FakeArray((64, 64), ptr=-16))
    with pytest.raises(ValueError, match="kgen.reduce: x's address must be .* not 18446744073709551616"):
        kgen.reduce(FakeArray((10,), ptr=2**64))


def _null_kernel(family, **fields):
    """A Kernel whose handle is NULL: libkgen answers KGEN_EINVAL before any GPU,
    so a call shows what Python passed as far as C."""
    k = object.__new__(kgen.Kernel)
    k._handle, k.device, k.family, k._dtype, k._acc = None, 0, family, "f32", "f32"
    k.spec = type("S", (), {"fields": dict(fields, kernel=family, dtype="f32")})()
    return k


def test_each_int_a_call_passes_to_c_is_checked():
    k = _null_kernel("reduce")
    out = FakeArray(())
    with pytest.raises(kgen.KgenError, match="kgen_reduce_scratch_size: NULL argument"):
        k(FakeArray((10,)), out=out, stream=0)  # the numbers are sound: C is reached (asked for the scratch first)
    with pytest.raises(ValueError, match="kgen.Kernel: stream must be an int from 0 to 18446744073709551615, not -1"):
        k(FakeArray((10,)), out=out, stream=-1)
    with pytest.raises(ValueError, match="kgen.Kernel: stream must be .* not 18446744073709551617"):
        k(FakeArray((10,)), out=out, stream=2**64 + 1)
    # A row pitch of 2**64 + 64 elements was read as 64.
    rows = _null_kernel("reduce_axis", axis="rows")
    with pytest.raises(ValueError, match="kgen.Kernel: x's row pitch must be .* not 18446744073709551680"):
        rows(FakeArray((2, 64), strides=(4 * (2**64 + 64), 4)), out=FakeArray((2,)))
    with pytest.raises(ValueError, match="kgen.Kernel: x has negative strides \\(-64, 1\\), which kgen does not take"):
        _null_kernel("transpose")(FakeArray((64, 64), strides=(-256, 4)), out=FakeArray((64, 64)))


def test_packed_slots_follow_the_header():
    """_lib.PACKED names kgen_reduce_packed's slots in include/kgen.h's order."""
    import re
    from kgen import _lib
    with open(os.path.join(TOP, "include", "kgen.h")) as f:
        header = f.read()
    names = re.findall(r"^\s*KGEN_PACKED_([A-Z_]+)", header[header.index("KGEN_PACKED_KERNEL,") - 2:], re.M)
    assert names[-1] == "COUNT"
    assert tuple(n.lower() for n in names[:-1]) == _lib.PACKED
    assert _lib.ctypes.sizeof(_lib.Packed) == 8 * len(_lib.PACKED)


def test_no_driver_says_what_works_without_one():
    # As the kgen command does after "no CUDA driver" (its kgen run, tune and info; here kgen.Kernel and the calls).
    code = ("import kgen\ntry:\n    kgen.Kernel('kernel: reduce\\n')\nexcept kgen.KgenError as e:\n"
            "    print(e.status)\n    print(e)\n")
    env = dict(os.environ, LD_LIBRARY_PATH="/nonexistent")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    if "no CUDA driver" not in r.stdout:
        pytest.skip("a CUDA driver is installed where the linker finds it: %s" % (r.stdout or r.stderr)[-200:])
    lines = r.stdout.splitlines()
    assert lines[0] == "KGEN_ECUDA"
    assert lines[1].startswith("no CUDA driver: dlopen(libcuda.so.1)")
    assert lines[2:] == ["running kernels (kgen.Kernel, kgen.reduce, kgen.argmax, kgen.transpose, kgen.matmul, "
                         "kgen.scan, kgen.softmax and the other row functions) needs an NVIDIA GPU and its driver;",
                         "kgen.check, kgen.generate, kgen.compile and kgen.Spec work without one."]
    # kgen._driver's own failure to load it says so too; other CUDA errors do not.
    assert str(kgen.KgenError("KGEN_ECUDA", "cannot load the CUDA driver (libcuda.so.1): x")).endswith("without one.")
    assert "without one" not in str(kgen.KgenError("KGEN_ECUDA", "cuMemAlloc_v2(): CUDA_ERROR_OUT_OF_MEMORY: x"))


def run_example_with_torch(tmp_path, torch_init):
    """examples/reduce_torch.py where `import torch` finds a package whose __init__.py is torch_init."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(torch_init)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, os.path.join(TOP, "examples", "reduce_torch.py")], env=env,
                          capture_output=True, text=True, timeout=120)


def test_torch_example_without_torch_says_so(tmp_path):
    r = run_example_with_torch(tmp_path, "raise ModuleNotFoundError(\"No module named 'torch'\", name='torch')\n")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("reduce_torch.py: this example needs PyTorch (No module named 'torch'): pip install torch")


def test_torch_example_without_a_gpu_says_so(tmp_path):
    r = run_example_with_torch(tmp_path, "class cuda:\n    is_available = staticmethod(lambda: False)\n")
    assert r.returncode == 5, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("reduce_torch.py: torch sees no CUDA GPU")


def kgen_keys(family):
    """`kgen keys FAMILY`: a list of each key's (key, kind, values, default); skips where the command is not built."""
    kgen_cmd = os.environ.get("KGEN", os.path.join(TOP, "kgen"))
    if not os.path.exists(kgen_cmd):
        pytest.skip("the kgen command is not built")
    out = subprocess.run([kgen_cmd, "keys", family], capture_output=True, text=True, check=True).stdout
    return [tuple((line.split("\t") + [""])[1:5]) for line in out.splitlines()]


def test_scan_column_keys_are_the_keys_only_axis_cols_takes():
    """kgen.scan sends a call down one contiguous column to the column kernel
    when its overrides include a key of _scan.COLUMN_KEYS: those keys must be
    axis itself and exactly the keys the library refuses with axis: rows
    (gen/scan.c's only-with table), each tried at a value `kgen keys scan`
    lists for it."""
    from kgen import _scan
    listing = kgen_keys("scan")
    refused = set()
    tried = 0
    for key, kind, values, default in listing:
        if key in ("kernel", "name", "axis") or kind == "expr":
            continue
        value = default or values.split()[0].split("..")[0]
        tried += 1
        try:
            kgen.check({"kernel": "scan", "axis": "rows", key: int(value) if kind == "int" else value})
        except kgen.SpecError as e:
            if "axis: rows" in e.message:
                refused.add(key)
    assert tried >= 15, listing
    assert refused, "no key was refused for axis: rows: the probe no longer reaches the only-with table"
    assert _scan.COLUMN_KEYS == refused | {"axis"}


def test_scan_ops_are_the_ops_kgen_keys_lists():
    """kgen.scan's OPS (what it checks op= against before asking C) are the
    op values `kgen keys scan` lists for the family."""
    from kgen import _scan
    listing = kgen_keys("scan")
    ops = [values.split() for key, _, values, _ in listing if key == "op"]
    assert len(ops) == 1, listing
    assert tuple(ops[0]) == _scan.OPS
