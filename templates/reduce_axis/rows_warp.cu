//! One kernel of several threads per row (strategy `warp`; `auto` has several).
// {{doc}}
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}(const T *__restrict__ in, Results out, Index rows, Index cols, Index pitch)
{
    {{body}}(in, out, rows, cols, pitch);
}
