//! op: softmax and log_softmax.
{{#regs}}
// Row `row` of x as its {{what}} into y, from this thread's vectors v of
// it (lane, lane + STRIDE, ... of the LANES threads that share it; n
// elements, 0 for a group past the last row, which only joins the
// reductions): the row's max, the sum of exp(x - max), then each element.
{{#softmax}}
// Each exp(x - max) is kept for y: one exponential an element.  (One
// reduction of each thread's (max, sum) pair instead measured no faster:
// its combines cost more exponentials than they save, H200; one exchange
// of each warp's or cluster block's pair no faster either, H100.)
{{/softmax}}
template <int LANES, int VECS, int NT = THREADS, bool EXACT = false>
{{#softmax}}
static __device__ __forceinline__ void softmax_held(const Rows &a, Index row, int lane, Index n, const Vec<T> (&v)[VECS])
{{/softmax}}
{{^softmax}}
static __device__ __forceinline__ void log_softmax_held(const Rows &a, Index row, int lane, Index n,
                                                        const Vec<T> (&v)[VECS])
{{/softmax}}
{
    constexpr Index STRIDE = LANES < NT ? LANES : NT;  // from one of a thread's vectors to the next

    // Past the row's end -inf, which neither the max nor the sum sees.
    RowMax m = { neg_inf() };
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++)
            m = combine(m, RowMax{ x_to_float(v[k], j) });
    m = row_reduce<LANES, NT>(m);

{{#softmax}}
    float e[VECS][VEC];  // exp(x - max), kept for y
{{/softmax}}
    RowSum s = { 0.0f };
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++) {
{{#softmax}}
            e[k][j] = exp_minus(x_to_float(v[k], j), m.v);
            s.v += e[k][j];
{{/softmax}}
{{^softmax}}
            s.v += exp_minus(x_to_float(v[k], j), m.v);
{{/softmax}}
        }
    s = row_reduce<LANES, NT>(s);

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
        if (EXACT ? n != 0 : i * VEC < n) {
            float o[VEC];
#pragma unroll
            for (int j = 0; j < VEC; j++)
{{#softmax}}
                o[j] = e[k][j] * scale;
{{/softmax}}
{{^softmax}}
                o[j] = x_to_float(v[k], j) - shift;
{{/softmax}}
            store_y<EXACT>(y, i, n, a.aligned & Y_ALIGNED, o);
        }
    }
}

// The same, loading the row from x first (-inf past its end; EXACT: the
// kernel's exact path, below).
template <int LANES, int VECS, bool EXACT = false>
{{#softmax}}
static __device__ __forceinline__ void softmax_row(const Rows &a, Index row, int lane, bool active)
{{/softmax}}
{{^softmax}}
static __device__ __forceinline__ void log_softmax_row(const Rows &a, Index row, int lane, bool active)
{{/softmax}}
{
    const Index n = active ? a.cols : 0;
    Vec<T> v[VECS];

    load_row<LANES, VECS, EXACT>(a, row, lane, n, v, x_neg_inf());
{{#softmax}}
    softmax_held<LANES, VECS, THREADS, EXACT>(a, row, lane, n, v);
{{/softmax}}
{{^softmax}}
    log_softmax_held<LANES, VECS, THREADS, EXACT>(a, row, lane, n, v);
{{/softmax}}
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
