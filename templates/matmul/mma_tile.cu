//! math: mma: one tile's products, k from k0 to k1, and their results to C
//! (the body of mma.cu's kernel; with schedule: stream_k, of its loop over
//! units).
float acc[MMA_M][MMA_N][4];
#pragma unroll
for (int i = 0; i < MMA_M; i++)
    #pragma unroll
    for (int j = 0; j < MMA_N; j++)
        #pragma unroll
        for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;

{{mainloop}}

{{#stream_k}}
if (!finish_tile<MMA_M * MMA_N * 4>(&acc[0][0][0], partials, u, m, n, k, dp_tiles, sk_blocks))
    continue;  // another of the tile's blocks adds this one's sums
{{/stream_k}}
{{#pairs}}
store_warp(c, acc, m, n, ldc, row0 + wm, col0 + wn, lane, ep);
{{/pairs}}
{{^pairs}}
store_elements(c, {{partials}}, acc, m, n, ldc, row0 + wm, col0 + wn, lane, ep);
{{/pairs}}
