//! VEC elements of one type, moved by one load or store.
// VEC elements of E as one load or store (at most 16 bytes aligned: wider
// ones are two).
template <class E>
struct alignas(sizeof(E) * VEC < 16 ? sizeof(E) * VEC : 16) Vec {
    E v[VEC];
};
