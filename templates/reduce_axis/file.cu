//! The whole generated file for `kernel: reduce_axis`.  The header comment,
//! the type and op definitions, the helpers and the kernel are filled in by
//! gen/reduce_axis.c.
{{header}}

// Elements are {{dtype}}, accumulated in {{acc_dtype}}; indices are 64-bit.
typedef {{t_ctype}} T;
{{op_types}}
typedef unsigned long long Index;

{{constants}}
{{vec_struct}}
{{activations}}{{op_functions}}
{{helpers}}

{{kernel}}
