// Batch kernel compiled with -mavx2 (solver/CMakeLists.txt); only called
// when the CPU reports AVX2 (batch.cpp). See batch_kernel.inc.
#include "batch_kernel.inc"

namespace solver {

void batch_kernel_avx2(const BatchConstants& c, const BatchLinkConstants* links,
                       const BatchFrame& frame, const BatchHipsLanes& prev,
                       const BatchHipsLanes& next, const BatchColliders& colliders,
                       const BatchSwayLanes* sway, BatchLane* block) {
  run_block(c, links, frame, prev, next, colliders, sway, block);
}

void batch_hips_avx2(const BatchConstants& c, const BatchMatrixLanes& m, const BatchHipsLanes& prev,
                      BatchHipsLanes& next, BatchLane& teleport) {
  hips_block(c, m, prev, next, teleport);
}

void batch_output_avx2(const BatchLane* block, int links, float s, int valid, float* out) {
  output_block(block, links, s, valid, out);
}

}  // namespace solver
