// cols_ring_harness.cu - kgen's generated staging: ring kernel (f32 sums) launched as
// kgen's launcher launches it: the grid (blocks, bands) from the occupancy, the same status words; every
// element checked against a CPU sum in doubles, then 20 launches between events against a copy (issue 52,
// bench/results/nvidia-h100/2026-12-07-scan-cols-ring).
//
//     kgen specs/scan/cols-sum-f32-ring.yaml -o ring.cu && sed -i 's/^#if __CUDA_ARCH__ >= 900.*/#if 1/' ring.cu
//     nvcc -O3 -std=c++17 -arch=sm_90a -I. -DRING_SOURCE='"ring.cu"' -DRING_NAME='"ring"' -o h bench/scan/cols_ring_harness.cu -lcuda
//     ./h ROWS COLS [BLOCKS]                       # RING_CUBIN=FILE: launch kgen's own NVRTC cubin instead
//
// With -DRING_TIMELINE and RING_SOURCE a copy of ring.cu that bench/scan/ring_timeline.py stamped, it launches
// once more and prints where band 0's blocks spend a tile's turn (to choose from, not to quote).
//
// (the sed: nvcc's host pass reads the kernel too, where the generated file's sm_90 helpers are left out).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda.h>
#ifdef RING_SOURCE
#define CUtensorMap RingTensorMap  // the generated file's own 128 bytes, beside cuda.h's
#include RING_SOURCE
#undef CUtensorMap
#else  // (nvcc -c alone, as make check's KGEN_BENCH_BUILD=1 builds it: nothing to launch)
int main() { fprintf(stderr, "cols_ring_harness: build with -DRING_SOURCE='\"ring.cu\"' -DRING_NAME='\"...\"'\n"); return 2; }
#define RING_HARNESS_EMPTY
#endif
#ifndef RING_HARNESS_EMPTY
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
int main(int argc, char **argv)
{
    unsigned long long rows = atoll(argv[1]), cols = atoll(argv[2]);
    int force_gb = argc > 3 ? atoi(argv[3]) : 0;
    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    size_t n = rows * cols, bytes = n * 4;
    std::vector<float> hx(n), hy(n);
    unsigned long long st = 12345;
    for (size_t i = 0; i < n; i++) { st = st * 6364136223846793005ULL + 1442695040888963407ULL; hx[i] = ((st >> 40) / (float)(1 << 24)) * 2.f - 1.f; }
    float *x, *y; unsigned char *scratch;
    CK(cudaMalloc(&x, bytes)); CK(cudaMalloc(&y, bytes)); CK(cudaMalloc(&scratch, 256 << 20)); CK(cudaMemset(scratch, 0, 256 << 20));
    CK(cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice));
    const int smem = STAGES * ROWS * COLS * sizeof(T);
    CK(cudaFuncSetAttribute(scan_cols_sum_f32, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int occ = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, scan_cols_sum_f32, THREADS, smem));
    unsigned long long bands = (cols + COLS - 1) / COLS, tiles = (rows + ROWS - 1) / ROWS;
    unsigned long long resident = (unsigned long long)occ * prop.multiProcessorCount;
    if (resident > 1024) resident = 1024;
    unsigned long long gb = resident / bands; if (gb > tiles) gb = tiles; if (gb < 2) gb = 1;
    if (force_gb) gb = force_gb;
    unsigned long long m = 1; while (m * m < gb) m++;
    unsigned long long band_scratch = gb > 1 ? 8ull * (gb + (gb + m - 1) / m) * COLS * 16 : 0;
    printf("%s: %llu x %llu, occupancy %d, blocks %llu x bands %llu, band_scratch %llu\n", prop.name, rows, cols, occ, gb, bands, band_scratch);
    unsigned long long in_pitch = cols, out_pitch = cols;
    CUfunction fn = nullptr;
    const char *cubin = getenv("RING_CUBIN");
    if (cubin) {  // kgen's own NVRTC build of the kernel
        CUmodule mod; CUresult r = cuModuleLoad(&mod, cubin);
        if (r != CUDA_SUCCESS) { fprintf(stderr, "cuModuleLoad %s: %d\n", cubin, (int)r); return 1; }
        cuModuleGetFunction(&fn, mod, "scan_cols_sum_f32");
        cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
        int o2 = 0; cuOccupancyMaxActiveBlocksPerMultiprocessor(&o2, fn, THREADS, smem);
        printf("  cubin %s: occupancy %d\n", cubin, o2);
    }
    // in's tensor map as kgen's launcher encodes it (runtime/scan_launch.c's ring_map)
    RingTensorMap in_map = {};
    int mapped = BOX_ROWS > 0;
    if (mapped) {
        CUtensorMap map;
        cuuint64_t dims[2] = { cols, rows }, strides[1] = { in_pitch * sizeof(T) };
        cuuint32_t box[2] = { (cuuint32_t)COLS, (cuuint32_t)BOX_ROWS }, estrides[2] = { 1, 1 };
        CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, x, dims, strides, box, estrides,
                                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS) { fprintf(stderr, "cuTensorMapEncodeTiled: %d\n", (int)r); return 1; }
        static_assert(sizeof map == sizeof in_map, "a tensor map is 128 bytes");
        memcpy(&in_map, &map, sizeof map);
    }
    void *args[10] = { &x, &y, &rows, &cols, &in_pitch, &out_pitch, &scratch, &band_scratch, &in_map, &mapped };
    auto launch = [&]() {
        if (fn) { CUresult r = cuLaunchKernel(fn, (unsigned)gb, (unsigned)bands, 1, THREADS, 1, 1, smem, 0, args, nullptr); if (r) { fprintf(stderr, "launch %d\n", (int)r); exit(1); } }
        else scan_cols_sum_f32<<<dim3((unsigned)gb, (unsigned)bands), THREADS, smem>>>(x, y, rows, cols, in_pitch, out_pitch, scratch, band_scratch, in_map, mapped);
    };
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    auto timeit = [&](auto f) {
        std::vector<float> t;
        for (int i = 0; i < 20; i++) { CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms); }
        std::sort(t.begin(), t.end()); return t[10];
    };
    auto copy = [&]() { CK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice)); };
    timeit(copy); float c = timeit(copy);
    CK(cudaMemset(y, 0xff, bytes)); launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hy.data(), y, bytes, cudaMemcpyDeviceToHost));
    std::vector<double> run(cols, 0), mag(cols, 0); long bad = 0;
    for (unsigned long long i = 0; i < rows; i++) for (unsigned long long j = 0; j < cols; j++) {
        run[j] += hx[i * cols + j]; mag[j] += fabs(hx[i * cols + j]);
        if (!(fabs(hy[i * cols + j] - run[j]) <= 8e-6 * mag[j] + 1e-30)) bad++;
    }
    float k = timeit(launch);
    printf("  %s%s: %.1f us, copy %.1f us, %.3f of copy, %ld bad\n", RING_NAME, cubin ? " (kgen's NVRTC cubin)" : "", k * 1e3, c * 1e3, c / k, bad);
#ifdef RING_TIMELINE
    // bench/scan/ring_timeline.py's stamps: band 0's blocks, their first TL_K tiles; the phases in us
    {
        TlStamp *tl; const size_t nst = (size_t)gb * TL_K;
        CK(cudaMalloc(&tl, nst * sizeof *tl)); CK(cudaMemset(tl, 0, nst * sizeof *tl));
        CK(cudaMemcpyToSymbol(kgen_tl, &tl, sizeof tl));
        launch(); CK(cudaDeviceSynchronize());
        std::vector<TlStamp> h(nst); CK(cudaMemcpy(h.data(), tl, nst * sizeof *tl, cudaMemcpyDeviceToHost));
        int khz = 0; CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
        const double us = 1e3 / khz;  // a clock's microseconds
        std::vector<double> ph[4];     // next tile in, words, stores, the whole turn
        std::vector<double> words_by[4];  // the words' wait by quarter of the band's blocks
        for (unsigned long long b = 0; b < gb; b++)
            for (int kk = 1; kk < TL_K; kk++) {  // (tile 0: the launch's start)
                const TlStamp v = h[b * TL_K + kk];
                if (!v.start) continue;
                ph[0].push_back((v.in - v.start) * us); ph[1].push_back((v.words - v.in) * us);
                ph[2].push_back((v.stored - v.words) * us); ph[3].push_back((v.stored - v.start) * us);
                words_by[b * 4 / gb].push_back((v.words - v.in) * us);
            }
        auto q = [](std::vector<double> v, double f) { if (v.empty()) return 0.0; std::sort(v.begin(), v.end()); return v[(size_t)(f * (v.size() - 1))]; };
        const char *names[4] = { "next tile in + totals", "words (prefix)", "scan + stores", "a tile's turn" };
        printf("  timeline (%zu turns of band 0, clock %d MHz): median / p10 / p90 us\n", ph[0].size(), khz / 1000);
        for (int i = 0; i < 4; i++) printf("    %-22s %7.2f %7.2f %7.2f\n", names[i], q(ph[i], .5), q(ph[i], .1), q(ph[i], .9));
        for (int i = 0; i < 4; i++) printf("    words, blocks' quarter %d: median %.2f us, p90 %.2f\n", i, q(words_by[i], .5), q(words_by[i], .9));
    }
#endif
    return 0;
}
#endif
