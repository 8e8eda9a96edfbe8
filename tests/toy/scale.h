/* scale.h - what the toy family's launcher and runner take from its
 * generator (a real family's gen/STEM.h): the one grid rule, which the
 * header comment states and the launcher applies. */
#ifndef KGEN_TOY_SCALE_H
#define KGEN_TOY_SCALE_H

#include "gen/spec.h"

/* Elements one block scales: threads x stages.  The grid is ceil(n / this). */
long long kgen_scale_per_block(const struct kgen_spec *s);

#endif
