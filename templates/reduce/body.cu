//! The main kernel's body (reduce/kernel.cu): the unaligned head when the
//! loads are vectors, the waits and starts of `launch: pdl` and `chain` where the stages
//! need them, the thread phase (tile.cu or persistent.cu), the head's
//! elements, then the finish (the block reduction and the combine across
//! blocks, or nothing when every element went to an atomic).
{{#unaligned}}
// `in` may start at any element: the elements before its first {{align}}-byte
// boundary are taken one at a time by block 0, and the tiles start at the
// boundary, so that every vector load is aligned.
const T *const unaligned = in;
const Index head = aligned_head(in, n);
in += head;
n -= head;

{{/unaligned}}
{{#wait_first}}
// launch: chain: placed on the GPU while the work before it in the stream
// ran; wait for it before touching memory, then let the next kernel be placed.
wait_for_previous_kernel();
let_next_kernel_start();

{{/wait_first}}
{{#start_next}}
// The second pass may start launching now: it waits for these partials.
let_next_kernel_start();

{{/start_next}}
{{#wait_init}}
// The atomics below need *out at the identity: _init must have finished.
wait_for_previous_kernel();

{{/wait_init}}
{{thread}}
{{#lanes}}
#pragma unroll
for (int k = 0; k < VEC; k++)
    acc = combine(acc, part[k]);
{{/lanes}}
{{#unaligned}}
if (blockIdx.x == 0 && tid < head)
    {{head}}
{{/unaligned}}
{{#wait_atomic}}

// The loads above overlapped _init; the atomic needs *out at the identity.
wait_for_previous_kernel();
{{/wait_atomic}}
{{#finish}}

{{finish}}
{{/finish}}
