//! Strategy `block`, axis rows: a block per row, or `split` blocks per row.
// Block b reduces part b % split of row b / split: its threads take every
// THREADS-th vector of the part, and block_reduce() combines them.  With
// one part per row the block writes the row's result.  With more, each
// block publishes its partial and takes a ticket of its row: the row's last
// block to finish combines the row's partials in order (so the result does
// not depend on which block finished first), and clears the partials and
// the ticket, so that the scratch is zero again for the next launch.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index pitch,
    unsigned int split, Acc *__restrict__ partials, unsigned int *__restrict__ tickets)
{
    const int tid = threadIdx.x;
    const Index row = blockIdx.x / split;
    const unsigned int part = blockIdx.x % split;
    // Parts of whole vectors, so that they start aligned where the row does.
    const Index chunk = ((cols + split - 1) / split + VEC - 1) / VEC * VEC;
    const Index first = (Index)part * chunk < cols ? (Index)part * chunk : cols;
    const Index n = cols - first < chunk ? cols - first : chunk;

    Acc acc = reduce_span<1>(in + row * pitch + first, first, n, tid, THREADS, identity());
    acc = block_reduce(acc);
    if (split == 1) {
        if (tid == 0)
            store(out, row, acc, cols);
        return;
    }

    __shared__ bool is_last;
    if (tid == 0) {
        partials[row * split + part] = acc;
        __threadfence();
        is_last = atomicAdd(&tickets[row], 1u) == split - 1;
    }
    __syncthreads();
    if (!is_last)
        return;

    acc = identity();
    for (unsigned int i = tid; i < split; i += THREADS)
        acc = combine(acc, __ldcg(&partials[row * split + i]));
    for (unsigned int i = tid; i < split; i += THREADS)
        partials[row * split + i] = Acc();
    acc = block_reduce(acc);
    if (tid == 0) {
        store(out, row, acc, cols);
        tickets[row] = 0;
    }
}
