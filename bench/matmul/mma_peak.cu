// mma_peak: the most mma.sync (the tensor-core instruction of kgen's `math: mma`
// matmuls) does on this GPU, with nothing else in the way: every warp issues
// m16n8k16 multiplies on registers alone (no loads, no shared memory), 16
// independent accumulators deep, on as many warps as the SMs hold.  The
// ceiling a mma.sync matmul can approach, to set kgen's and cuBLAS's figures
// against.  Blocks of 4 warps, all resident at once, 4 to 24 warps an SM.
//
//   nvcc -O3 -arch=sm_90 -o mma_peak bench/matmul/mma_peak.cu && ./mma_peak
//
// Prints one line per dtype (bf16, f16) and warps per SM: TFLOPS (2 * 16 * 8 *
// 16 flops an instruction) of the fastest of 5 launches, each timed between
// two events after a warm-up launch.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                       \
    do {                                                                                                  \
        cudaError_t e_ = (call);                                                                          \
        if (e_ != cudaSuccess) {                                                                          \
            fprintf(stderr, "mma_peak: %s: %s\n", #call, cudaGetErrorString(e_));                          \
            return 1;                                                                                     \
        }                                                                                                 \
    } while (0)

constexpr int DEPTH = 16;  // independent accumulators a warp keeps in flight

template <bool BF16>
__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
    if (BF16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Each warp: iters x DEPTH multiplies.  The sum goes to out only if it is a
// value no input makes (so that the compiler keeps the work).
template <bool BF16>
__global__ void peak(float *out, int iters)
{
    // Small finite operands (0.5 and 0.25 in both bf16 and f16 halves are not
    // the same bits, but any finite value keeps the pipe's timing).
    const unsigned x = BF16 ? 0x3f003f00u : 0x38003800u, y = BF16 ? 0x3e803e80u : 0x34003400u;
    unsigned a[4] = { x, y, x, y }, b[2] = { y, x };
    float d[DEPTH][4] = {};

    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < DEPTH; j++)
            mma<BF16>(d[j], a, b);
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < DEPTH; j++)
        s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
    if (s == -1.0f)
        out[0] = s;
}

template <bool BF16>
static int
run(int sms, int warps_per_sm, int iters, float *out)
{
    const int threads = 128, blocks = sms * warps_per_sm / 4;  // blocks of 4 warps, all resident at once
    cudaEvent_t e0, e1;
    float ms = 0, best = 1e30f;

    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    peak<BF16><<<blocks, threads>>>(out, iters / 10);  // warm-up: clocks up
    CHECK(cudaGetLastError());
    for (int r = 0; r < 5; r++) {
        CHECK(cudaEventRecord(e0));
        peak<BF16><<<blocks, threads>>>(out, iters);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (ms < best)
            best = ms;
    }
    const double flops = 2.0 * 16 * 8 * 16 * DEPTH * (double)iters * blocks * (threads / 32);
    printf("%s  %2d warps/SM  %7.1f TFLOPS  %.3f ms\n", BF16 ? "bf16" : "f16 ", warps_per_sm,
           flops / (best * 1e-3) / 1e12, best);
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    return 0;
}

int
main()
{
    cudaDeviceProp p;
    float *out;
    const int iters = 20000;
    static const int warps[] = { 4, 8, 12, 16, 24 };

    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        fprintf(stderr, "mma_peak: no GPU\n");
        return 1;
    }
    printf("# %s, %d SMs, mma.sync m16n8k16 with f32 accumulators, %d deep a warp, best of 5\n", p.name,
           p.multiProcessorCount, DEPTH);
    CHECK(cudaMalloc(&out, sizeof *out));
    for (int w : warps)
        if (run<true>(p.multiProcessorCount, w, iters, out))
            return 1;
    for (int w : warps)
        if (run<false>(p.multiProcessorCount, w, iters, out))
            return 1;
    return 0;
}
