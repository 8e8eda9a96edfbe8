//! kernel: scan, block_scan: blelloch: up-sweep and down-sweep of a tree.
// Each thread's total as the combination of the totals of the threads
// before it (the identity for thread 0), and the block's total in *all:
// Blelloch's tree in shared memory, an up-sweep that leaves each subtree's
// total at its last node, the root cleared to the identity, and a
// down-sweep that gives each left child its parent's prefix and each right
// child that prefix combined with its left sibling's total (2 THREADS
// combines, THREADS a power of two).
static __device__ __forceinline__ Acc block_exclusive(Acc total, Acc *all)
{
    __shared__ Acc tree[THREADS];
    const int t = threadIdx.x;

    __syncthreads();  // the last tile's tree is read
    tree[t] = total;
    __syncthreads();
    for (int d = 1; d < THREADS; d *= 2) {
        const int i = (t + 1) * 2 * d - 1;
        if (i < THREADS)
            tree[i] = combine(tree[i - d], tree[i]);
        __syncthreads();
    }
    *all = tree[THREADS - 1];
    __syncthreads();
    if (t == 0)
        tree[THREADS - 1] = identity();
    __syncthreads();
    for (int d = THREADS / 2; d >= 1; d /= 2) {
        const int i = (t + 1) * 2 * d - 1;
        if (i < THREADS) {
            const Acc left = tree[i - d];
            tree[i - d] = tree[i];
            tree[i] = combine(tree[i], left);
        }
        __syncthreads();
    }
    return tree[t];
}
