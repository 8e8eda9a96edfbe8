//! Stage `two_pass`, second kernel: one block over the first kernel's partials.
// Second pass, one block of THREADS threads: combine the `count` partials of
// the first pass into *out.
extern "C" __global__ void __launch_bounds__(THREADS)
{{name}}_final(const Acc *__restrict__ partials, {{out_params}})
{
    const int tid = threadIdx.x;
    Acc acc = identity();

    {{wait}}
    for (unsigned int i = tid; i < count; i += THREADS)
        acc = combine(acc, partials[i]);
    acc = block_reduce(acc);
    if (tid == 0)
        {{store}}
}
