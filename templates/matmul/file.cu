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
{{#bias}}
typedef {{bias_ctype}} Bias;  // an element of the bias vector{{bias_note}}
{{/bias}}
{{#residual}}
typedef {{residual_ctype}} Residual;  // an element of the residual matrix{{residual_note}}
{{/residual}}

{{constants}}

{{converts}}

{{activations}}// What every kernel hands the epilogue besides the element: alpha and beta{{operands_note}}.
struct Epilogue {
    Acc alpha, beta;
{{#bias}}
    const Bias *bias;          // {{bias_count}} values, bias[{{bias_index}}]
{{/bias}}
{{#residual}}
    const Residual *residual;  // m x n, row-major: residual[row * ldr + col]
    long long ldr;             // residual's row pitch, in elements
{{/residual}}
{{#aux}}
    Out *aux;                  // the auxiliary output, m x n, row-major: aux[row * ldaux + col]
    long long ldaux;           // its row pitch, in elements
{{/aux}}
{{#reductions}}
{{reduce_members}}
{{/reductions}}
{{#scaled}}
    const float *scale_a, *scale_b;  // scale: tensor: A's and B's scales, one f32 each: acc = *scale_a *scale_b A B
{{/scaled}}
{{#block_scaled}}
    const float *scale_a;  // scale: block: A's, one a row and 128 of k: scale_a[kb * m + row]
    const float *scale_b;  // and B's, one a 128 x 128 block: scale_b[(col / 128) * ceil(k / 128) + kb]
{{/block_scaled}}
};

// The epilogue's operands at one element, as it reads them{{operands_read}}.
struct Operands {
{{#bias}}
    Acc bias;      // bias[{{bias_index}}]
{{/bias}}
{{#residual}}
    Acc residual;  // residual[row][col]
{{/residual}}
};

// They come in three parts, so that a tile's store can load each once: those of a row (a bias by row), those
// of a column (a bias by column) and those of the element (the residual), each filling its members of `at`.
static __device__ __forceinline__ void row_operands(Operands &at, const Epilogue &ep, int row)
{
{{#bias_row}}
    at.bias = bias_to_acc(__ldg(ep.bias + row));
{{/bias_row}}
{{^bias_row}}
    // none: the spec has no bias by row
{{/bias_row}}
}

static __device__ __forceinline__ void col_operands(Operands &at, const Epilogue &ep, int col)
{
{{#bias_col}}
    at.bias = bias_to_acc(__ldg(ep.bias + col));
{{/bias_col}}
{{^bias_col}}
    // none: the spec has no bias by column
{{/bias_col}}
}

// The operands of an element's row and column (from by_row and by_col), and its own besides them.
static __device__ __forceinline__ Operands line_operands(const Operands &by_row, const Operands &by_col)
{
    Operands at = {};
{{#bias_row}}
    at.bias = by_row.bias;
{{/bias_row}}
{{#bias_col}}
    at.bias = by_col.bias;
{{/bias_col}}
    return at;
}

static __device__ __forceinline__ Operands cell_operands(const Operands &by_row, const Operands &by_col,
                                                         const Epilogue &ep, int row, int col)
{
    Operands at = line_operands(by_row, by_col);
{{#residual}}
    at.residual = residual_to_acc(__ldg(ep.residual + row * ep.ldr + col));
{{/residual}}
    return at;
}

{{#element_stores}}
static __device__ __forceinline__ Operands operands_at(const Epilogue &ep, int row, int col)
{
    Operands by_row, by_col;
    row_operands(by_row, ep, row);
    col_operands(by_col, ep, col);
    return cell_operands(by_row, by_col, ep, row, col);
}
{{/element_stores}}

// The spec's epilogue: v = alpha * acc + beta * c (c is C's old value, 0 when
// beta is 0) to the value stored at (row, col){{epilogue_note}}.
static __device__ __forceinline__ Acc epilogue(Acc v, Acc acc, Acc c, int row, int col, const Operands &at)
{
    {{epilogue_locals}}
    return {{epilogue}};
}

{{#aux}}
// The auxiliary output at (row, col), stored beside C's value: the spec's aux, of the epilogue's names.
static __device__ __forceinline__ void store_aux(const Epilogue &ep, Acc v, Acc acc, Acc c, int row, int col,
                                                 const Operands &at)
{
    {{aux_locals}}
    ep.aux[row * ep.ldaux + col] = to_out({{aux}});
}
{{/aux}}
{{^aux}}
// No auxiliary output (the spec has no aux): nothing beside C's value.
static __device__ __forceinline__ void store_aux(const Epilogue &, Acc, Acc, Acc, int, int, const Operands &) {}
{{/aux}}

{{#reductions}}
{{reduce_helpers}}

{{reduce_lines}}

{{#element_stores}}
// A value stored at (row, col), folded into the reductions on its own (where a kernel keeps no partials).
static __device__ __forceinline__ void reduce_value(const Epilogue &ep, int row, int col, Acc x)
{
    RowPartials by_row;
    ColPartials by_col;
    by_row.start();
    by_row.fold(x);
    by_row.commit(ep, row);
    by_col.start();
    by_col.fold(x);
    by_col.commit(ep, col);
}
{{/element_stores}}

{{/reductions}}
{{#element_stores}}
// C[row][col] = epilogue(alpha * acc + beta * C[row][col]); C is read only when beta != 0.
static __device__ __forceinline__ void store_c(Out *c, long long ldc, int row, int col, Acc acc, const Epilogue &ep)
{
    Out *const p = c + row * ldc + col;
    const Acc old = ep.beta != (Acc)0 ? c_to_acc(*p) : (Acc)0, v = ep.alpha * acc + ep.beta * old;
    const Operands at = operands_at(ep, row, col);
{{^reductions}}
    *p = to_out(epilogue(v, acc, old, row, col, at));
{{/reductions}}
{{#reductions}}
    const Acc x = epilogue(v, acc, old, row, col, at);
    *p = to_out(x);
    reduce_value(ep, row, col, x);
{{/reductions}}
    store_aux(ep, v, acc, old, row, col, at);
}

{{store_result}}
{{/element_stores}}

{{tile_origin}}
{{helpers}}
{{kernels}}
