//! math: wgmma: the kernels' helpers, in the order they are written: the
//! PTX (templates/ptx/), the stages' pipeline, the producer's loads into a
//! stage, the consumers' multiply of one and their stores of C; split_k's
//! share of k and its gathering of a tile's sums.
{{ptx}}

{{pipeline}}

{{stage}}

{{multiply_stage}}

{{store_tile}}
{{#split_k}}

{{share}}
{{/split_k}}
{{#split}}

{{gather}}
{{/split}}
