//! The kernel of strategy online (and auto's for long rows).
// {{doc}}
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const Rows a)
{
    for (Index row = blockIdx.x; row < a.rows; row += gridDim.x)
        {{call}};
}
