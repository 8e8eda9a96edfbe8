//! tile_origin(): where a tile of C starts, in the spec's order (every
//! matmul kernel's; the order's doc line is order_text's).  {{tile}} is the
//! tile's number: the block's (blockIdx.x), or the `tile` argument of a
//! kernel whose blocks loop over tiles (math: wgmma, schedule: stream_k).
{{#indexed}}
// Where tile `tile` of C starts (row0, col0): {{how}}.
static __device__ __forceinline__ void tile_origin(int tile, int m, int n, int &row0, int &col0)
{{/indexed}}
{{^indexed}}
// Where block blockIdx.x's tile of C starts (row0, col0): {{how}}.
static __device__ __forceinline__ void tile_origin(int m, int n, int &row0, int &col0)
{{/indexed}}
{
{{#rows}}
    const int tiles_n = (n + TILE_N - 1) / TILE_N;
    row0 = {{tile}} / tiles_n * TILE_M;
    col0 = {{tile}} % tiles_n * TILE_N;
{{/rows}}
{{#cols}}
    const int tiles_m = (m + TILE_M - 1) / TILE_M;
    row0 = {{tile}} % tiles_m * TILE_M;
    col0 = {{tile}} / tiles_m * TILE_N;
{{/cols}}
{{#groups}}
    const int tiles_m = (m + TILE_M - 1) / TILE_M, tiles_n = (n + TILE_N - 1) / TILE_N;
    const int group_tiles = (tiles_m < GROUP ? tiles_m : GROUP) * tiles_n;  // a whole group's, at most all
    const int first = {{tile}} / group_tiles * GROUP;  // the group's first tile row
    const int height = tiles_m - first < GROUP ? tiles_m - first : GROUP;
    const int in_group = {{tile}} % group_tiles;
{{/groups}}
{{#hilbert}}
    const int square = in_group / (GROUP * GROUP) * GROUP;  // its first tile column

    if (height < GROUP || square + GROUP > tiles_n) {  // not a whole square: as grouped
        row0 = (first + in_group % height) * TILE_M;
        col0 = in_group / height * TILE_N;
        return;
    }
    // Point d of the square's curve, from its top-left corner (x, y = 0, 0) to
    // its top-right (GROUP - 1, 0): built from the smallest squares up, each
    // quadrant a copy of the curve so far, the first and last turned so that
    // the quadrants join.
    int d = in_group % (GROUP * GROUP), x = 0, y = 0;
    for (int side = 1; side < GROUP; side *= 2, d /= 4) {
        const int right = d / 2 & 1, down = (d ^ right) & 1;  // the quadrant
        if (!down) {
            if (right) {
                x = side - 1 - x;
                y = side - 1 - y;
            }
            const int was_x = x;
            x = y;
            y = was_x;
        }
        x += side * right;
        y += side * down;
    }
    row0 = (first + y) * TILE_M;
    col0 = (square + x) * TILE_N;
{{/hilbert}}
{{#grouped}}
    row0 = (first + in_group % height) * TILE_M;
    col0 = in_group / height * TILE_N;
{{/grouped}}
}
