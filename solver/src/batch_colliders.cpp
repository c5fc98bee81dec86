// Batch colliders (issue 46): per block, the colliders of every chain
// gathered into float lanes for the kernel (batch_kernel_collide.inc),
// where they were at the start of the frame and where they are at its end.
#include <algorithm>

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

// A slot's 8 lanes in the order load_colliders gathers them.
BatchLane* slot_lane(BatchColliderLanes& slot, int e) {
  return e < 3 ? &slot.a[e] : e < 6 ? &slot.b[e - 3] : e == 6 ? &slot.radius_a : &slot.radius_b;
}

void copy_lane(const BatchColliderLanes& from, BatchColliderLanes& to, int l) {
  for (int e = 0; e < 3; ++e) to.a[e].v[l] = from.a[e].v[l], to.b[e].v[l] = from.b[e].v[l];
  to.radius_a.v[l] = from.radius_a.v[l];
  to.radius_b.v[l] = from.radius_b.v[l];
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
        // The 8 values in order (a, b, radius_a, radius_b; a branch-free
        // check and conversion: every collider of every chain, every frame).
        const double v[8] = {cap.a.x(), cap.a.y(), cap.a.z(), cap.b.x(),
                             cap.b.y(), cap.b.z(), cap.radius_a, cap.radius_b};
        float w[8];
        bool usable = (v[6] >= 0.0) & (v[7] >= 0.0);
        for (int e = 0; e < 8; ++e) {
          usable &= (v[e] <= kMaxColliderExtent) & (v[e] >= -kMaxColliderExtent);
          w[e] = static_cast<float>(v[e]);
        }
        if (!usable) continue;
        BatchColliderLanes& slot = next[n++];
        for (int e = 0; e < 8; ++e) slot_lane(slot, e)->v[l] = w[e];
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
