/*
 * lookback_model.c - a CPU model of kernel: scan's look-back
 * (templates/scan/lookback.cu on this branch), to check the protocol
 * itself: W threads take tiles in order (as a GPU dispatches blocks), each
 * publishes its total (release), looks back as the kernel's warp 0 does
 * (32 tiles a window, the windows kept up to WINDOWS, then a wait for the
 * farthest tile's prefix; from the nearest prefix of the farthest window
 * read, a left-to-right fold) and publishes its prefix.  Every prefix must
 * equal the left fold of the totals bit for bit, run after run, whatever
 * the scheduling (threads yield at random), and no thread may wait
 * forever.  It prints how often windows were kept and how often the
 * fallback waited.  Not the kernel: a model of its protocol in C11 atomics.
 *
 *   cc -O2 -pthread -o lookback_model bench/scan/lookback_model.c
 *   ./lookback_model TILES THREADS RUNS      e.g. 8000 900 2 (many in flight), 20000 64 2
 *
 * On the 2-core machine (2026-12-02): 8000 tiles on 900 threads, 0 of 8000
 * prefixes off in two runs, 30845 and 60147 windows kept, 132 and 294
 * fallbacks; 20000 on 64, none off, no fallback.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#define WINDOWS 16
enum { AGG = 1, PRE = 2 };
static int T, W;
static _Atomic unsigned long long *flags;
static float *sums, *prefixes, *totals, *got;
static _Atomic int next_tile; static _Atomic long deep, fallback;
static unsigned long long mark;
static void jitter(unsigned *seed) { int k = rand_r(seed) % 50; for (int i = 0; i < k; i++) if (rand_r(seed) % 7 == 0) sched_yield(); }
static float look_back(long t, unsigned *seed) {
    float seen[WINDOWS][32], v[32]; unsigned long long f[32]; int w = 0; long base = t - 32;
    for (;;) {
        unsigned has = 0;
        for (int l = 0; l < 32; l++) {
            long j = base + l; f[l] = mark | PRE; v[l] = 0.0f;
            if (j >= 0) {
                do { f[l] = atomic_load_explicit(&flags[j], memory_order_acquire); if (f[l] < (mark | AGG)) sched_yield(); } while (f[l] < (mark | AGG));
                v[l] = f[l] == (mark | PRE) ? prefixes[j] : sums[j];
            }
            if (f[l] == (mark | PRE)) has |= 1u << l;
        }
        if (has) { int from = 31 - __builtin_clz(has); float p = v[from]; for (int l = from + 1; l < 32; l++) p = p + v[l];
            while (w > 0) { w--; for (int l = 0; l < 32; l++) p = p + seen[w][l]; } return p; }
        if (w == WINDOWS - 1) { atomic_fetch_add(&fallback, 1); long j = base; unsigned long long ff; do { ff = atomic_load_explicit(&flags[j], memory_order_acquire); if (ff != (mark|PRE)) sched_yield(); } while (ff != (mark | PRE));
            v[0] = prefixes[j]; float p = v[0]; for (int l = 1; l < 32; l++) p = p + v[l];
            while (w > 0) { w--; for (int l = 0; l < 32; l++) p = p + seen[w][l]; } return p; }
        memcpy(seen[w++], v, sizeof v); base -= 32; atomic_fetch_add(&deep, 1);
    }
}
static void *worker(void *arg) {
    unsigned seed = (unsigned)(size_t)arg * 7919u + 1;
    for (;;) {
        long t = atomic_fetch_add(&next_tile, 1); if (t >= T) return NULL;
        jitter(&seed); float all = totals[t]; float prefix = 0.0f;
        if (t > 0) { sums[t] = all; atomic_store_explicit(&flags[t], mark | AGG, memory_order_release); jitter(&seed); prefix = look_back(t, &seed); }
        prefixes[t] = t > 0 ? prefix + all : all; atomic_store_explicit(&flags[t], mark | PRE, memory_order_release);
        got[t] = prefix;
    }
}
int main(int argc, char **argv) {
    T = argc > 1 ? atoi(argv[1]) : 20000; W = argc > 2 ? atoi(argv[2]) : 64; int runs = argc > 3 ? atoi(argv[3]) : 5;
    flags = calloc(T, sizeof *flags); sums = calloc(T, 4); prefixes = calloc(T, 4); totals = calloc(T, 4); got = calloc(T, 4);
    float *want = calloc(T, 4); unsigned s = 42;
    for (int i = 0; i < T; i++) totals[i] = (float)((rand_r(&s) % 2000001) - 1000000) / 1024.0f * (1 + rand_r(&s) % 1000);
    float acc = 0.0f; for (int i = 0; i < T; i++) { want[i] = i ? acc : 0.0f; acc = i ? acc + totals[i] : totals[0]; }
    for (int r = 1; r <= runs; r++) {
        mark = (unsigned long long)r * 4; atomic_store(&next_tile, 0);
        pthread_t th[1024]; for (int i = 0; i < W; i++) pthread_create(&th[i], NULL, worker, (void *)(size_t)(i + r * 1000));
        for (int i = 0; i < W; i++) pthread_join(th[i], NULL);
        long bad = 0; for (int i = 0; i < T; i++) if (memcmp(&got[i], &want[i], 4)) bad++;
        printf("run %d: %ld of %d prefixes differ from the left fold (windows kept %ld, fallbacks %ld)\n", r, bad, T, (long)deep, (long)fallback);
        if (bad) return 1;
    }
    return 0;
}
