// Batch kernel for any x86-64 (SSE2 lanes); see batch_kernel.inc.
#include "batch_kernel.inc"

namespace solver {

void batch_kernel_baseline(const BatchConstants& c, const BatchLinkConstants* links, const BatchFrame& frame,
                           const BatchHipsLanes& prev, const BatchHipsLanes& next, BatchLane* block) {
  run_block(c, links, frame, prev, next, block);
}

}  // namespace solver
