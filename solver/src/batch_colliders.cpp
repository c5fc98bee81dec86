// Batch colliders (issue 46): per block, the colliders of every chain
// gathered into float lanes for the kernel (batch_kernel_collide.inc),
// where they were at the start of the frame and where they are at its end.
#include <algorithm>
#include <cstdint>

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
  colliders_.assign(slots, empty);
  size_collider_scratch();
  collider_count_.assign(static_cast<size_t>(blocks_) * kBatchLanes, 0);
  collider_count_now_.assign(static_cast<size_t>(blocks_) * kBatchLanes, 0);
}

void Batch::size_collider_scratch() {
  BatchColliderLanes empty{};
  for (int l = 0; l < kBatchLanes; ++l) empty.radius_a.v[l] = empty.radius_b.v[l] = -1.0f;
  colliders_next_.assign(scalar_.size() * static_cast<size_t>(collider_capacity_), empty);
}

Batch::ColliderSides Batch::collider_sides(int b, int worker) {
  const size_t cap = static_cast<size_t>(collider_capacity_);
  return {&colliders_[static_cast<size_t>(b) * cap], &colliders_next_[static_cast<size_t>(worker) * cap]};
}

namespace {

void copy_lane(const BatchColliderLanes& from, BatchColliderLanes& to, int l) {
  for (int e = 0; e < 3; ++e) to.a[e].v[l] = from.a[e].v[l], to.b[e].v[l] = from.b[e].v[l];
  to.radius_a.v[l] = from.radius_a.v[l];
  to.radius_b.v[l] = from.radius_b.v[l];
}

// The capsule into lane l of `slot` as floats when the batch can use it
// (colliders.h collider_usable); false, and nothing written, when not. The
// exact path, for the lanes the fast one below leaves (a capsule that fails
// its float test).
bool put_usable(const Capsule& cap, BatchColliderLanes& slot, int l) {
  if (!collider_usable(cap)) return false;
  const double v[8] = {cap.a.x(), cap.a.y(), cap.a.z(), cap.b.x(), cap.b.y(), cap.b.z(), cap.radius_a, cap.radius_b};
  float* const to[8] = {slot.a[0].v, slot.a[1].v, slot.a[2].v, slot.b[0].v, slot.b[1].v, slot.b[2].v,
                        slot.radius_a.v, slot.radius_b.v};
  for (int k = 0; k < 8; ++k) to[k][l] = static_cast<float>(v[k]);
  return true;
}

// Lane l's colliders into `next` one by one, the unusable ones left out;
// the slots after them empty (radius -1). Returns how many it took.
int put_lane(std::span<const Capsule> caps, int capacity, BatchColliderLanes* next, int l) {
  int n = 0;
  for (const Capsule& cap : caps) {
    if (n == capacity) break;
    if (put_usable(cap, next[n], l)) ++n;
  }
  for (int s = n; s < capacity; ++s) next[s].radius_a.v[l] = next[s].radius_b.v[l] = -1.0f;
  return n;
}

#if defined(__SSE2__)
// Fast path: slot s of 4 lanes at once, `caps[j]` lane j's capsule (the
// empty one where it has none): 4 pair conversions a capsule, two 4 x 4
// transpositions into the slot's lanes, then the usability test on the
// floats, 4 lanes per comparison. An accept there implies the exact test
// (rounding is monotonic and 1e9 is a float: |f| < 1e9 gives |x| < 1e9,
// f > 0 gives x > 0; NaN fails); a lane it does not accept is redone by
// put_lane (a bound, a zero radius, a NaN: rare). Returns the accepted
// lanes as bits.
static_assert(static_cast<double>(static_cast<float>(kMaxColliderExtent)) == kMaxColliderExtent);
inline void convert(const Capsule& cap, __m128& xy, __m128& zr) {
  xy = _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(cap.a.data())), _mm_cvtpd_ps(_mm_loadu_pd(cap.b.data())));
  zr = _mm_movelh_ps(_mm_cvtpd_ps(_mm_set_pd(cap.b.z(), cap.a.z())),
                     _mm_cvtpd_ps(_mm_set_pd(cap.radius_b, cap.radius_a)));
}
inline __m128 within(__m128 v, __m128 ok) {
  const __m128 bound = _mm_set1_ps(static_cast<float>(kMaxColliderExtent));
  return _mm_and_ps(ok, _mm_cmplt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), v), bound));
}
int put_four(const Capsule& c0, const Capsule& c1, const Capsule& c2, const Capsule& c3, BatchColliderLanes& slot,
             int l) {
  __m128 x0, x1, x2, x3, z0, z1, z2, z3;  // ax ay bx by | az bz ra rb
  convert(c0, x0, z0), convert(c1, x1, z1), convert(c2, x2, z2), convert(c3, x3, z3);
  _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
  _MM_TRANSPOSE4_PS(z0, z1, z2, z3);
  _mm_store_ps(slot.a[0].v + l, x0), _mm_store_ps(slot.a[1].v + l, x1);
  _mm_store_ps(slot.b[0].v + l, x2), _mm_store_ps(slot.b[1].v + l, x3);
  _mm_store_ps(slot.a[2].v + l, z0), _mm_store_ps(slot.b[2].v + l, z1);
  _mm_store_ps(slot.radius_a.v + l, z2), _mm_store_ps(slot.radius_b.v + l, z3);
  __m128 ok = _mm_and_ps(_mm_cmpgt_ps(z2, _mm_setzero_ps()), _mm_cmpgt_ps(z3, _mm_setzero_ps()));
  ok = within(x0, within(x1, within(x2, within(x3, ok))));
  ok = within(z0, within(z1, within(z2, within(z3, ok))));
  return _mm_movemask_ps(ok);
}

// A lane's empty slot: radius -1, never hit (its ends are never read).
const Capsule kEmptyCapsule{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), -1.0, -1.0};
#endif

}  // namespace

int Batch::load_colliders(std::span<const FrameInput> inputs, bool advance, int b, int worker,
                          const BatchLane& teleported) {
  const auto [prev, next] = collider_sides(b, worker);
  // Slot by slot, 4 lanes at a time (a lane's first capacity colliders,
  // assumed usable); then the lanes where one was not, one by one.
  int n[kBatchLanes];
  const Capsule* first[kBatchLanes];
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    const bool held = c >= count_ || rejected_now_[u] || inputs.empty();
    const std::span<const Capsule> caps = held ? std::span<const Capsule>() : inputs[u].capsules;
    n[l] = static_cast<int>(std::min(caps.size(), static_cast<size_t>(collider_capacity_)));
    first[l] = caps.data();
  }
  std::uint32_t redo = 0;  // lanes put_lane takes
#if defined(__SSE2__)
  for (int s = 0; s < collider_capacity_; ++s) {
    for (int l = 0; l < kBatchLanes; l += 4) {
      auto cap = [&](int j) -> const Capsule& { return s < n[l + j] ? first[l + j][s] : kEmptyCapsule; };
      const int used = (s < n[l] ? 1 : 0) | (s < n[l + 1] ? 2 : 0) | (s < n[l + 2] ? 4 : 0) | (s < n[l + 3] ? 8 : 0);
      redo |= static_cast<std::uint32_t>(used & ~put_four(cap(0), cap(1), cap(2), cap(3), next[s], l)) << l;
    }
  }
#else
  for (int l = 0; l < kBatchLanes; ++l) redo |= 1u << l;
#endif
  int slots = 0;
  std::uint32_t restart = 0;  // lanes whose colliders start where they are
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    const bool held = c >= count_ || rejected_now_[u];
    if (redo & (1u << l))
      n[l] = put_lane(held || inputs.empty() ? std::span<const Capsule>() : inputs[u].capsules, collider_capacity_, next, l);
    // As the scalar step: another count, or a teleport, starts them where
    // they are (no sweep from where they were).
    const bool from_prev = collider_count_[u] == n[l] && !(advance && teleported.v[l] != 0.0f);
    if (!held && !from_prev && n[l] > 0) restart |= 1u << l;
    collider_count_now_[u] = held ? collider_count_[u] : n[l];
    slots = std::max(slots, n[l]);
  }
  for (int l = 0; restart != 0; ++l, restart >>= 1)
    if (restart & 1u)
      for (int s = 0; s < n[l]; ++s) copy_lane(next[s], prev[s], l);
  return slots;
}

void Batch::keep_colliders(int b, int worker) {
  // This frame's colliders start the next one; a held lane keeps where its
  // colliders were.
  const auto [prev, next] = collider_sides(b, worker);
  std::uint32_t held = 0;
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    if (c >= count_ || rejected_now_[u]) {
      held |= 1u << l;
      continue;
    }
    collider_count_[u] = collider_count_now_[u];
  }
  if (held == 0) {
    std::copy(next, next + collider_capacity_, prev);
    return;
  }
  for (int l = 0; l < kBatchLanes; ++l)
    if (!(held & (1u << l)))
      for (int s = 0; s < collider_capacity_; ++s) copy_lane(next[s], prev[s], l);
}

}  // namespace solver
