"""kgen's Python API where it needs no GPU: specs from files, text and dicts,
overrides, errors with their place, generation and NVRTC compilation."""
import os
import subprocess

import pytest

import kgen

TOP = os.environ.get("KGEN_TOP_SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SPECS = os.path.join(TOP, "specs")
SUM_F32 = os.path.join(SPECS, "reduce", "best", "sum-f32.yaml")


def test_version_is_the_library_version():
    assert kgen.__version__ == "0.1.0"
    assert os.path.exists(kgen.library_path) or kgen.library_path.startswith("lib")


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
    out = subprocess.run([os.environ.get("KGEN", os.path.join(TOP, "kgen")), "check", str(bad)],
                         capture_output=True, text=True)
    if out.returncode != 127 and os.path.exists(os.environ.get("KGEN", os.path.join(TOP, "kgen"))):
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
    assert e.value.status in ("KGEN_ECOMPILE", "KGEN_EINVAL")


class FakeArray:
    """A device array as __cuda_array_interface__ describes it (never touched)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x10000):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3}


def test_inputs_kgen_cannot_take_are_refused_before_any_gpu():
    with pytest.raises(ValueError, match="contiguous"):
        kgen.reduce(FakeArray((10, 20), strides=(4, 40)))
    with pytest.raises(TypeError, match="dtype <c8 of the input is not supported"):
        kgen.reduce(FakeArray((10,), "<c8"))
    with pytest.raises(TypeError, match="is not a CUDA array"):
        kgen.reduce([1, 2, 3])
    with pytest.raises(ValueError, match="op is one of sum, min, max, prod, not 'mean'"):
        kgen.reduce(FakeArray((10,)), "mean")
    with pytest.raises(ValueError, match="axis 2 is out of range for 2 dimensions"):
        kgen.reduce(FakeArray((10, 20)), axis=2)
    with pytest.raises(ValueError, match="whole elements"):
        kgen.reduce(FakeArray((10,), strides=(6,)))
    with pytest.raises(TypeError, match="stream= takes"):
        kgen._arrays.stream_address(object())
