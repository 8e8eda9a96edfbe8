import sys
def transform(src, name):
    src = src.replace('matmul_mma_bf16(', name + '(')
    ptx = '''
static __device__ __forceinline__ void mbarrier_init(unsigned long long *bar, unsigned int count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(bar)), "r"(count) : "memory");
}
static __device__ __forceinline__ void mbarrier_arrive(unsigned long long *bar)
{
    asm volatile("{ .reg .b64 state; mbarrier.arrive.shared.b64 state, [%0]; }" :: "r"(smem(bar)) : "memory");
}
static __device__ __forceinline__ void cp_async_mbarrier_arrive(unsigned long long *bar)
{
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(smem(bar)) : "memory");
}
static __device__ __forceinline__ void mbarrier_wait(unsigned long long *bar, unsigned int parity)
{
    for (unsigned int done = 0; !done;)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(bar)), "r"(parity) : "memory");
}
'''
    def rep(a, b):
        nonlocal src
        assert a in src, a[:60]
        src = src.replace(a, b)
    rep('// Close this thread\'s group of copies.', ptx + '// Close this thread\'s group of copies.')
    rep('''    T *const bs = as + STAGES * A_TILE;               // then STAGES tiles of B
''', '''    T *const bs = as + STAGES * A_TILE;               // then STAGES tiles of B
    unsigned long long *const full = reinterpret_cast<unsigned long long *>(bs + STAGES * B_TILE);
    unsigned long long *const empty = full + STAGES;
    if (threadIdx.x < STAGES) {
        mbarrier_init(&full[threadIdx.x], THREADS);
        mbarrier_init(&empty[threadIdx.x], THREADS / 32);
    }
    __syncthreads();
''')
    old_fetch = src[src.index('    auto fetch = [&]() {'):src.index('    // STAGES - 1 tiles in flight')]
    src = src.replace(old_fetch, '''    auto fetch = [&]() {
        if (fetched < tiles) {
            if (fetched >= STAGES)
                mbarrier_wait(&empty[write], (fetched / STAGES - 1) % 2);  // every warp is done with tile fetched - STAGES
            load_a(as + write * A_TILE, a, lda, m, row0, k0 + fetched * TILE_K, k1, aligned & 1, tid);
            load_b(bs + write * B_TILE, b, ldb, n, col0, k0 + fetched * TILE_K, k1, aligned & 2, tid);
            cp_async_mbarrier_arrive(&full[write]);
            mbarrier_arrive(&full[write]);
        }
        fetched++;
        write = write + 1 == STAGES ? 0 : write + 1;
    };
''')
    rep('''    cp_async_wait<STAGES - 2>();  // tile 0 has landed
    __syncthreads();''', '''    mbarrier_wait(&full[0], 0);  // tile 0 has landed''')
    rep('''                    cp_async_wait<STAGES - 2>();  // this thread's copies of tile t + 1 have landed
                    __syncthreads();''', '''                    __syncwarp();
                    if (lane == 0)
                        mbarrier_arrive(&empty[t % STAGES]);  // this warp is done reading tile t
                    mbarrier_wait(&full[read], (t + 1) / STAGES % 2);  // tile t + 1 has landed''')
    rep('''    cp_async_wait<0>();
''', '')
    return src
src = open(sys.argv[1]).read()
open(sys.argv[3], 'w').write(transform(src, sys.argv[2]))
