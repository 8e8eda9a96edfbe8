# asan_preload.sh - sourced by the tests that start a program not built with
# AddressSanitizer (python3) on a libkgen that is: in the sanitizer build
# (configure --enable-sanitizers, `make check-sanitize`) the ASan runtime
# must be loaded first, so it is preloaded, and leak checking is off in
# that program (CPython keeps its objects at exit by design; libkgen's own
# leaks are checked by the C tests).  Says so once; does nothing elsewhere.
if [ -n "${KGEN_ASAN_PRELOAD:-}" ] && [ -f "$KGEN_ASAN_PRELOAD" ]; then
	echo "note: sanitizer build: python3 runs with LD_PRELOAD=$KGEN_ASAN_PRELOAD and ASAN_OPTIONS=detect_leaks=0"
	LD_PRELOAD=$KGEN_ASAN_PRELOAD${LD_PRELOAD:+:$LD_PRELOAD}
	ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	export LD_PRELOAD ASAN_OPTIONS
fi
