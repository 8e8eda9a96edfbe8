"""Shared by the tests: JAX, when a GPU test imports it, must not take most of
the GPU's memory at once (its default), since torch and CuPy share it in
the same process."""
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
