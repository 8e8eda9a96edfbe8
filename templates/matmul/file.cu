//! The whole generated file for `kernel: matmul`.  The header comment, the
//! types, the constants, the helpers and the kernels are filled in by
//! gen/matmul.c.
{{header}}

// C = alpha * A B + beta * C, then the epilogue: A is m x k ({{a_layout}}-major),
// B is k x n ({{b_layout}}-major), both {{dtype}}; products accumulate in {{acc_dtype}};
// C is m x n, row-major, {{out_dtype}}.
typedef {{t_ctype}} T;      // an element of A and B{{t_note}}
typedef {{acc_ctype}} Acc;  // the accumulator, alpha and beta
typedef {{out_ctype}} Out;  // an element of C{{out_note}}

{{constants}}

{{converts}}

{{activations}}// The spec's epilogue: v = alpha * acc + beta * c (c is C's old value, 0 when
// beta is 0) to the value stored at (row, col).
static __device__ __forceinline__ Acc epilogue(Acc v, Acc acc, Acc c, int row, int col) { return {{epilogue}}; }

// C[row][col] = epilogue(alpha * acc + beta * C[row][col]); C is read only when beta != 0.
static __device__ __forceinline__ void store_c(Out *c, long long ldc, int row, int col, Acc acc, Acc alpha, Acc beta)
{
    Out *const p = c + row * ldc + col;
    const Acc old = beta != (Acc)0 ? c_to_acc(*p) : (Acc)0;
    *p = to_out(epilogue(alpha * acc + beta * old, acc, old, row, col));
}

{{store_result}}

{{tile_origin}}
{{helpers}}
{{kernels}}
