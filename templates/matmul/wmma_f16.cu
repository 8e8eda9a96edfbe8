//! The wmma instructions of m16n16k16 f16 (f32 accumulate), wrapped once:
//! what nvcuda::wmma's load_matrix_sync, mma_sync and store_matrix_sync
//! compile to, written here because NVRTC has no <mma.h> without the
//! toolkit's include directory.  A fragment of A is {{a_layout}}-major in
//! shared memory, of B {{b_layout}}-major.
constexpr int A_REGS = 8, B_REGS = 8;  // 32-bit registers per lane of an A and of a B fragment

// A's 16 x 16 fragment at p (ld elements between its {{a_major}}s).
static __device__ __forceinline__ void wmma_load_a(unsigned int (&f)[A_REGS], const T *p, int ld)
{
    asm volatile("wmma.load.a.sync.aligned.{{a_layout}}.m16n16k16.shared.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;"
                 : "=r"(f[0]), "=r"(f[1]), "=r"(f[2]), "=r"(f[3]), "=r"(f[4]), "=r"(f[5]), "=r"(f[6]),
                   "=r"(f[7])
                 : "r"(smem(p)), "r"(ld));
}

// B's 16 x 16 fragment at p (ld elements between its {{b_major}}s).
static __device__ __forceinline__ void wmma_load_b(unsigned int (&f)[B_REGS], const T *p, int ld)
{
    asm volatile("wmma.load.b.sync.aligned.{{b_layout}}.m16n16k16.shared.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;"
                 : "=r"(f[0]), "=r"(f[1]), "=r"(f[2]), "=r"(f[3]), "=r"(f[4]), "=r"(f[5]), "=r"(f[6]),
                   "=r"(f[7])
                 : "r"(smem(p)), "r"(ld));
}

// d += a b over one 16 x 16 x 16 step.
static __device__ __forceinline__ void wmma_mma(float (&d)[8], const unsigned int (&a)[A_REGS],
                                                const unsigned int (&b)[B_REGS])
{
    asm volatile("wmma.mma.sync.aligned.{{a_layout}}.{{b_layout}}.m16n16k16.f32.f32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%0, %1, %2, %3, %4, %5, %6, %7};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]),
                   "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]),
                   "r"(b[6]), "r"(b[7]));
}

// Store an accumulator fragment, row-major, ld floats a row, to shared memory.
static __device__ __forceinline__ void wmma_store(float *p, const float (&d)[8], int ld)
{
    asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;"
                 :: "r"(smem(p)), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]), "f"(d[4]), "f"(d[5]), "f"(d[6]),
                    "f"(d[7]), "r"(ld) : "memory");
}
