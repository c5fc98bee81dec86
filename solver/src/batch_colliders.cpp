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

// The capsule into lane l of `slot` as floats when the batch can use it
// (colliders.h collider_usable); false, and nothing written, when not.
// Every collider of every chain goes through here every frame: on x86-64
// the 8 values are converted as 4 pairs and tested as floats, an accept
// that implies the exact test (rounding is monotonic and 1e9 is a float:
// |f| < 1e9 gives |x| < 1e9, f > 0 gives x > 0; NaN fails), the exact
// test itself deciding the rest (a bound or a zero radius, rare).
static_assert(static_cast<double>(static_cast<float>(kMaxColliderExtent)) == kMaxColliderExtent);
bool put_usable(const Capsule& cap, BatchColliderLanes& slot, int l) {
  float f[8];  // ax ay bx by az bz ra rb
#if defined(__SSE2__)
  const __m128 xy = _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(cap.a.data())),
                                  _mm_cvtpd_ps(_mm_loadu_pd(cap.b.data())));
  const __m128 zr = _mm_movelh_ps(_mm_cvtpd_ps(_mm_set_pd(cap.b.z(), cap.a.z())),
                                  _mm_cvtpd_ps(_mm_set_pd(cap.radius_b, cap.radius_a)));
  const __m128 sign = _mm_set1_ps(-0.0f),
               bound = _mm_set1_ps(static_cast<float>(kMaxColliderExtent));
  const __m128 inside = _mm_and_ps(_mm_cmplt_ps(_mm_andnot_ps(sign, xy), bound),
                                   _mm_cmplt_ps(_mm_andnot_ps(sign, zr), bound));
  const __m128 positive =
      _mm_cmpgt_ps(zr, _mm_set_ps(0.0f, 0.0f, -__builtin_inff(), -__builtin_inff()));
  if (_mm_movemask_ps(_mm_and_ps(inside, positive)) != 15 && !collider_usable(cap)) return false;
  _mm_storeu_ps(f, xy);
  _mm_storeu_ps(f + 4, zr);
#else
  if (!collider_usable(cap)) return false;
  const double v[8] = {cap.a.x(), cap.a.y(), cap.b.x(),    cap.b.y(),
                       cap.a.z(), cap.b.z(), cap.radius_a, cap.radius_b};
  for (int k = 0; k < 8; ++k) f[k] = static_cast<float>(v[k]);
#endif
  slot.a[0].v[l] = f[0], slot.a[1].v[l] = f[1], slot.a[2].v[l] = f[4];
  slot.b[0].v[l] = f[2], slot.b[1].v[l] = f[3], slot.b[2].v[l] = f[5];
  slot.radius_a.v[l] = f[6], slot.radius_b.v[l] = f[7];
  return true;
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
        if (put_usable(cap, next[n], l)) ++n;
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
