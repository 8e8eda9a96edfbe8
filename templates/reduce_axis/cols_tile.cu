//! Strategy `tile`, axis cols: threads own VEC adjacent columns and walk down the rows.
// The columns are cut into `tiles` tiles of lanes * VEC columns; block b
// works on tile b % tiles and on part b / tiles of the rows.  Thread t owns
// the VEC adjacent columns of lane t % lanes and walks down every
// (THREADS / lanes)-th row of the part from row t / lanes, so the lanes of
// a warp read whole segments of a row.  Then the row groups combine in
// shared memory.  With one part the block writes its columns' results;
// with more, each block publishes its columns' partials and takes the
// tile's ticket, and the tile's last block combines the parts in order and
// clears the partials and the ticket for the next launch.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index pitch,
    unsigned int lanes, unsigned int tiles, unsigned int split, int aligned,
    Acc *__restrict__ partials, unsigned int *__restrict__ tickets)
{
    const unsigned int groups = THREADS / lanes, lane = threadIdx.x % lanes, group = threadIdx.x / lanes;
    const unsigned int tile = blockIdx.x % tiles, part = blockIdx.x / tiles;
    const Index col = ((Index)tile * lanes + lane) * VEC;  // the first of this thread's columns
    const Index chunk = (rows + split - 1) / split;
    const Index first = (Index)part * chunk;
    const Index last = first + chunk < rows ? first + chunk : rows;
    Acc acc[VEC];

    #pragma unroll
    for (int k = 0; k < VEC; k++)
        acc[k] = identity();
    if (aligned && col + VEC <= cols) {
        // Whole vectors: `in` and the pitch keep every row's vectors aligned.
        #pragma unroll 4
        for (Index r = first + group; r < last; r += groups) {
            const Vec x = *reinterpret_cast<const Vec *>(in + r * pitch + col);
            #pragma unroll
            for (int k = 0; k < VEC; k++)
                acc[k] = fold(acc[k], x.v[k], r);
        }
    } else if (col < cols) {
        // The last columns, or rows that are not vector-aligned: element by element.
        #pragma unroll 4
        for (Index r = first + group; r < last; r += groups)
            #pragma unroll
            for (int k = 0; k < VEC; k++)
                if (col + k < cols)
                    acc[k] = fold(acc[k], in[r * pitch + col + k], r);
    }
    combine_groups(acc, groups);
    if (split == 1) {
        if (group == 0)
            #pragma unroll
            for (int k = 0; k < VEC; k++)
                if (col + k < cols)
                    store(out, col + k, acc[k], rows);
        return;
    }

    __shared__ bool is_last;
    if (group == 0)
        #pragma unroll
        for (int k = 0; k < VEC; k++)
            if (col + k < cols)
                partials[(Index)part * cols + col + k] = acc[k];
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        is_last = atomicAdd(&tickets[tile], 1u) == split - 1;
    __syncthreads();
    if (!is_last)
        return;

    // The tile's last block: the parts in order, then the groups again.  The
    // partials are read first, several in flight, and cleared after.
    #pragma unroll
    for (int k = 0; k < VEC; k++)
        acc[k] = identity();
    if (col < cols) {
        #pragma unroll 8
        for (unsigned int p = group; p < split; p += groups)
            #pragma unroll
            for (int k = 0; k < VEC; k++)
                if (col + k < cols)
                    acc[k] = combine(acc[k], __ldcg(&partials[(Index)p * cols + col + k]));
        for (unsigned int p = group; p < split; p += groups)
            #pragma unroll
            for (int k = 0; k < VEC; k++)
                if (col + k < cols)
                    partials[(Index)p * cols + col + k] = Acc();
    }
    combine_groups(acc, groups);
    if (group == 0)
        #pragma unroll
        for (int k = 0; k < VEC; k++)
            if (col + k < cols)
                store(out, col + k, acc[k], rows);
    if (threadIdx.x == 0)
        tickets[tile] = 0;
}
