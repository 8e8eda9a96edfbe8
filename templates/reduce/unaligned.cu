//! The start of the main kernel when its loads are vectors: the elements
//! before the first aligned address go to block 0 one at a time (the
//! `aligned_head` helper, reduce/head.cu), and the tiles start there.
// `in` may start at any element: the elements before its first {{align}}-byte
// boundary are taken one at a time by block 0, and the tiles start at the
// boundary, so that every vector load is aligned.
const T *const unaligned = in;
const Index head = aligned_head(in, n);
in += head;
n -= head;
