//! op: layer_norm.
// The weight (1 without one) and the bias (0 without one) of vector i of a row of n.
static __device__ __forceinline__ void affine(const Rows &a, Index i, Index n, float (&w)[VEC], float (&b)[VEC])
{
    const bool aligned = a.aligned & W_ALIGNED;
    if (a.weight)
        load_w(a.weight, i, n, aligned, w, 1.0f);
    else
#pragma unroll
        for (int j = 0; j < VEC; j++)
            w[j] = 1.0f;
    if (a.bias)
        load_w(a.bias, i, n, aligned, b, 0.0f);
    else
#pragma unroll
        for (int j = 0; j < VEC; j++)
            b[j] = 0.0f;
}

// The elements of the row of n in the vector that starts at element at: VEC, fewer at its end, 0 past it.
static __device__ __forceinline__ int elements_inside(Index at, Index n)
{
    return at >= n ? 0 : n - at >= VEC ? VEC : (int)(n - at);
}

{{#regs}}
// Row `row` of x normalised into y, from this thread's vectors v of it
// (lane, lane + STRIDE, ... of the LANES threads that share it; n
// elements, 0 for a group past the last row, which only joins the
// reductions): the mean, then the sum of squared deviations from it, then
// (x - mean) / sqrt(var + eps) * weight + bias.  (Two reductions of a
// float each: one of Chan's (count, mean, m2) triples measured slower,
// 0.51 of copy against 0.77 at 32768 x 16384 bf16 on an H200; so did one
// exchange of each warp's or cluster block's moments, 0.71 against 0.95
// at 8192 x 262144 f32 on an H100.)
template <int LANES, int VECS, int NT = THREADS, bool FAR = true, bool EXACT = false>
static __device__ __forceinline__ void layer_norm_held(const Rows &a, Index row, int lane, Index n,
                                                       const Vec<T> (&v)[VECS])
{
    constexpr Index STRIDE = LANES < NT ? LANES : NT;  // from one of a thread's vectors to the next
    constexpr int AHEAD = weights_ahead<LANES, NT, VECS, 2, FAR>();

#pragma unroll
    for (int k = 0; k < AHEAD; k++) {
        prefetch_w(a.weight, k * STRIDE + lane, n);
        prefetch_w(a.bias, k * STRIDE + lane, n);
    }
    constexpr bool EARLY = weights_early<LANES, VECS>();
    const bool early = EARLY && a.weight && a.bias && (a.aligned & W_ALIGNED);
    Vec<W> we[EARLY ? VECS : 1], be[EARLY ? VECS : 1];
    if constexpr (EARLY) {
        load_w_early<LANES, VECS, EXACT>(a.weight, lane, n, early, we);
        load_w_early<LANES, VECS, EXACT>(a.bias, lane, n, early, be);
    }
    RowSum s = { 0.0f };
#pragma unroll
    for (int k = 0; k < VECS; k++)
#pragma unroll
        for (int j = 0; j < VEC; j++)
            s.v += x_to_float(v[k], j);  // 0 past the row's end
    s = row_reduce<LANES, NT>(s);
    const float mean = s.v / (float)a.cols;

    RowSum d = { 0.0f };
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        const Index at = (k * STRIDE + lane) * VEC;
        const int inside = EXACT ? VEC : elements_inside(at, n);
#pragma unroll
        for (int j = 0; j < VEC; j++)
            if (j < inside)
                d.v += (x_to_float(v[k], j) - mean) * (x_to_float(v[k], j) - mean);
    }
    d = row_reduce<LANES, NT>(d);
    const float rstd = rsqrtf(d.v / (float)a.cols + a.eps);

    Out *y = a.y + row * a.y_pitch;
#pragma unroll
    for (int k = 0; k < VECS; k++) {
        const Index i = k * STRIDE + lane;
        if (AHEAD && k + AHEAD < VECS) {
            prefetch_w(a.weight, (k + AHEAD) * STRIDE + lane, n);
            prefetch_w(a.bias, (k + AHEAD) * STRIDE + lane, n);
        }
        if (EXACT ? n != 0 : i * VEC < n) {
            float w[VEC], b[VEC], o[VEC];
            if (EARLY && early && (EXACT || (i + 1) * VEC <= n)) {
#pragma unroll
                for (int j = 0; j < VEC; j++) {
                    w[j] = w_to_float(we[EARLY ? k : 0], j);
                    b[j] = w_to_float(be[EARLY ? k : 0], j);
                }
            } else {
                affine(a, i, n, w, b);
            }
#pragma unroll
            for (int j = 0; j < VEC; j++)
                o[j] = (x_to_float(v[k], j) - mean) * rstd * w[j] + b[j];
            store_y<EXACT>(y, i, n, a.aligned & Y_ALIGNED, o);
        }
    }
}

// The same, loading the row from x first (0 past its end; EXACT: the
// kernel's exact path).
template <int LANES, int VECS, bool EXACT = false>
static __device__ __forceinline__ void layer_norm_row(const Rows &a, Index row, int lane, bool active)
{
    const Index n = active ? a.cols : 0;
    Vec<T> v[VECS];

    load_row<LANES, VECS, EXACT>(a, row, lane, n, v, T());
    layer_norm_held<LANES, VECS, THREADS, true, EXACT>(a, row, lane, n, v);
}

{{/regs}}
{{#online}}
// The row for rows of any length, VECS loads in flight a thread: a pass
// for the row's Moments (each batch of loads' mean and squared deviations
// from it, two passes over registers, merged into the thread's by Chan's
// formula; then the threads' merged the same way), then a pass that reads
// the row again (from L2, mostly) and writes it.  (Sums of x - K and of
// its squares, K the row's first element, lose 0.3% of the variance of a
// row of 393216 f32 whose first element is 1000 standard deviations out,
// in a float32 model of the order of additions; these, 2e-10:
// bench/rows/variance_model.py.  Their cost, on an H200: none past 262144
// f32, where auto takes this kernel on sm_90; 0.77 of a copy against the
// sums' 0.90 at 32768 x 16384 f32, where auto takes it on older GPUs.)
template <int LANES, int VECS>
static __device__ __forceinline__ void layer_norm_online(const Rows &a, Index row, int lane)
{
    const Index n = a.cols, nvec = (n + VEC - 1) / VEC;
    const T *x = a.x + row * a.x_pitch;
    Moments t = { 0.0f, 0.0f, 0.0f };

    for (Index base = lane; base < nvec; base += (Index)LANES * VECS) {
        float v[VECS][VEC];
        int inside[VECS];  // elements of the row in each vector
        float count = 0.0f, sum = 0.0f;
#pragma unroll
        for (int k = 0; k < VECS; k++) {
            const Index at = (base + (Index)k * LANES) * VEC;
            load_x(x, base + (Index)k * LANES, n, a.aligned & X_ALIGNED, v[k], 0.0f);  // 0 past the end
            inside[k] = elements_inside(at, n);
            count += (float)inside[k];
        }
#pragma unroll
        for (int k = 0; k < VECS; k++)
#pragma unroll
            for (int j = 0; j < VEC; j++)
                sum += v[k][j];
        const float mean = sum / count;  // count > 0: vector base is in the row
        float m2 = 0.0f;
#pragma unroll
        for (int k = 0; k < VECS; k++)
#pragma unroll
            for (int j = 0; j < VEC; j++)
                if (j < inside[k])
                    m2 += (v[k][j] - mean) * (v[k][j] - mean);
        t = combine(t, Moments{ count, mean, m2 });
    }
    t = row_reduce<LANES>(t);
    const float var = t.m2 / (float)n;
    const float mean = t.mean, rstd = rsqrtf(var + a.eps);

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
                float w[VEC], b[VEC];
                affine(a, i, n, w, b);
#pragma unroll
                for (int j = 0; j < VEC; j++)
                    v[k][j] = (v[k][j] - mean) * rstd * w[j] + b[j];
                store_y(y, i, n, a.aligned & Y_ALIGNED, v[k]);
            }
        }
    }
}
{{/online}}
