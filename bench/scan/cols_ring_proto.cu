// cols_ring_proto.cu - a what-if of the column scan (torch.cumsum(x, 0)) of a row-major f32 matrix, the
// prototype of staging: ring (issue 52; bench/results/nvidia-h100/2026-12-07-scan-cols-ring, its fifth
// version).  Persistent blocks, every one resident; columns in bands of BW; a band's Gb blocks take its row
// tiles in rounds (round r, block g: row tile r * Gb + g) while TMA bulk copies keep NS tiles of each block
// in shared memory.  A block reduces and publishes tile k + 1's column totals (8-byte words: the round's tag
// and the value) before it waits on tile k's; blocks come in groups of M = ceil(sqrt(Gb)), whose last block
// adds its mates' totals and publishes the group's first; a tile's prefix is the block's carry, the previous
// round's group totals from its group on, this round's before its group and its mates'.  Gb = 1: a block
// scans its band alone.  f32 sums, rows a multiple of TR (no partial tiles).
//
//     nvcc -O3 -std=c++17 -arch=sm_90a -o colscan bench/scan/cols_ring_proto.cu   [-DSTREAM] [-DBOUNDS]
//     ./colscan ROWS COLS [GEOMETRY...]      # e.g. 1048576 64 bw64_tr128_ns3_b2; none: all of them
//
// Each geometry (bw BW columns, tr TR rows a tile, ns NS stages, b blocks an SM): every output element
// checked against a CPU sum in doubles (output poisoned first), then 20 launches, each between two events,
// the median against a device-to-device copy of the same bytes (timed before and after).  -DSTREAM stores
// with st.global.cs, -DBOUNDS checks each element against the matrix: kgen's generated kernel does both.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(unsigned long long *b) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_u32(b)) : "memory"); }
__device__ __forceinline__ void bar_expect(unsigned long long *b, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem_u32(b)), "r"(bytes) : "memory"); }
__device__ __forceinline__ void bar_wait(unsigned long long *b, unsigned parity) {
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}"
                 :: "r"(smem_u32(b)), "r"(parity) : "memory"); }
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes, unsigned long long *b) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem_u32(dst)), "l"(src), "r"(bytes), "r"(smem_u32(b)) : "memory"); }
__device__ __forceinline__ unsigned long long ld_acquire(const unsigned long long *p) {
    unsigned long long v; asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ void st_release(unsigned long long *p, unsigned long long v) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory"); }

__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long *p) {
    unsigned long long v; asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ void st_relaxed(unsigned long long *p, unsigned long long v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory"); }
// a status word: the round's tag above, the value's bits below, written and read whole
__device__ __forceinline__ unsigned long long word(unsigned tag, float v) {
    return ((unsigned long long)tag << 32) | __float_as_uint(v); }
constexpr int S = 8;  // rounds a band's status ring holds

constexpr int IMAX = 16;  // status words a thread reads a tile, at most

template <int BW, int TR, int NS, int BPS>
__global__ void __launch_bounds__(256, BPS)
colscan(const float *__restrict__ x, float *__restrict__ y, int rows, int cols, int nb, int Gb, int M,
        char *status, size_t band_bytes, unsigned epoch)
{
    constexpr int Q = BW / 4, GROUPS = 256 / Q, RPT = TR / GROUPS;
    constexpr int PARTS = 256 / BW < 4 ? 256 / BW : 4;
    constexpr unsigned TILE_BYTES = TR * BW * 4;
    extern __shared__ __align__(128) unsigned char smem[];
    float *stage = (float *)smem;
    float *gsum = stage + NS * TR * BW;    // [2][GROUPS][BW]
    float *red = gsum + 2 * GROUPS * BW;   // [3][4][BW]
    float *excl = red + 12 * BW;           // [BW]
    float *carry = excl + BW;              // [BW]: the rounds before, and this round's groups before
    float *aggs = carry + BW;              // [2][BW]
    float *mates_s = aggs + 2 * BW;        // [BW]
    unsigned long long *bar = (unsigned long long *)(mates_s + BW);

    int tid = threadIdx.x, q = tid % Q, grp = tid / Q;
    int band = blockIdx.x % nb, g = blockIdx.x / nb;
    if (g >= Gb) return;
    int rowtiles = rows / TR;
    int ntiles = g < rowtiles ? (rowtiles - g + Gb - 1) / Gb : 0;  // this block's tiles
    int NG = (Gb + M - 1) / M, G = g / M, first = G * M, last = min(first + M, Gb) - 1;
    unsigned long long *A = (unsigned long long *)(status + band * band_bytes);  // [S][Gb][BW]
    unsigned long long *GA = A + S * Gb * BW;                                      // [S][NG][BW]
    size_t pitch = cols;
    const float *xb = x + band * BW;
    float *yb = y + band * BW;
    unsigned ep = (epoch & 0xff) << 24;

    if (tid == 0)
        for (int s = 0; s < NS; s++) bar_init(&bar[s]);
    if (tid < BW) excl[tid] = 0.f, carry[tid] = 0.f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    auto issue = [&](int k) {  // warp 0: local tile k into stage k % NS
        if (k >= ntiles) return;
        int s = k % NS;
        long row0 = (long)(k * Gb + g) * TR;
        int lane = tid & 31;
        if (lane == 0) bar_expect(&bar[s], TILE_BYTES);
        __syncwarp();
        if (nb == 1 && BW == cols) {
            if (lane == 0) bulk_load(stage + s * TR * BW, xb + row0 * pitch, TILE_BYTES, &bar[s]);
        } else {
            for (int r = lane; r < TR; r += 32)
                bulk_load(stage + s * TR * BW + r * BW, xb + (row0 + r) * pitch, BW * 4, &bar[s]);
        }
    };
    // tile k landed: its groups' totals, its column totals, published for the band's other blocks
    auto reduce = [&](int k) {
        int s = k % NS, buf = k & 1;
        bar_wait(&bar[s], (k / NS) & 1);
        const float4 *tile = (const float4 *)(stage + s * TR * BW);
        float4 run = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int i = 0; i < RPT; i++) {
            float4 a = tile[(grp * RPT + i) * Q + q];
#ifdef BOUNDS
            { long rr = (long)(k * Gb + g) * TR + grp * RPT + i; long cc = band * BW + 4 * q;
              a.x = rr < rows && cc < cols ? a.x : 0.f; a.y = rr < rows && cc + 1 < cols ? a.y : 0.f;
              a.z = rr < rows && cc + 2 < cols ? a.z : 0.f; a.w = rr < rows && cc + 3 < cols ? a.w : 0.f; }
#endif
            run.x += a.x; run.y += a.y; run.z += a.z; run.w += a.w;
        }
        ((float4 *)(gsum + buf * GROUPS * BW))[grp * Q + q] = run;
        __syncthreads();
        if (tid < BW) {
            float agg = 0.f;
            for (int j = 0; j < GROUPS; j++) agg += gsum[buf * GROUPS * BW + j * BW + tid];
            aggs[buf * BW + tid] = agg;
            if (Gb > 1) st_relaxed(&A[((k % S) * Gb + g) * BW + tid], word(ep | (k + 1), agg));
        }
    };
    if (tid < 32)
        for (int k = 0; k < NS; k++) issue(k);
    if (ntiles > 0) reduce(0);

    for (int k = 0; k < ntiles; k++) {
        int s = k % NS, r = k, slot = r % S, buf = k & 1;
        long row0 = (long)(k * Gb + g) * TR;
        if (k + 1 < ntiles) reduce(k + 1);   // the next tile's totals out before this one waits
        __syncthreads();
        if (Gb > 1) {
            // the last block of a group first adds its mates' totals of this round and publishes the
            // group's total, so that no group waits on the groups before it to publish its own
            int c = tid % BW, part = tid / BW;
            if (g == last) {
                if (part < PARTS) {
                    float m = 0.f;
                    for (int h = first + part; h < g; h += PARTS) {
                        const unsigned long long *p = &A[(slot * Gb + h) * BW + c];
                        unsigned long long w = ld_relaxed(p);
                        while ((unsigned)(w >> 32) != (ep | (r + 1))) w = ld_relaxed(p);
                        m += __uint_as_float((unsigned)w);
                    }
                    red[(2 * 4 + part) * BW + c] = m;
                }
                __syncthreads();
                if (tid < BW) {
                    float m = 0.f;
                    for (int p = 0; p < PARTS; p++) m += red[(2 * 4 + p) * BW + tid];
                    mates_s[tid] = m;
                    st_relaxed(&GA[(slot * NG + G) * BW + tid], word(ep | (r + 1), m + aggs[buf * BW + tid]));
                }
                __syncthreads();
            }
            // the words this tile needs: the previous round's group totals from this block's group on (to
            // finish the carry), this round's group totals before this block's group, this round's tiles of
            // the group's earlier blocks (the last block has them)
            int n_prev = r > 0 ? NG - G : 0, n_ga = G, n_mates = g == last ? 0 : g - first;
            int len = n_prev + n_ga + n_mates;
            float acc0 = 0.f, acc1 = 0.f, acc2 = 0.f;
            if (part < PARTS) {
                unsigned long long w[IMAX];
                int pslot = (r + S - 1) % S;
#pragma unroll
                for (int j = 0; j < IMAX; j++) {
                    int i = part + j * PARTS;
                    if (i < len) {
                        const unsigned long long *p;
                        if (i < n_prev) p = &GA[(pslot * NG + G + i) * BW + c];
                        else if (i < n_prev + n_ga) p = &GA[(slot * NG + i - n_prev) * BW + c];
                        else p = &A[(slot * Gb + first + i - n_prev - n_ga) * BW + c];
                        w[j] = ld_relaxed(p);
                    }
                }
#pragma unroll
                for (int j = 0; j < IMAX; j++) {
                    int i = part + j * PARTS;
                    if (i < len) {
                        const unsigned long long *p;
                        unsigned tag;
                        int which;
                        if (i < n_prev) p = &GA[(pslot * NG + G + i) * BW + c], tag = ep | r, which = 0;
                        else if (i < n_prev + n_ga) p = &GA[(slot * NG + i - n_prev) * BW + c], tag = ep | (r + 1), which = 1;
                        else p = &A[(slot * Gb + first + i - n_prev - n_ga) * BW + c], tag = ep | (r + 1), which = 2;
                        while ((unsigned)(w[j] >> 32) != tag) w[j] = ld_relaxed(p);
                        float v = __uint_as_float((unsigned)w[j]);
                        if (which == 0) acc0 += v; else if (which == 1) acc1 += v; else acc2 += v;
                    }
                }
                red[(0 * 4 + part) * BW + c] = acc0;
                red[(1 * 4 + part) * BW + c] = acc1;
                red[(2 * 4 + part) * BW + c] = acc2;
            }
            __syncthreads();
            if (tid < BW) {
                float cr = carry[tid], ga = 0.f, mates = 0.f;
                for (int p = 0; p < PARTS; p++) cr += red[(0 * 4 + p) * BW + tid];   // the rounds before r
                for (int p = 0; p < PARTS; p++) ga += red[(1 * 4 + p) * BW + tid];
                if (g == last) mates = mates_s[tid];
                else for (int p = 0; p < PARTS; p++) mates += red[(2 * 4 + p) * BW + tid];
                float part_r = cr + ga;        // carry(r) and this round's groups before this block's
                carry[tid] = part_r;
                excl[tid] = part_r + mates;
            }
            __syncthreads();
        }
        // outputs: the band's prefix, the groups above, the thread's running sums (read again)
        float4 base = ((float4 *)excl)[q];
        for (int j = 0; j < grp; j++) {
            float4 t = ((float4 *)(gsum + buf * GROUPS * BW))[j * Q + q];
            base.x += t.x; base.y += t.y; base.z += t.z; base.w += t.w;
        }
        const float4 *tile = (const float4 *)(stage + s * TR * BW);
#pragma unroll
        for (int i = 0; i < RPT; i++) {
            float4 a = tile[(grp * RPT + i) * Q + q];
#ifdef BOUNDS
            { long rr = row0 + grp * RPT + i; long cc = band * BW + 4 * q;
              a.x = rr < rows && cc < cols ? a.x : 0.f; a.y = rr < rows && cc + 1 < cols ? a.y : 0.f;
              a.z = rr < rows && cc + 2 < cols ? a.z : 0.f; a.w = rr < rows && cc + 3 < cols ? a.w : 0.f; }
#endif
            base.x += a.x; base.y += a.y; base.z += a.z; base.w += a.w;
#ifdef STREAM
            __stcs((float4 *)(yb + (row0 + grp * RPT + i) * pitch + 4 * q), base);
#else
            *(float4 *)(yb + (row0 + grp * RPT + i) * pitch + 4 * q) = base;
#endif
        }
        __syncthreads();
        if (Gb == 1 && tid < BW) excl[tid] += aggs[buf * BW + tid];
        if (tid < 32) issue(k + NS);
    }
}

template <int BW, int TR, int NS, int BPS>
static float launch(const float *x, float *y, int rows, int cols, char *status, unsigned epoch, int sms, int *gb_out)
{
    int nb = cols / BW;
    size_t smem = (size_t)NS * TR * BW * 4 + 2 * (256 / (BW / 4)) * BW * 4 + 12 * BW * 4 + 5 * BW * 4 + NS * 8;
    auto k = colscan<BW, TR, NS, BPS>;
    static bool set = false;
    if (!set) { CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)); set = true; }
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 256, smem));
    int resident = per_sm * sms;
    int Gb = resident / nb;
    if (Gb < 1) Gb = 1;
    int rowtiles = rows / TR;
    if (Gb > rowtiles) Gb = rowtiles;
    if (nb * Gb > resident) { printf("  skipped: %d bands exceed %d resident blocks\n", nb, resident); return -1; }
    *gb_out = Gb;
    int M = 1;
    while (M * M < Gb) M++;
    int NG = (Gb + M - 1) / M;
    int PARTS = 256 / BW < 4 ? 256 / BW : 4;
    if ((NG + M + PARTS - 1) / PARTS > IMAX) { printf("  skipped: %d words a thread\n", (NG + M + PARTS - 1) / PARTS); return -1; }
    size_t band_bytes = ((size_t)S * (Gb + NG) * BW * 8 + 255) / 256 * 256;
    k<<<nb * Gb, 256, smem>>>(x, y, rows, cols, nb, Gb, M, status, band_bytes, epoch);
    return 0;
}

typedef float (*Launch)(const float *, float *, int, int, char *, unsigned, int, int *);
struct Variant { const char *name; int bw; Launch f; };
static Variant variants[] = {
    {"bw64_tr256_ns3_b1", 64, launch<64, 256, 3, 1>},
    {"bw64_tr128_ns3_b2", 64, launch<64, 128, 3, 2>},
    {"bw64_tr128_ns6_b1", 64, launch<64, 128, 6, 1>},
    {"bw64_tr64_ns4_b3", 64, launch<64, 64, 4, 3>},
    {"bw128_tr64_ns3_b2", 128, launch<128, 64, 3, 2>},
    {"bw128_tr128_ns3_b1", 128, launch<128, 128, 3, 1>},
    {"bw128_tr64_ns6_b1", 128, launch<128, 64, 6, 1>},
    {"bw128_tr32_ns4_b3", 128, launch<128, 32, 4, 3>},
};

static int verify(const float *x, const float *y, int rows, int cols)
{
    std::vector<double> run(cols, 0.0), mag(cols, 0.0);
    long bad = 0;
    double worst = 0;
    for (long i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
            double a = x[i * cols + j];
            run[j] += a; mag[j] += fabs(a);
            double err = fabs((double)y[i * cols + j] - run[j]);
            double bound = 1e-6 * mag[j] * 8 + 1e-30;
            if (!(err <= bound)) { if (bad < 5) fprintf(stderr, "bad at %ld,%d: %g vs %g\n", i, j, y[i * cols + j], run[j]); bad++; }
            if (mag[j] > 0 && err / mag[j] > worst) worst = err / mag[j];
        }
    }
    printf("  verify: %ld bad of %ld, worst err/sum|x| %.3g\n", bad, (long)rows * cols, worst);
    return bad == 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: colscan ROWS COLS [variant...]\n"); return 2; }
    int rows = atoi(argv[1]), cols = atoi(argv[2]);
    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;
    size_t n = (size_t)rows * cols, bytes = n * 4;
    printf("%s, %d SMs; %d x %d f32 (%.1f MB)\n", prop.name, sms, rows, cols, bytes / 1e6);
    std::vector<float> hx(n);
    unsigned long long st = 12345;
    for (size_t i = 0; i < n; i++) { st = st * 6364136223846793005ULL + 1442695040888963407ULL; hx[i] = ((st >> 40) / (float)(1 << 24)) * 2.f - 1.f; }
    float *x, *y; char *status;
    CK(cudaMalloc(&x, bytes)); CK(cudaMalloc(&y, bytes)); CK(cudaMalloc(&status, 64 << 20));
    CK(cudaMemset(status, 0, 64 << 20));
    CK(cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    auto time_copy = [&]() {
        std::vector<float> t;
        for (int i = 0; i < 20; i++) {
            CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
        }
        std::sort(t.begin(), t.end()); return t[t.size() / 2];
    };
    time_copy();
    float copy = time_copy();
    printf("copy: %.1f us\n", copy * 1e3);
    std::vector<float> hy(n);
    unsigned epoch = 1;
    for (auto &v : variants) {
        bool want = argc == 3;
        for (int a = 3; a < argc; a++) if (!strcmp(argv[a], v.name)) want = true;
        if (!want || cols % v.bw) continue;
        int Gb = 0;
        CK(cudaMemset(y, 0xff, bytes));  // poisoned (NaN)
        if (v.f(x, y, rows, cols, status, epoch++, sms, &Gb) < 0) continue;
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hy.data(), y, bytes, cudaMemcpyDeviceToHost));
        printf("%s (Gb %d, bands %d):\n", v.name, Gb, cols / v.bw);
        int ok = verify(hx.data(), hy.data(), rows, cols);
        std::vector<float> t;
        for (int i = 0; i < 20; i++) {
            CK(cudaEventRecord(e0)); v.f(x, y, rows, cols, status, epoch++, sms, &Gb); CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
        }
        CK(cudaGetLastError());
        std::sort(t.begin(), t.end());
        float med = t[t.size() / 2];
        printf("  %s: %.1f us median, %.3f of copy, min %.1f max %.1f%s\n", v.name, med * 1e3, copy / med, t[0] * 1e3,
               t.back() * 1e3, ok ? "" : " (WRONG)");
    }
    float copy2 = time_copy();
    printf("copy again: %.1f us\n", copy2 * 1e3);
    return 0;
}
