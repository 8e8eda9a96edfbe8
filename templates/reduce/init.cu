//! Stage `atomic`: the result starts at the identity before the atomics.
// Run first, <<<1, 1>>>: set *out to the identity of {{op}}, which the atomics combine into.
extern "C" __global__ void {{name}}_init(Acc *out)
{
    {{start_next}}
    *out = identity();
}
