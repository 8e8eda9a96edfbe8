//! loads: tma: a tile of A and of B as TMA boxes, each completing on the
//! stage's full mbarrier; TMA writes zeros for what lies outside the matrix.
// Tile kt (k from kt) of A, rows from row0: {{a_boxes}}.
static __device__ __forceinline__ void load_a(T *as, const CUtensorMap *a_map, int row0, int kt, unsigned long long *bar)
{
#pragma unroll
    for (int i = 0; i < A_LD / BOX; i++)
        tma_load_2d(as + i * A_BOX, a_map, {{a_x}}, {{a_y}}, bar);
}

// Tile kt of B, columns from col0: {{b_boxes}}.
static __device__ __forceinline__ void load_b(T *bs, const CUtensorMap *b_map, int col0, int kt, unsigned long long *bar)
{
#pragma unroll
    for (int i = 0; i < B_LD / BOX; i++)
        tma_load_2d(bs + i * B_BOX, b_map, {{b_x}}, {{b_y}}, bar);
}
