//! A kernel of strategy warp or block (auto has several): {{lanes}} threads per row.
// {{doc}}
extern "C" __global__ void __launch_bounds__({{threads}})
{{name}}(const Rows a)
{
    constexpr int GROUPS = {{threads}} / {{lanes}};  // rows a block takes at once
    const int lane = threadIdx.x % {{lanes}};

{{#exact}}
    // Rows of exactly {{lanes}} x {{vecs}} vectors, every array's vectors
    // aligned, take a path with no bounds to check: fewer instructions
    // (see weights_early() for what the two gained; auto has a kernel of
    // it alone, chosen at launch).
    if (a.cols == (Index){{lanes}} * {{vecs}} * VEC && (a.aligned & ({{aligned}})) == ({{aligned}})) {
        for (Index first = (Index)blockIdx.x * GROUPS; first < a.rows; first += (Index)gridDim.x * GROUPS) {
            const Index row = first + threadIdx.x / {{lanes}};
            {{call}}<{{lanes}}, {{vecs}}, true>(a, row < a.rows ? row : first, lane, row < a.rows);
        }
        return;
    }
{{/exact}}
    // The block's groups move on together (their shuffles and barriers need
    // every thread), so the loop ends by the block's first row.
    for (Index first = (Index)blockIdx.x * GROUPS; first < a.rows; first += (Index)gridDim.x * GROUPS) {
        const Index row = first + threadIdx.x / {{lanes}};
{{#exact_only}}
        {{call}}<{{lanes}}, {{vecs}}, true>(a, row < a.rows ? row : first, lane, row < a.rows);
{{/exact_only}}
{{^exact_only}}
        {{call}}<{{lanes}}, {{vecs}}>(a, row < a.rows ? row : first, lane, row < a.rows);
{{/exact_only}}
    }
}
