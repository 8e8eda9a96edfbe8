//! GROUP, the constant of order: grouped and hilbert that tile_origin()
//! reads (every matmul kernel's; gen/matmul_common.c).
{{#grouped}}
constexpr int GROUP = {{group}};  // tile rows of a group (order: grouped)
{{/grouped}}
{{^grouped}}
constexpr int GROUP = {{group}};  // the side of a square of tiles (order: hilbert)
{{/grouped}}
