//! row_reduce or col_reduce: the {{word}}s' reductions of the values a
//! kernel stores, a thread's partials of one {{word}} at a time.
{{#some}}
// The reductions of each {{word}} of the values stored ({{names}}), into ep.{{line}}_<reduction>[{{line}}]: a thread
// folds in its values of one {{word}}, merges its partials with the lanes that hold the same {{word}}, and one lane
// adds them in with an atomic each.  The launcher sets the vectors to each reduction's identity first.
struct {{Line}}Partials {
    Acc {{members}};

{{/some}}
{{^some}}
// No reductions of the {{word}}s (the spec has no {{line}}_reduce): empty partials, nothing folded.
struct {{Line}}Partials {
{{/some}}
    __device__ __forceinline__ void start()
    {
{{start}}
    }

    __device__ __forceinline__ void fold(Acc x)
    {
{{fold}}
    }

    // Merged with the partials of lane ^ lanes, every lane of the warp taking part.
    __device__ __forceinline__ void shuffle(int lanes)
    {
{{shuffle}}
    }

    __device__ __forceinline__ void commit(const Epilogue &ep, int {{line}}) const
    {
{{commit}}
    }
};
