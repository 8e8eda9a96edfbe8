//! The row groups of a block combine their columns (strategy `tile`).
// Combine the `groups` row groups of the block: group g's acc[] goes to
// shared memory, then a tree halves the groups; group 0 ends with the
// totals of the block's columns.  Laid out [k][thread], so that the lanes
// of a warp touch consecutive words.
static __device__ __forceinline__ void combine_groups(Acc acc[VEC], unsigned int groups)
{
    __shared__ Acc buffer[VEC * THREADS];
    const unsigned int t = threadIdx.x, lanes = THREADS / groups;

    __syncthreads();  // the buffer may still be read by an earlier call
    #pragma unroll
    for (int k = 0; k < VEC; k++)
        buffer[k * THREADS + t] = acc[k];
    __syncthreads();
    for (unsigned int s = groups / 2; s > 0; s /= 2) {
        if (t / lanes < s)
            #pragma unroll
            for (int k = 0; k < VEC; k++)
                buffer[k * THREADS + t] = combine(buffer[k * THREADS + t], buffer[k * THREADS + t + s * lanes]);
        __syncthreads();
    }
    #pragma unroll
    for (int k = 0; k < VEC; k++)
        acc[k] = buffer[k * THREADS + t];
}
