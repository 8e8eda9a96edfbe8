//! Block reduction through a tree in shared memory; the step is filled in.
// The block's total, in thread 0: {{doc}}
static __device__ __forceinline__ Acc block_reduce(Acc v)
{
    __shared__ Acc buffer[THREADS];
    const int tid = threadIdx.x;

    buffer[tid] = v;
    __syncthreads();
    {{tree}}
    {{tail}}
}
