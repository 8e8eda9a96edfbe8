"""Build the kgen wheel with libkgen inside it, so that
`python3 -m pip install ./python` alone gives a working package on a machine
with the CUDA toolkit (nvrtc.h, libnvrtc), libyaml, a C compiler and make.

The C library is built from the kgen source tree: python/.. in a checkout,
or kgen-src/ inside an sdist (which carries it), or $KGEN_SOURCE_DIR.  The
files libkgen needs are copied to a scratch directory, configured there
(./bootstrap first when the tree has no configure: autoconf, automake and
libtool then) and `make libkgen.la` is run; the shared library goes into
the package as kgen/libkgen.so, beside the tuned size plans (kgen/plans/),
kgen's best matmul specs (kgen/specs/matmul/) and kgen._fast (kgen/_fast.c,
a CPython extension; left out, with a warning, where this Python has no
headers).
$KGEN_PREBUILT_LIBKGEN, when set, names a libkgen.so already built from
this tree, shipped instead of building one (tests/pip_install_test.sh
gives it the one `make` built).
Nothing is written into the source tree.  The version is AC_INIT's in
configure.ac, kgen's one place for it.  Set CUDA_HOME (or CUDA_PATH) to a
toolkit that is not /usr/local/cuda; MAKEFLAGS passes on to make.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
# What `make libkgen.la` reads, and what configure and make's own rules need.
SOURCES = ("bootstrap", "configure.ac", "Makefile.am", "kgen.pc.in", "configure", "Makefile.in", "config.h.in",
           "aclocal.m4", "build-aux", "m4", "gen", "runtime", "include", "templates", "tools")
# Build products an in-tree build leaves beside the sources.
BUILT = shutil.ignore_patterns("*.o", "*.lo", ".deps", ".libs", ".dirstamp", "templates.inc", "reserved.inc",
                               "reserved.stamp", "__pycache__")


def source_tree():
    """The kgen source tree this package is built from."""
    for d in (os.environ.get("KGEN_SOURCE_DIR"), os.path.join(HERE, "kgen-src"), os.path.join(HERE, "..")):
        if d and os.path.isfile(os.path.join(d, "configure.ac")) and os.path.isdir(os.path.join(d, "gen")):
            return os.path.abspath(d)
    sys.exit("kgen: no kgen source tree (configure.ac, gen/) at $KGEN_SOURCE_DIR, %s/kgen-src or %s/..: build the "
             "package from the kgen tree (python3 -m pip install ./python) or from its sdist" % (HERE, HERE))


def version(src):
    with open(os.path.join(src, "configure.ac")) as f:
        m = re.search(r"AC_INIT\(\[kgen\],\s*\[([^\]]+)\]", f.read())
    if not m:
        sys.exit("kgen: no AC_INIT([kgen], [VERSION]) in %s/configure.ac" % src)
    return m.group(1)


def copy_sources(src, dst):
    """The files of SOURCES from src into dst, times kept (so that make does not
    think configure older than configure.ac)."""
    os.makedirs(dst, exist_ok=True)
    for name in SOURCES:
        p = os.path.join(src, name)
        if os.path.isdir(p):
            shutil.copytree(p, os.path.join(dst, name), ignore=BUILT, symlinks=False)
        elif os.path.isfile(p):
            shutil.copy2(p, os.path.join(dst, name))


def run(cmd, cwd, log):
    log.write("$ %s\n" % " ".join(cmd))
    log.flush()
    if subprocess.call(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT) != 0:
        log.close()
        with open(log.name) as f:
            sys.exit("kgen: building libkgen failed at `%s` (in %s):\n%s" % (" ".join(cmd), cwd, f.read()[-6000:]))


def build_libkgen(src, dest):
    """Build libkgen from src in a scratch directory; the shared library as dest
    (or $KGEN_PREBUILT_LIBKGEN's, when set)."""
    prebuilt = os.environ.get("KGEN_PREBUILT_LIBKGEN")
    if prebuilt:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.realpath(prebuilt), dest)  # the file, not the libtool symlink
        return
    work = tempfile.mkdtemp(prefix="kgen-build-")
    try:
        tree = os.path.join(work, "kgen")
        copy_sources(src, tree)
        with open(os.path.join(work, "build.log"), "w") as log:
            if not os.path.isfile(os.path.join(tree, "configure")):
                run(["sh", "./bootstrap"], tree, log)
            cuda = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
            # The unit tests' library (check) is not needed for the library: tell configure it is there.
            cmd = ["./configure", "--disable-static", "--disable-cub-helper", "PYTHON=" + sys.executable,
                   "CHECK_CFLAGS= ", "CHECK_LIBS= "] + (["--with-cuda=" + cuda] if cuda else [])
            run(cmd, tree, log)
            jobs = "-j%d" % max(1, min(os.cpu_count() or 1, 8))
            run(["make", jobs, "libkgen.la"], tree, log)
        lib = os.path.join(tree, ".libs", "libkgen.so")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.realpath(lib), dest)  # the file, not the libtool symlink
    finally:
        shutil.rmtree(work, ignore_errors=True)


def plans(src):
    """The tuned size plans, a folder a GPU model (nvidia-h200/OP-DTYPE.yaml;
    the tuning spaces beside the folders are not plans)."""
    return sorted(glob.glob(os.path.join(src, "specs", "plans", "*", "*-*.yaml")))


def copy_plans(paths, dst):
    """Each plan of paths into its GPU's folder under dst."""
    for p in paths:
        copy_all([p], os.path.join(dst, os.path.basename(os.path.dirname(p))))


def best_matmul(src):
    """kgen's best matmul specs, which kgen.matmul takes without spec=."""
    return sorted(glob.glob(os.path.join(src, "specs", "matmul", "best", "*.yaml")))


def copy_all(paths, dst):
    """Each file of paths into the folder dst (made when missing), times kept."""
    os.makedirs(dst, exist_ok=True)
    for p in paths:
        shutil.copy2(p, os.path.join(dst, os.path.basename(p)))


class BuildPy(build_py):
    """The package's modules, then libkgen, the plans and the best matmul specs into it."""

    def run(self):
        super().run()
        src = source_tree()
        pkg = os.path.join(self.build_lib, "kgen")
        build_libkgen(src, os.path.join(pkg, "libkgen.so"))
        copy_plans(plans(src), os.path.join(pkg, "plans"))
        copy_all(best_matmul(src), os.path.join(pkg, "specs", "matmul"))


class Sdist(sdist):
    """An sdist that carries the C sources (kgen-src/), the plans and the best
    matmul specs, so that its wheel builds anywhere; bootstrapped when
    autoreconf is at hand, so that building it needs no autotools."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        src, dst = source_tree(), os.path.join(base_dir, "kgen-src")
        copy_sources(src, dst)
        copy_plans(plans(src), os.path.join(dst, "specs", "plans"))
        copy_all(best_matmul(src), os.path.join(dst, "specs", "matmul", "best"))
        if not os.path.isfile(os.path.join(dst, "configure")) and shutil.which("autoreconf"):
            subprocess.check_call(["sh", "./bootstrap"], cwd=dst, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: tagged for this platform, not pure."""

    def has_ext_modules(self):
        return True


# kgen._fast: kgen.reduce's torch fast path in C (kgen/_fast.c).  Optional: a
# Python without its headers (python3-dev) gets the package with the same path
# in Python.
# Python 3.9 or later (kgen/_fast.c says why).
FAST = Extension("kgen._fast", sources=["kgen/_fast.c"], include_dirs=[os.path.join(source_tree(), "include")],
                 extra_compile_args=["-std=c11"], optional=True)

setup(version=version(source_tree()), cmdclass={"build_py": BuildPy, "sdist": Sdist}, distclass=BinaryDistribution,
      ext_modules=[FAST] if sys.version_info >= (3, 9) else [])
