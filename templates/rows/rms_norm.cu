//! op: rms_norm.
// The weight (1 without one) of vector i of a row of n.
static __device__ __forceinline__ void affine(const Rows &a, Index i, Index n, float (&w)[VEC])
{
    const bool aligned = a.aligned & W_ALIGNED;
    if (a.weight)
        load_w(a.weight, i, n, aligned, w, 1.0f);
    else
#pragma unroll
        for (int j = 0; j < VEC; j++)
            w[j] = 1.0f;
}

{{#regs}}
// Row `row` of x normalised into y, from this thread's vectors v of it
// (lane, lane + STRIDE, ... of the LANES threads that share it; n
// elements, 0 for a group past the last row, which only joins the
// reductions): the sum of squares, then x / sqrt(mean + eps) * weight.
template <int LANES, int VECS, int NT = THREADS, bool FAR = true, bool EXACT = false>
static __device__ __forceinline__ void rms_norm_held(const Rows &a, Index row, int lane, Index n, const Vec<T> (&v)[VECS])
{
    constexpr Index STRIDE = LANES < NT ? LANES : NT;  // from one of a thread's vectors to the next
    constexpr int AHEAD = weights_ahead<LANES, NT, VECS, 1, FAR>();

#pragma unroll
    for (int k = 0; k < AHEAD; k++)
        prefetch_w(a.weight, k * STRIDE + lane, n);
    constexpr bool EARLY = weights_early<LANES, VECS>();
    const bool early = EARLY && a.weight && (a.aligned & W_ALIGNED);
    Vec<W> we[EARLY ? VECS : 1];
    if constexpr (EARLY)
        load_w_early<LANES, VECS, EXACT>(a.weight, lane, n, early, we);
    RowSum s = { 0.0f };
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++)
            s.v += x_to_float(v[k], j) * x_to_float(v[k], j);  // 0 past the row's end
    s = row_reduce<LANES, NT>(s);
    const float rstd = rsqrtf(s.v / (float)a.cols + a.eps);

    Out *y = a.y + row * a.y_pitch;
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        const Index i = k * STRIDE + lane;
        if (AHEAD && k + AHEAD < VECS)
            prefetch_w(a.weight, (k + AHEAD) * STRIDE + lane, n);
        if (EXACT ? n != 0 : i * VEC < n) {
            float w[VEC], o[VEC];
            if (EARLY && early && (EXACT || (i + 1) * VEC <= n)) {
#pragma unroll
                for (int j = 0; j < VEC; j++)
                    w[j] = w_to_float(we[EARLY ? k : 0], j);
            } else {
                affine(a, i, n, w);
            }
#pragma unroll
            for (int j = 0; j < VEC; j++)
                o[j] = x_to_float(v[k], j) * rstd * w[j];
            store_y<EXACT>(y, i, n, a.aligned & Y_ALIGNED, o);
        }
    }
}

// The same, loading the row from x first (0 past its end; EXACT: the
// kernel's exact path).
template <int LANES, int VECS, bool EXACT = false>
static __device__ __forceinline__ void rms_norm_row(const Rows &a, Index row, int lane, bool active)
{
    const Index n = active ? a.cols : 0;
    Vec<T> v[VECS];

    load_row<LANES, VECS, EXACT>(a, row, lane, n, v, T());
    rms_norm_held<LANES, VECS, THREADS, true, EXACT>(a, row, lane, n, v);
}

{{/regs}}
{{#online}}
// The row for rows of any length, VECS loads in flight a thread: a pass
// for the statistics, then a pass that reads the row again
// (from L2, mostly) and writes it.
template <int LANES, int VECS>
static __device__ __forceinline__ void rms_norm_online(const Rows &a, Index row, int lane)
{
    const Index n = a.cols, nvec = (n + VEC - 1) / VEC;
    const T *x = a.x + row * a.x_pitch;
    RowSum t = { 0.0f };

    for (Index base = lane; base < nvec; base += (Index)LANES * VECS) {
        float v[VECS][VEC];
#pragma unroll
        for (int k = 0; k < VECS; k++)
            load_x(x, base + (Index)k * LANES, n, a.aligned & X_ALIGNED, v[k], 0.0f);
#pragma unroll
        for (int k = 0; k < VECS; k++) {
#pragma unroll
            for (int j = 0; j < VEC; j++)
                t.v += v[k][j] * v[k][j];  // 0 past the row's end
        }
    }
    t = row_reduce<LANES>(t);
    const float rstd = rsqrtf(t.v / (float)n + a.eps);

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
                float w[VEC];
                affine(a, i, n, w);
#pragma unroll
                for (int j = 0; j < VEC; j++)
                    v[k][j] = v[k][j] * rstd * w[j];
                store_y(y, i, n, a.aligned & Y_ALIGNED, v[k]);
            }
        }
    }
}
{{/online}}
