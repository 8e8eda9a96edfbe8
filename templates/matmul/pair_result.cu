//! The stores of two neighbouring columns of C at once, shared by store:
//! pairs (math: mma and wgmma) and store: tma's fallback.
// The value C[row][col] takes: epilogue(alpha * acc + beta * old), old read from p only when beta != 0 (and the
// auxiliary output's, stored).
static __device__ __forceinline__ Out result(const Out *p, int row, int col, Acc acc, const Epilogue &ep)
{
    const Acc old = ep.beta != (Acc)0 ? c_to_acc(*p) : (Acc)0, v = ep.alpha * acc + ep.beta * old;
    const Operands at = operands_at(ep, row, col);
    store_aux(ep, v, acc, old, row, col, at);
{{^reductions}}
    return to_out(epilogue(v, acc, old, row, col, at));
{{/reductions}}
{{#reductions}}
    const Acc x = epilogue(v, acc, old, row, col, at);
    reduce_value(ep, row, col, x);
    return to_out(x);
{{/reductions}}
}

// Two neighbouring elements of a row of C, stored as one.
struct alignas(2 * sizeof(Out)) OutPair {
    Out v[2];
};

// C[row][col] and C[row][col + 1] from acc0 and acc1, as one store at p (C[row][col], two elements aligned).
static __device__ __forceinline__ void store_pair(Out *p, int row, int col, Acc acc0, Acc acc1, const Epilogue &ep)
{
    OutPair pair;
    pair.v[0] = result(p, row, col, acc0, ep);
    pair.v[1] = result(p + 1, row, col + 1, acc1, ep);
    *reinterpret_cast<OutPair *>(p) = pair;
}
