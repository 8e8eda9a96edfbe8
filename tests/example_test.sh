#!/bin/sh
# Run examples/reduce_jit (built by make check) on the GPU; skip (77) where
# `kgen info` finds none.
set -u
top_builddir=${top_builddir:-.}
if ! info=$("$top_builddir/kgen" info 2>&1); then
	echo "SKIP: no GPU: $info"
	exit 77
fi
exec "$top_builddir/examples/reduce_jit"
