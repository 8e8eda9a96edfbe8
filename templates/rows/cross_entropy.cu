//! op: cross_entropy, one pass whatever the strategy.
// Row `row`'s loss: the LANES threads that share it (this one is `lane`)
// stream its logits, VECS loads in flight a thread, into a running max and
// sum of exp(x - max); the row's log-sum-exp less the logit of its label is
// the loss (0 for ignore_index, NaN for a label outside 0..cols-1).  A
// group past the last row (not active) only joins the reduction.
template <int LANES, int VECS>
static __device__ __forceinline__ void cross_entropy_row(const Rows &a, Index row, int lane, bool active)
{
    const Index n = active ? a.cols : 0, nvec = (n + VEC - 1) / VEC;
    const T *x = a.x + row * a.x_pitch;
    MaxSum t = { neg_inf(), 0.0f };

    for (Index base = lane; base < nvec; base += (Index)LANES * VECS) {
        float v[VECS][VEC];
#pragma unroll
        for (int k = 0; k < VECS; k++)
            load_x(x, base + (Index)k * LANES, n, a.aligned & X_ALIGNED, v[k], neg_inf());
        t = add_batch<VECS>(t, v);
    }
    t = row_reduce<LANES>(t);
    if (!active || lane != 0)
        return;

    const float lse = t.m + logf(t.s);
    const long long label = (long long)a.labels[row];
    float loss;
    if (label == a.ignore_index)
        loss = 0.0f;
    else if (label < 0 || label >= (long long)a.cols)
        loss = __int_as_float(0x7fc00000);  // NaN: no such class
    else
        loss = (t.m - x_to_float(x[label])) + logf(t.s);  // not lse - x: beside a huge max, lse has lost log(s)
    a.loss[row] = to_out(loss);
    if (a.lse)
        a.lse[row] = lse;
}
