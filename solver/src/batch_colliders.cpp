// Batch colliders (issue 46): per block, the colliders of every chain
// gathered into float lanes for the kernel (batch_kernel_collide.inc),
// where they were at the start of the frame and where they are at its end.
#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "solver/batch.h"

namespace solver {

void Batch::set_collider_capacity(int per_chain) {
  collider_capacity_ = std::clamp(per_chain, 0, kMaxColliders);
  const size_t slots = static_cast<size_t>(blocks_) * static_cast<size_t>(collider_capacity_);
  BatchColliderLanes empty{};
  for (int l = 0; l < kBatchLanes; ++l) empty.radius_a.v[l] = empty.radius_b.v[l] = -1.0f;
  for (auto& side : colliders_) side.assign(slots, empty);
  colliders_next_side_.assign(static_cast<size_t>(blocks_), 0);
  collider_count_.assign(static_cast<size_t>(blocks_) * kBatchLanes, 0);
  collider_count_now_.assign(static_cast<size_t>(blocks_) * kBatchLanes, 0);
}

Batch::ColliderSides Batch::collider_sides(int b) {
  const size_t first = static_cast<size_t>(b) * static_cast<size_t>(collider_capacity_);
  const int next = colliders_next_side_[static_cast<size_t>(b)];
  return {&colliders_[1 - next][first], &colliders_[next][first]};
}

namespace {

void copy_lane(const BatchColliderLanes& from, BatchColliderLanes& to, int l) {
  for (int e = 0; e < 3; ++e) to.a[e].v[l] = from.a[e].v[l], to.b[e].v[l] = from.b[e].v[l];
  to.radius_a.v[l] = from.radius_a.v[l];
  to.radius_b.v[l] = from.radius_b.v[l];
}

// Whether the batch can use a capsule (colliders.h collider_usable): on
// x86-64 the 16 comparisons as 8 SSE2 ones on pairs (NaN fails each), as
// every collider of every chain is checked every frame; elsewhere the
// scalar test itself.
bool usable(const Capsule& cap) {
#if defined(__SSE2__)
  const __m128d a_xy = _mm_loadu_pd(cap.a.data()), b_xy = _mm_loadu_pd(cap.b.data());
  const __m128d a_zr = _mm_set_pd(cap.radius_a, cap.a.z()), b_zr = _mm_set_pd(cap.radius_b, cap.b.z());
  const __m128d high = _mm_set1_pd(kMaxColliderExtent), low = _mm_set1_pd(-kMaxColliderExtent);
  const __m128d low_r = _mm_set_pd(0.0, -kMaxColliderExtent);  // a radius is >= 0
  const __m128d xy = _mm_and_pd(_mm_and_pd(_mm_cmple_pd(a_xy, high), _mm_cmpge_pd(a_xy, low)),
                                _mm_and_pd(_mm_cmple_pd(b_xy, high), _mm_cmpge_pd(b_xy, low)));
  const __m128d zr = _mm_and_pd(_mm_and_pd(_mm_cmple_pd(a_zr, high), _mm_cmpge_pd(a_zr, low_r)),
                                _mm_and_pd(_mm_cmple_pd(b_zr, high), _mm_cmpge_pd(b_zr, low_r)));
  return _mm_movemask_pd(_mm_and_pd(xy, zr)) == 3;
#else
  return collider_usable(cap);
#endif
}

}  // namespace

int Batch::load_colliders(std::span<const FrameInput> inputs, bool advance, int b, const BatchLane& teleported) {
  const auto [prev, next] = collider_sides(b);
  int slots = 0;
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    const bool held = c >= count_ || rejected_now_[u];
    int n = 0;
    if (!held && !inputs.empty()) {
      for (const Capsule& cap : inputs[u].capsules) {
        if (n == collider_capacity_) break;
        if (!usable(cap)) continue;
        BatchColliderLanes& slot = next[n++];
        slot.a[0].v[l] = static_cast<float>(cap.a.x());
        slot.a[1].v[l] = static_cast<float>(cap.a.y());
        slot.a[2].v[l] = static_cast<float>(cap.a.z());
        slot.b[0].v[l] = static_cast<float>(cap.b.x());
        slot.b[1].v[l] = static_cast<float>(cap.b.y());
        slot.b[2].v[l] = static_cast<float>(cap.b.z());
        slot.radius_a.v[l] = static_cast<float>(cap.radius_a);
        slot.radius_b.v[l] = static_cast<float>(cap.radius_b);
      }
    }
    for (int s = n; s < collider_capacity_; ++s) next[s].radius_a.v[l] = next[s].radius_b.v[l] = -1.0f;
    // As the scalar step: another count, or a teleport, starts them where
    // they are (no sweep from where they were).
    const bool from_prev = collider_count_[u] == n && !(advance && teleported.v[l] != 0.0f);
    if (!held && !from_prev)
      for (int s = 0; s < n; ++s) copy_lane(next[s], prev[s], l);
    collider_count_now_[u] = held ? collider_count_[u] : n;
    slots = std::max(slots, n);
  }
  return slots;
}

void Batch::keep_colliders(int b) {
  // This frame's colliders start the next one: the sides swap, a held lane
  // keeps where its colliders were.
  const auto [prev, next] = collider_sides(b);
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    if (c >= count_ || rejected_now_[u]) {
      for (int s = 0; s < collider_capacity_; ++s) copy_lane(prev[s], next[s], l);
      continue;
    }
    collider_count_[u] = collider_count_now_[u];
  }
  colliders_next_side_[static_cast<size_t>(b)] ^= 1;
}

}  // namespace solver
