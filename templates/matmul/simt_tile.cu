//! math: simt: one tile's products, k from k0 to k1, and their results to
//! C (the body of simt.cu's kernel; with schedule: stream_k, of its loop
//! over units).
Acc acc[THREAD_M][THREAD_N];
#pragma unroll
for (int i = 0; i < THREAD_M; i++)
    #pragma unroll
    for (int j = 0; j < THREAD_N; j++)
        acc[i][j] = 0;

{{mainloop}}

{{#stream_k}}
if (!finish_tile<THREAD_M * THREAD_N>(&acc[0][0], partials, u, m, n, k, dp_tiles, sk_blocks))
    continue;  // another of the tile's blocks adds this one's sums
{{/stream_k}}
#pragma unroll
for (int i = 0; i < THREAD_M; i++)
    #pragma unroll
    for (int j = 0; j < THREAD_N; j++) {
        const int row = row0 + tr0 + i / RM * RM_STRIDE + i % RM, col = col0 + tc0 + j / CN * CN_STRIDE + j % CN;
        if (row < m && col < n)
            store_result(c, partials, m, n, ldc, row, col, acc[i][j], ep);
    }
