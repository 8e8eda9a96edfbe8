//! Stage `last_block`: publish the block's partial; the last block combines them all.
acc = block_reduce(acc);

// A grid of one block (n within one tile) holds the whole result already:
// no partial to publish, no ticket to take.
if (gridDim.x == 1) {
    if (tid == 0) {
        {{store}}
    }
    return;
}

// Publish this block's partial, then take a ticket: the block that takes
// the last ticket sees every partial and combines them in block order, so
// the result does not depend on which block finished first.
__shared__ bool is_last;
if (tid == 0) {
    partials[blockIdx.x] = acc;
    __threadfence();
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
}
__syncthreads();
if (!is_last)
    return;

acc = identity();
for (unsigned int i = tid; i < gridDim.x; i += THREADS)
    acc = combine(acc, __ldcg(&partials[i]));
acc = block_reduce(acc);
if (tid == 0) {
    {{store}}
    *ticket = 0;  // ready for the next launch
}
