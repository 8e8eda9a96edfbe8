/* packed.c - kgen_reduce_packed(): the reductions' four calls behind one
 * entry that takes its arguments in an array (include/kgen.h says why). */
#include "config.h"
#include <stdint.h>
#include "runtime.h"

kgen_status
kgen_reduce_packed(const unsigned long long a[KGEN_PACKED_COUNT])
{
	kgen_kernel *k;
	kgen_error *err;

	if (!a)
		return KGEN_EINVAL;  /* no kgen_error to say it in */
	k = (kgen_kernel *)(uintptr_t)a[KGEN_PACKED_KERNEL];
	err = (kgen_error *)(uintptr_t)a[KGEN_PACKED_ERROR];
	if (!k)
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_packed: NULL kernel");
	switch (k->spec.kernel) {
	case KGEN_REDUCE:
		if (a[KGEN_PACKED_INDEX])
			return kgen_reduce_arg(k, a[KGEN_PACKED_IN], a[KGEN_PACKED_N], a[KGEN_PACKED_OUT], a[KGEN_PACKED_INDEX],
			                       a[KGEN_PACKED_SCRATCH], (size_t)a[KGEN_PACKED_SCRATCH_BYTES],
			                       (kgen_stream)(uintptr_t)a[KGEN_PACKED_STREAM], err);
		return kgen_reduce(k, a[KGEN_PACKED_IN], a[KGEN_PACKED_N], a[KGEN_PACKED_OUT], a[KGEN_PACKED_SCRATCH],
		                   (size_t)a[KGEN_PACKED_SCRATCH_BYTES], (kgen_stream)(uintptr_t)a[KGEN_PACKED_STREAM], err);
	case KGEN_REDUCE_AXIS:
		if (a[KGEN_PACKED_INDEX])
			return kgen_reduce_axis_arg(k, a[KGEN_PACKED_IN], a[KGEN_PACKED_N], a[KGEN_PACKED_COLS],
			                            a[KGEN_PACKED_PITCH], a[KGEN_PACKED_OUT], a[KGEN_PACKED_INDEX],
			                            a[KGEN_PACKED_SCRATCH], (size_t)a[KGEN_PACKED_SCRATCH_BYTES],
			                            (kgen_stream)(uintptr_t)a[KGEN_PACKED_STREAM], err);
		return kgen_reduce_axis(k, a[KGEN_PACKED_IN], a[KGEN_PACKED_N], a[KGEN_PACKED_COLS], a[KGEN_PACKED_PITCH],
		                        a[KGEN_PACKED_OUT], a[KGEN_PACKED_SCRATCH], (size_t)a[KGEN_PACKED_SCRATCH_BYTES],
		                        (kgen_stream)(uintptr_t)a[KGEN_PACKED_STREAM], err);
	default:
		return kgen_fail(err, KGEN_EINVAL, "kgen_reduce_packed: %s is a %s kernel, not reduce or reduce_axis",
		                 kgen_spec_kernel_name(&k->spec), kgen_families[k->spec.kernel].name);
	}
}
