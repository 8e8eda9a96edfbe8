//! The main kernel: each thread reduces its items, then the stage's finish.
// {{doc}}
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}({{params}})
{
    const int tid = threadIdx.x;
    {{body}}
}
