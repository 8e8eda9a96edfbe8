//! The thread's accumulators (tile.cu, persistent.cu): one, one per vector
//! lane besides (pairs with vector loads), or none when every element goes
//! straight to an atomic.
{{#acc}}
Acc acc = identity();
{{/acc}}
{{#lanes}}
// One accumulator per lane of the vectors: VEC independent chains of
// compares instead of one, combined after the loop.
Acc part[VEC];
#pragma unroll
for (int k = 0; k < VEC; k++)
    part[k] = identity();
{{/lanes}}
