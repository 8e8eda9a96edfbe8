"""Specs from Python: loading (a path, YAML text, a dict or a Spec, with
overrides), validation, generation and NVRTC compilation, through libkgen;
no GPU needed."""
import os
import re
import threading
from typing import Any, Literal, Union, overload

from . import _lib
from ._errors import KgenError

_local = threading.local()


def _err():
    e = getattr(_local, "err", None)
    if e is None:
        e = _local.err = _lib.Error()
    return e


def _value(where, key, v):
    """A spec value as set_many takes it: an int's decimal text, a str as it
    is (kgen reads it as the value itself, never as YAML)."""
    if isinstance(v, str):
        return _lib.text(where, key, v)
    if not isinstance(v, bool) and hasattr(v, "__index__"):
        return str(v.__index__()).encode()
    raise TypeError("%s: %s is an integer or a name, not %s (%s)" % (where, key, _lib.shown(v), type(v).__name__))


def _fields(where, d):
    """A dict of fields as set_many's keys and values (bytes), checked."""
    keys, values = [], []
    for k, v in d.items():
        if not isinstance(k, str):
            raise TypeError("%s: spec keys are names, not %s" % (where, _lib.shown(k)))
        keys.append(_lib.text(where, "a spec key", k))
        values.append(_value(where, k, v))
    return keys, values


# A dict's kernel family: a name, so that `kernel: NAME` is the only YAML
# kgen reads for a dict (libkgen says which names it knows).
_FAMILY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def _family_yaml(where, d):
    if "kernel" not in d:
        return b"{}\n"  # libkgen's "missing key 'kernel'", with the families it knows
    f = d["kernel"]
    if not isinstance(f, str):
        raise TypeError("%s: kernel is the name of a kernel family, such as 'reduce', not %s (%s)"
                        % (where, _lib.shown(f), type(f).__name__))
    if not _FAMILY.fullmatch(f):
        raise ValueError("%s: kernel is the name of a kernel family, such as 'reduce', not %s" % (where, _lib.shown(f)))
    return b"kernel: %s\n" % f.encode()


def _placeless(err, name):
    """A dict has no lines: its errors name it and no place in the YAML kgen read."""
    err.file = name
    err.line = err.column = 0
    err.source_line = b""
    return err


class Spec:
    """A loaded, validated spec (kgen_spec), with `overrides` applied.

    `spec` is a path to a YAML file, YAML text (anything with a colon that
    is not a file) or a dict of fields.  A dict is never written out as
    YAML: its `kernel` is loaded, then every other field is set as
    overrides are (kgen_spec_set_many), so a value is only ever that
    field's value.  fields holds every field with the
    defaults resolved, as text ({"kernel": "reduce", "threads": "512", ...});
    yaml is every key of the family, one `key: value` line each, as
    kgen_spec_dump() writes it (keys that do not apply included, so it is
    a record of the spec, not a spec to load again).
    """

    def __init__(self, spec: Any, **overrides: Union[int, str]) -> None:
        self._load(spec, overrides, "kgen.Spec")

    def _load(self, spec, overrides, where):
        self._handle = None
        err = _err()
        h = _lib.ctypes.c_void_p()
        if isinstance(spec, Spec) and spec._origin is not None:
            # The same origin again (the dump lists keys a spec may not write), then its overrides and ours.
            overrides = dict(spec._overrides, **overrides)
            spec = spec._origin
        over = _fields(where, overrides)
        if isinstance(spec, Spec):  # a record of libkgen's (a plan's entry): a copy of it, then the overrides
            if not spec._handle:
                raise ValueError("%s: the spec %s holds no spec to copy" % (where, spec.source))
            st = _lib.kgen_spec_copy(spec._handle, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            _lib.check(st, err)
        elif isinstance(spec, dict):
            text = _family_yaml(where, spec)
            fields = _fields(where, {k: v for k, v in spec.items() if k != "kernel"})
            st = _lib.kgen_spec_load_string(text, len(text), b"<dict>", _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            _lib.check(st, _placeless(err, b"<dict>") if st else err)
        elif isinstance(spec, (str, os.PathLike)):
            s = os.fspath(spec)
            if not s.strip():
                raise ValueError("%s: the spec is empty: pass a path, YAML text (kernel: ...), a dict or a kgen.Spec"
                                 % where)
            text = _lib.text(where, "spec", s)
            if os.path.exists(s) or b":" not in text:
                st = _lib.kgen_spec_load_file(text, _lib.ctypes.byref(h), _lib.ctypes.byref(err))
            else:
                st = _lib.kgen_spec_load_string(text, len(text), b"<string>", _lib.ctypes.byref(h),
                                                _lib.ctypes.byref(err))
            _lib.check(st, err)
        else:
            raise TypeError("%s: a spec is a path, YAML text, a dict or a kgen.Spec, not %s"
                            % (where, type(spec).__name__))
        self._handle = h.value
        self._origin = spec
        self._overrides = overrides
        if isinstance(spec, dict) and fields[0]:
            # The dict's fields and the overrides in one set, so that fields
            # that must change together can (op: custom and its expressions).
            keys, values = dict(zip(*fields)), dict(zip(*over))
            keys.update(values)
            self._set((list(keys), list(keys.values())), b"<dict>")
        elif over[0]:
            self._set(over)
        self._describe(self._handle)

    def _describe(self, handle):
        """source, yaml and fields, from libkgen's spec."""
        self.source = _lib.kgen_spec_source(handle).decode()
        out = _lib.ctypes.c_void_p()
        if _lib.kgen_spec_dump(handle, _lib.ctypes.byref(out)):
            raise MemoryError("kgen: out of memory")
        self.yaml = _lib.take_string(out.value)
        self.fields = dict(line.split(": ", 1) for line in self.yaml.splitlines() if ": " in line)

    @classmethod
    def _record(cls, handle):
        """A spec libkgen owns (a plan's entry) as a Spec of its own: a copy,
        which kgen.check, generate, compile and Kernel take as any other."""
        s = cls.__new__(cls)
        s._handle, s._origin, s._overrides = None, None, {}
        h, err = _lib.ctypes.c_void_p(), _err()
        _lib.check(_lib.kgen_spec_copy(handle, _lib.ctypes.byref(h), _lib.ctypes.byref(err)), err)
        s._handle = h.value
        s._describe(s._handle)
        return s

    def _set(self, fields, placeless=None):
        """Set fields (keys and values from _fields) in one kgen_spec_set_many."""
        keys, values = fields
        n = len(keys)
        err = _err()
        st = _lib.kgen_spec_set_many(self._handle, n, (_lib.ctypes.c_char_p * n)(*keys),
                                     (_lib.ctypes.c_char_p * n)(*values), _lib.ctypes.byref(err))
        _lib.check(st, _placeless(err, placeless) if st and placeless else err)

    def __getitem__(self, key):
        return self.fields[key]

    def __repr__(self):
        return "kgen.Spec(%r: %s)" % (self.source, ", ".join("%s=%s" % kv for kv in self.fields.items()))

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.kgen_spec_free(self._handle)
            self._handle = None


def _spec(where, spec, overrides, again=False):
    """spec as a Spec (itself when it is one and nothing is overridden, unless again)."""
    if isinstance(spec, Spec) and not overrides and not again:
        return spec
    s = Spec.__new__(Spec)
    s._load(spec, overrides, where)
    return s


def check(spec: Any, **overrides: Union[int, str]) -> "Spec":
    """Load and validate a spec (with overrides); the Spec, or SpecError."""
    return _spec("kgen.check", spec, overrides, again=True)


def generate(spec: Any, **overrides: Union[int, str]) -> str:
    """The CUDA C source kgen generates for a spec, as str."""
    s = _spec("kgen.generate", spec, overrides)
    err, out = _err(), _lib.ctypes.c_void_p()
    _lib.check(_lib.kgen_generate(s._handle, _lib.ctypes.byref(out), _lib.ctypes.byref(err)), err)
    return _lib.take_string(out.value)


@overload
def compile(spec: Any, arch: str = ..., ptx: Literal[False] = ..., **overrides: Union[int, str]) -> bytes: ...


@overload
def compile(spec: Any, arch: str = ..., *, ptx: Literal[True], **overrides: Union[int, str]) -> str: ...


@overload
def compile(spec: Any, arch: str, ptx: Literal[True], **overrides: Union[int, str]) -> str: ...


def compile(spec: Any, arch: str = "sm_90", ptx: bool = False, **overrides: Union[int, str]) -> Union[bytes, str]:
    """Generate and compile a spec with NVRTC for `arch` (no GPU needed): the
    cubin as bytes, or the PTX as str with ptx=True.  As `kgen compile`, a
    spec whose features need a newer GPU than arch is a SpecError at its
    key, and one that needs Hopper's arch-specific form is compiled for it
    (math: wgmma: sm_90a for sm_90).  NVRTC's rejection is a KgenError
    (KGEN_ECOMPILE) whose message carries the log (cut to fit; .log holds
    all of it)."""
    arch = _lib.text("kgen.compile", "arch", arch)
    s = _spec("kgen.compile", spec, overrides)
    err = _err()
    _lib.check(_lib.kgen_spec_check_arch(s._handle, arch, _lib.ctypes.byref(err)), err)
    specific = _lib.ctypes.create_string_buffer(64)
    arch = _lib.kgen_spec_compile_arch(s._handle, arch, specific, len(specific)) or arch
    src = generate(s).encode()
    image, size, log = _lib.ctypes.c_void_p(), _lib.ctypes.c_size_t(), _lib.ctypes.c_void_p()
    st = _lib.kgen_compile(src, b"kernel.cu", arch, 1 if ptx else 0, _lib.ctypes.byref(image),
                           _lib.ctypes.byref(size), _lib.ctypes.byref(log), _lib.ctypes.byref(err))
    text = _lib.take_string(log.value) if log.value else ""
    if st:
        if text:
            err.message = (err.message.decode("utf-8", "replace") + "\n" + text).encode()[:1023]
        try:
            _lib.check(st, err)
        except KgenError as e:
            e.log = text  # NVRTC's whole log, which the message may cut
            raise
    data = _lib.take_bytes(image.value, size.value)
    return data.rstrip(b"\0").decode() if ptx else data


_field_values = {}  # (_spec_key(spec), a field's name) -> its value


def spec_field(spec, name, default=None):
    """Field `name` of spec= (a dict's own, a Spec's, a path's or YAML
    text's once loaded and kept), or default where it has none."""
    if isinstance(spec, dict):
        return spec.get(name, default)
    if isinstance(spec, Spec):
        return spec.fields.get(name, default)
    key = (_spec_key(spec), name)
    if key not in _field_values:
        _field_values[key] = Spec(spec).fields.get(name, default)
    return _field_values[key]


def _spec_key(spec, what="spec"):
    """What keys the kernel of spec= (or plan=, what) in the one-call API's caches."""
    if isinstance(spec, dict):
        return ("dict", tuple(sorted((k, str(v)) for k, v in spec.items())))
    if isinstance(spec, Spec):
        return ("spec", spec.yaml)
    if not isinstance(spec, (str, bytes, os.PathLike)):
        raise TypeError("%s= is %s, not %s (%s)" % (what, "a size plan's path or YAML text (or False: none)"
                                                    if what == "plan" else "a path, YAML text, a dict or a kgen.Spec",
                                                    _lib.shown(spec), type(spec).__name__))
    return ("text", os.fspath(spec))
