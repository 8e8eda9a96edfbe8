//! The kernel of strategy cluster.
// A cluster of CLUSTER blocks per row: block r of the cluster holds the
// row's vectors r * THREADS + t, and r * THREADS + t + CLUSTER * THREADS,
// ... in thread t.  The clusters walk the rows a grid apart.
extern "C" __global__ void __cluster_dims__(CLUSTER, 1, 1) __launch_bounds__(THREADS)
{{name}}(const Rows a)
{
    const int lane = cluster_rank() * THREADS + threadIdx.x;

    for (Index row = blockIdx.x / CLUSTER; row < a.rows; row += gridDim.x / CLUSTER)
        {{call}}<THREADS, {{vecs}}>(a, row, lane, true);
}
