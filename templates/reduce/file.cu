//! The whole generated file for `kernel: reduce`.  The header comment,
//! the type and op definitions and the kernels are filled in by gen/reduce.c.
{{header}}

// Elements are {{dtype}}, accumulated in {{acc_dtype}}; indices are {{index}}-bit.
typedef {{t_ctype}} T;
{{op_types}}
typedef {{index_ctype}} Index;

// {{threads}} threads per block; each reads {{items_elements}} per tile, {{vec}} per load ({{load_width}} bytes).
constexpr int THREADS = {{threads}};
constexpr int ITEMS = {{items}};
constexpr int VEC = {{vec}};
constexpr int LOADS = ITEMS / VEC;
constexpr Index TILE = (Index)THREADS * ITEMS;

{{vec_struct}}
{{activations}}{{op_functions}}
{{helpers}}

{{kernels}}
