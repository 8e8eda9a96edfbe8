"""kgen's errors in Python: a spec error keeps its file, line and column."""

_STATUS = ["KGEN_OK", "KGEN_ESPEC", "KGEN_EIO", "KGEN_ECOMPILE", "KGEN_ECUDA", "KGEN_EINVAL", "KGEN_ENOMEM",
           "KGEN_EVERIFY", "KGEN_EINTERNAL"]


def status_name(status):
    return _STATUS[status] if 0 <= status < len(_STATUS) else "KGEN_E%d" % status


# What works without a GPU, said after a missing driver's error as the kgen
# command says it (cli/cli.c, kgen_report): libkgen's "no CUDA driver: ..."
# (kgen_context_create) and kgen._driver's "cannot load the CUDA driver".
NO_DRIVER_HINT = ("running kernels (kgen.Kernel, kgen.reduce, kgen.argmax, kgen.transpose, kgen.matmul, kgen.scan, "
                  "kgen.softmax and the other row functions) needs an NVIDIA GPU and its driver;\n"
                  "kgen.check, kgen.generate, kgen.compile and kgen.Spec work without one.")


def _no_driver(status, message):
    return status == "KGEN_ECUDA" and message.startswith(("no CUDA driver", "cannot load the CUDA driver"))


class DimError(IndexError, ValueError):
    """A dim or axis out of range for the array: an IndexError, as torch
    raises, and a ValueError, as numpy's AxisError is."""


class KgenError(Exception):
    """A libkgen call failed: status is its name ("KGEN_ECUDA", "KGEN_EINVAL", ...).
    Without a CUDA driver, str() ends with what works without one."""

    def __init__(self, status, message, file=""):
        self.status = status
        self.message = message
        self.file = file
        text = ("%s: error: %s" % (file, message)) if file else message
        if _no_driver(status, message):
            text += "\n" + NO_DRIVER_HINT
        super().__init__(text)


class SpecError(KgenError, ValueError):
    """The spec is wrong.  str() is the error as kgen prints it:
    "file:line:column: error: message", the spec's line and a caret."""

    def __init__(self, file, line, column, message, source_line=""):
        self.line = line
        self.column = column
        self.source_line = source_line
        KgenError.__init__(self, "KGEN_ESPEC", message, file)
        if line > 0:
            text = "%s:%d:%d: error: %s" % (file, line, column, message)
            if source_line:
                text += "\n  %s\n  %s^" % (source_line, " " * (column - 1))
        elif file:
            text = "%s: error: %s" % (file, message)
        else:
            text = "kgen: error: %s" % message
        self.args = (text,)


class CaptureError(KgenError, RuntimeError):
    """A call on a stream that is being captured into a CUDA graph would have
    to build a kernel or allocate memory, which a capture cannot record (and
    which would break it).  Run the same call once before the capture."""

    def __init__(self, message):
        KgenError.__init__(self, "KGEN_EINVAL", message)
