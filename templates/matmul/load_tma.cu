//! loads: tma: a tile of A and of B as TMA boxes, each completing on the
//! stage's full mbarrier; TMA writes zeros for what lies outside the matrix.
{{#a_row}}
// Tile kt (k from kt) of A, rows from row0: TILE_K / BOX boxes of TILE_M rows of BOX k, along k.
{{/a_row}}
{{^a_row}}
// Tile kt (k from kt) of A, rows from row0: TILE_M / BOX boxes of TILE_K rows (k) of BOX m, along m.
{{/a_row}}
static __device__ __forceinline__ void load_a(T *as, const CUtensorMap *a_map, int row0, int kt, unsigned long long *bar)
{
#pragma unroll
    for (int i = 0; i < A_LD / BOX; i++)
{{#a_row}}
        tma_load_2d(as + i * A_BOX, a_map, kt + i * BOX, row0, bar);
{{/a_row}}
{{^a_row}}
        tma_load_2d(as + i * A_BOX, a_map, row0 + i * BOX, kt, bar);
{{/a_row}}
}

{{#b_row}}
// Tile kt of B, columns from col0: TILE_N / BOX boxes of TILE_K rows (k) of BOX n, along n.
{{/b_row}}
{{^b_row}}
// Tile kt of B, columns from col0: TILE_K / BOX boxes of TILE_N rows of BOX k, along k.
{{/b_row}}
static __device__ __forceinline__ void load_b(T *bs, const CUtensorMap *b_map, int col0, int kt, unsigned long long *bar)
{
#pragma unroll
    for (int i = 0; i < B_LD / BOX; i++)
{{#b_row}}
        tma_load_2d(bs + i * B_BOX, b_map, col0 + i * BOX, kt, bar);
{{/b_row}}
{{^b_row}}
        tma_load_2d(bs + i * B_BOX, b_map, kt + i * BOX, col0, bar);
{{/b_row}}
}
