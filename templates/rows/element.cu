//! Element j of a vector of x, or of the weight or bias, as a float: {{fn}}() of one element.
// Element j of vector w as a float.
static __device__ __forceinline__ Acc {{fn}}(const Vec<{{type}}> &w, int j)
{
{{#pairs}}
    // bf16 by pairs: of the 32-bit word two share, the low element shifted
    // up, the high one masked: one instruction each (the high one alone,
    // shifted down and up, took two).
    if constexpr (VEC % 2 == 0) {
        const unsigned int u = reinterpret_cast<const unsigned int *>(w.v)[j / 2];
        return __uint_as_float(j % 2 ? u & 0xffff0000u : u << 16);
    }
{{/pairs}}
    return {{fn}}(w.v[j]);
}
