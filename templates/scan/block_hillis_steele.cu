//! kernel: scan, block_scan: hillis_steele: log2(threads) steps, two buffers.
// Each thread's total as the combination of the totals of the threads
// before it (the identity for thread 0), and the block's total in *all:
// log2(THREADS) steps over two buffers in shared memory, at step d every
// thread combining the total d places before it with its own (Hillis and
// Steele; each step reads one buffer and writes the other).
static __device__ __forceinline__ Acc block_exclusive(Acc total, Acc *all)
{
    __shared__ Acc buffer[2][THREADS];
    const int t = threadIdx.x;
    int from = 0;

    __syncthreads();  // the last tile's totals are read
    buffer[0][t] = total;
    __syncthreads();
    for (int d = 1; d < THREADS; d *= 2) {
        buffer[1 - from][t] = t >= d ? combine(buffer[from][t - d], buffer[from][t]) : buffer[from][t];
        from = 1 - from;
        __syncthreads();
    }
    *all = buffer[from][THREADS - 1];
    return t == 0 ? identity() : buffer[from][t - 1];
}
