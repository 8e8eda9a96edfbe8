//! `method: smem`: the global loads and stores, as named helpers with the
//! spec's cache operators (load_hint, store_hint): load_vec and store_vec
//! move one vector, through the raw word of its size that the intrinsics
//! (__ldcs, __stcs, ...) take; load_one and store_one one element (the
//! tiles at the edges).
// Global loads: {{load_doc}}.
{{#load}}
static __device__ __forceinline__ Vec load_vec(const T *p)
{
    const {{word}} bits = {{load}}(reinterpret_cast<const {{word}} *>(p));
    return *reinterpret_cast<const Vec *>(&bits);
}
static __device__ __forceinline__ T load_one(const T *p) { return {{load}}(p); }
{{/load}}
{{^load}}
static __device__ __forceinline__ Vec load_vec(const T *p) { return *reinterpret_cast<const Vec *>(p); }
static __device__ __forceinline__ T load_one(const T *p) { return *p; }
{{/load}}

// Global stores: {{store_doc}}.
{{#store}}
static __device__ __forceinline__ void store_vec(T *p, const Vec &v)
{
    {{store}}(reinterpret_cast<{{word}} *>(p), *reinterpret_cast<const {{word}} *>(&v));
}
static __device__ __forceinline__ void store_one(T *p, T v) { {{store}}(p, v); }
{{/store}}
{{^store}}
static __device__ __forceinline__ void store_vec(T *p, const Vec &v) { *reinterpret_cast<Vec *>(p) = v; }
static __device__ __forceinline__ void store_one(T *p, T v) { *p = v; }
{{/store}}
