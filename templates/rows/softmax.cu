//! op: softmax and log_softmax.
{{#regs}}
// Row `row` of x as its {{what}} into y, held in registers by the LANES
// threads that share it (this one is `lane`, and holds its vectors lane,
// lane + STRIDE, ...): the row's max, the sum of exp(x - max), then each
// element.  A group past the last row (not active) only joins the
// reductions.
template <int LANES, int VECS>
{{#softmax}}
static __device__ __forceinline__ void softmax_row(const Rows &a, Index row, int lane, bool active)
{{/softmax}}
{{^softmax}}
static __device__ __forceinline__ void log_softmax_row(const Rows &a, Index row, int lane, bool active)
{{/softmax}}
{
    constexpr Index STRIDE = (Index)LANES * CLUSTER;  // vectors from one of a thread's to the next
    const Index n = active ? a.cols : 0;
    const T *x = a.x + row * a.x_pitch;
    Vec<T> v[VECS];

    // Past the row's end -inf, which neither the max nor the sum sees.
    RowMax m = { neg_inf() };
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        load_raw(x, k * STRIDE + lane, n, a.aligned & X_ALIGNED, v[k], x_neg_inf());
#pragma unroll
        for (int j = 0; j < VEC; j++)
            m = combine(m, RowMax{ x_to_float(v[k].v[j]) });
    }
    m = row_reduce<LANES>(m);

    RowSum s = { 0.0f };
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++)
            s.v += exp_minus(x_to_float(v[k].v[j]), m.v);
    s = row_reduce<LANES>(s);

{{#softmax}}
    const float scale = 1.0f / s.v;
{{/softmax}}
{{^softmax}}
    const float shift = m.v + logf(s.v);
{{/softmax}}
    Out *y = a.y + row * a.y_pitch;
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        const Index i = k * STRIDE + lane;
        if (i * VEC < n) {
            float o[VEC];
#pragma unroll
            for (int j = 0; j < VEC; j++)
{{#softmax}}
                o[j] = exp_minus(x_to_float(v[k].v[j]), m.v) * scale;
{{/softmax}}
{{^softmax}}
                o[j] = x_to_float(v[k].v[j]) - shift;
{{/softmax}}
            store_y(y, i, n, a.aligned & Y_ALIGNED, o);
        }
    }
}

{{/regs}}
{{#online}}
// The row for rows of any length, VECS loads in flight a thread: a pass
// for the running max and sum, then a pass that reads the row again (from
// L2, mostly) and writes it.
template <int LANES, int VECS>
{{#softmax}}
static __device__ __forceinline__ void softmax_online(const Rows &a, Index row, int lane)
{{/softmax}}
{{^softmax}}
static __device__ __forceinline__ void log_softmax_online(const Rows &a, Index row, int lane)
{{/softmax}}
{
    const Index n = a.cols, nvec = (n + VEC - 1) / VEC;
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

{{#softmax}}
    const float scale = 1.0f / t.s;
{{/softmax}}
{{^softmax}}
    const float shift = t.m + logf(t.s);
{{/softmax}}
    Out *y = a.y + row * a.y_pitch;
    for (Index base = lane; base < nvec; base += (Index)LANES * VECS) {
        float v[VECS][VEC];
#pragma unroll
        for (int k = 0; k < VECS; k++)
            load_x(x, base + (Index)k * LANES, n, a.aligned & X_ALIGNED, v[k], 0.0f);
#pragma unroll
        for (int k = 0; k < VECS; k++) {
            const Index i = base + (Index)k * LANES;
            if (i < nvec) {
#pragma unroll
                for (int j = 0; j < VEC; j++)
{{#softmax}}
                    v[k][j] = exp_minus(v[k][j], t.m) * scale;
{{/softmax}}
{{^softmax}}
                    v[k][j] = v[k][j] - shift;
{{/softmax}}
                store_y(y, i, n, a.aligned & Y_ALIGNED, v[k]);
            }
        }
    }
}
{{/online}}
