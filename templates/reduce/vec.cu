//! The vector type for loads wider than one element.
// {{load_width}} bytes of the input, read with {{how}}.
struct __align__({{align}}) Vec {
    T v[VEC];
};

