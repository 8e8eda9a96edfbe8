/*
 * expr.h - the expressions of `op: custom` (map, combine, identity, post)
 * and of matmul's epilogue: a small subset of C, parsed so that what
 * reaches the generated file is known to be one expression of the names
 * its function declares, typed so that NVRTC compiles it, and computed on
 * the CPU for `kgen run`'s reference.  Three pieces, each on the one
 * before it:
 *
 *   expr_parse.h   text to a tree: the language, its names and numbers
 *   expr_type.h    every node's C++ type, and the faults NVRTC would find
 *   expr_eval.h    the tree's value on the CPU, as the GPU computes it
 *
 * This header is all three, for the code outside gen/ (the CLI's
 * reference); gen/ includes the piece it uses.
 */
#ifndef KGEN_EXPR_H
#define KGEN_EXPR_H

#include "expr_eval.h"

#endif
