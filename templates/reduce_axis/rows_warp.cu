//! One kernel of LANES threads per row (strategy `warp`; `auto` has several).
// {{doc}}
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index pitch)
{
    rows_by_lanes<{{lanes}}>(in, out, rows, cols, pitch);
}
