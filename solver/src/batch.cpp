// Batch: setup, per-frame bookkeeping (teleports, rejected hips, the shared
// clock) and output; the physics is the kernel in batch_kernel.inc.
#include "solver/batch.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "math.h"
#include "solver/step.h"

namespace solver {
namespace {

using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Quaternionf;
using Eigen::Vector3d;
using Eigen::Vector3f;

void put3(float* dst, const Vector3d& v) {
  for (int k = 0; k < 3; ++k) dst[k] = static_cast<float>(v[k]);
}
void put4(float* dst, const Quaterniond& q) {
  const Eigen::Vector4d c = q.normalized().coeffs();  // x, y, z, w
  for (int k = 0; k < 4; ++k) dst[k] = static_cast<float>(c[k]);
}

bool cpu_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace

BatchIsa best_batch_isa() { return cpu_has_avx2() ? BatchIsa::kAvx2 : BatchIsa::kBaseline; }

const char* batch_isa_name(BatchIsa isa) {
  switch (isa) {
    case BatchIsa::kAuto: return "auto";
    case BatchIsa::kBaseline: return "baseline";
    case BatchIsa::kAvx2: return "avx2";
  }
  return "?";
}

Batch::Batch(const ChainDesc& desc, const ChainParams& params, int count, BatchIsa isa)
    : desc_(desc), params_(params), count_(count) {
  assert(count >= 1 && desc.size() >= 1);
  isa_ = (isa != BatchIsa::kBaseline && cpu_has_avx2()) ? BatchIsa::kAvx2 : BatchIsa::kBaseline;
  const int n = desc.size();
  blocks_ = (count + kBatchLanes - 1) / kBatchLanes;
  block_size_ = static_cast<size_t>(n) * kBatchLaneSets;
  state_.assign(static_cast<size_t>(blocks_) * block_size_, BatchLane{});
  saved_block_.assign(block_size_, BatchLane{});
  hips_prev_.assign(static_cast<size_t>(blocks_), BatchHipsLanes{});
  hips_shown_.assign(static_cast<size_t>(blocks_), BatchHipsLanes{});
  const size_t lanes = static_cast<size_t>(blocks_) * kBatchLanes;
  initialized_.assign(lanes, 0);
  rejected_now_.assign(lanes, 0);
  teleports_.assign(lanes, 0);
  rejected_.assign(lanes, 0);
  link_constants_.assign(static_cast<size_t>(n), BatchLinkConstants{});
  init_state(desc_, scalar_);
  set_params(params);
  // Every lane (padding included) starts finite: rest targets under
  // identity hips. Real chains are reset by their first step().
  const HipsPose identity = decompose(Affine3d::Identity());
  for (int c = 0; c < blocks_ * kBatchLanes; ++c) {
    set_lane_hips(hips_prev_, c, identity);
    set_lane_hips(hips_shown_, c, identity);
    set_rest_state(c, identity);
  }
}

void Batch::set_params(const ChainParams& p) {
  params_ = p;
  const int n = desc_.size();
  const double h = p.internal_step;
  BatchConstants& c = constants_;
  c.links = n;
  c.h = static_cast<float>(h);
  c.gravity_y = static_cast<float>(-p.gravity);
  c.coupling_alpha = (n > 1 && p.bend_coupling_rate > 0.0) ? static_cast<float>(1.0 - std::exp(-p.bend_coupling_rate * h)) : 0.0f;
  const double theta_max = p.bend_limit_deg * M_PI / 180.0;
  c.bend_limit = theta_max > 0.0;
  c.cos_half_limit = static_cast<float>(detail::cos_half_angle_threshold(theta_max));
  c.sin_half_limit = static_cast<float>(std::sin(0.5 * theta_max));
  c.forward_plane = p.forward_plane;
  c.floor = p.floor_enabled;
  c.floor_y = static_cast<float>(p.floor_height + p.floor_clearance);
  c.contact_decay = static_cast<float>(std::exp(-p.contact_damping * h));
  c.meters_per_unit = static_cast<float>(desc_.meters_per_unit);
  put4(c.hips_frame_local, desc_.hips_frame_local);
  put4(c.hips_to_root_parent, desc_.hips_to_root_parent_rot);
  put3(c.root_head_in_hips, desc_.root_head_in_hips);
  c.teleport_distance = static_cast<float>(p.teleport_distance);
  c.cos_half_teleport = static_cast<float>(detail::cos_half_angle_threshold(p.teleport_angle_deg * M_PI / 180.0));
  for (int i = 0; i < n; ++i) {
    const ChainLink& link = desc_.links[static_cast<size_t>(i)];
    BatchLinkConstants& L = link_constants_[static_cast<size_t>(i)];
    const Vector3d rest_hips = (link.parent_to_hips * link.rest_dir).normalized();
    const Vector3d bind_parent = (link.neutral_rotation * link.bind_dir_local).normalized();
    put3(L.rest_dir, link.rest_dir);
    put3(L.rest_hips, rest_hips);
    put3(L.rest_hips_ortho, rest_hips.unitOrthogonal());
    put4(L.parent_to_hips, link.parent_to_hips);
    put3(L.bind_parent, bind_parent);
    put3(L.bind_parent_ortho, bind_parent.unitOrthogonal());
    put4(L.neutral, link.neutral_rotation);
    L.length = static_cast<float>(link.length);
    // Frequency ramp root -> tip (SPEC §11), as the scalar solver.
    const double s = n > 1 ? static_cast<double>(i) / (n - 1) : 0.0;
    const double omega = 2.0 * M_PI * (p.root_frequency_hz + (p.tip_frequency_hz - p.root_frequency_hz) * s);
    L.omega_sq = static_cast<float>(omega * omega);
    L.damping = static_cast<float>(2.0 * p.damping_ratio * omega);
  }
}

Batch::HipsPose Batch::decompose(const Affine3d& hips) const {
  HipsPose hp;  // as step.cpp's decompose()
  hp.rot = detail::rotation_of(hips.linear());
  hp.trans = hips.translation();
  hp.offset = hp.rot.conjugate() * (hips.linear() * desc_.root_head_in_hips);
  return hp;
}

Batch::HipsPose Batch::lane_hips(const std::vector<BatchHipsLanes>& lanes, int chain) const {
  const BatchHipsLanes& h = lanes[static_cast<size_t>(chain / kBatchLanes)];
  const int l = chain % kBatchLanes;
  HipsPose hp;
  hp.rot = Quaterniond(h.rot[3].v[l], h.rot[0].v[l], h.rot[1].v[l], h.rot[2].v[l]);
  for (int e = 0; e < 3; ++e) {
    hp.trans[e] = h.trans[e].v[l];
    hp.offset[e] = h.offset[e].v[l];
  }
  return hp;
}

void Batch::set_lane_hips(std::vector<BatchHipsLanes>& lanes, int chain, const HipsPose& hp) {
  BatchHipsLanes& h = lanes[static_cast<size_t>(chain / kBatchLanes)];
  const int l = chain % kBatchLanes;
  const Eigen::Vector4d q = hp.rot.coeffs();
  for (int e = 0; e < 4; ++e) h.rot[e].v[l] = static_cast<float>(q[e]);
  for (int e = 0; e < 3; ++e) {
    h.trans[e].v[l] = static_cast<float>(hp.trans[e]);
    h.offset[e].v[l] = static_cast<float>(hp.offset[e]);
  }
}

void Batch::set_rest_state(int chain, const HipsPose& hp) {
  Quaterniond parent = hp.rot * desc_.hips_to_root_parent_rot;
  Vector3d head = (hp.trans + hp.rot * hp.offset) * desc_.meters_per_unit;
  for (int i = 0; i < links(); ++i) {
    const ChainLink& link = desc_.links[static_cast<size_t>(i)];
    const Vector3d p = head + link.length * (parent * link.rest_dir);
    for (int k = 0; k < 3; ++k) {
      lane(chain, i, kSetPos + k) = static_cast<float>(p[k]);
      lane(chain, i, kSetVel + k) = 0.0f;
    }
    const Eigen::Vector4d r = link.rest_local_rotation.coeffs();
    for (int k = 0; k < 4; ++k) {
      lane(chain, i, kSetBend + k) = k == 3 ? 1.0f : 0.0f;
      lane(chain, i, kSetLocalPrev + k) = static_cast<float>(r[k]);
      lane(chain, i, kSetLocalCur + k) = static_cast<float>(r[k]);
    }
    lane(chain, i, kSetContact) = 0.0f;
    parent = (parent * link.rest_local_rotation).normalized();
    head = p;
  }
}

void Batch::reset(int chain, const Affine3d& hips_world) {
  assert(chain >= 0 && chain < count_);
  if (!hips_world.matrix().allFinite()) {
    ++rejected_[static_cast<size_t>(chain)];
    return;
  }
  // The scalar reference reset (settle included), then rounded to float.
  solver::reset(desc_, params_, scalar_, hips_world);
  for (int i = 0; i < links(); ++i) {
    const size_t u = static_cast<size_t>(i);
    for (int k = 0; k < 3; ++k) {
      lane(chain, i, kSetPos + k) = static_cast<float>(scalar_.pos[u][k]);
      lane(chain, i, kSetVel + k) = static_cast<float>(scalar_.vel[u][k]);
    }
    const Eigen::Vector4d b = scalar_.bend[u].coeffs(), l = scalar_.local_cur[u].coeffs();
    for (int k = 0; k < 4; ++k) {
      lane(chain, i, kSetBend + k) = static_cast<float>(b[k]);
      lane(chain, i, kSetLocalPrev + k) = static_cast<float>(l[k]);
      lane(chain, i, kSetLocalCur + k) = static_cast<float>(l[k]);
    }
    lane(chain, i, kSetContact) = scalar_.contact[u] ? 1.0f : 0.0f;
  }
  const HipsPose hp = decompose(hips_world);
  set_lane_hips(hips_prev_, chain, hp);
  set_lane_hips(hips_shown_, chain, hp);
  initialized_[static_cast<size_t>(chain)] = 1;
  teleports_[static_cast<size_t>(chain)] = 0;
}

void Batch::teleport_lane(int chain, const HipsPose& from, const BatchHipsLanes& to_lanes) {
  const int l = chain % kBatchLanes;
  HipsPose to;
  to.rot = Quaterniond(to_lanes.rot[3].v[l], to_lanes.rot[0].v[l], to_lanes.rot[1].v[l], to_lanes.rot[2].v[l]);
  for (int e = 0; e < 3; ++e) to.trans[e] = to_lanes.trans[e].v[l], to.offset[e] = to_lanes.offset[e].v[l];
  // Carry the tail rigidly: its hips-relative state is kept (step.cpp).
  const double mpu = desc_.meters_per_unit;
  const Vector3d root_from = (from.trans + from.rot * from.offset) * mpu;
  const Vector3d root_to = (to.trans + to.rot * to.offset) * mpu;
  const Quaterniond delta = (to.rot * from.rot.conjugate()).normalized();
  for (int i = 0; i < links(); ++i) {
    const Vector3d p = position(chain, i).cast<double>(), v = velocity(chain, i).cast<double>();
    const Vector3d p2 = root_to + delta * (p - root_from), v2 = delta * v;
    for (int k = 0; k < 3; ++k) {
      lane(chain, i, kSetPos + k) = static_cast<float>(p2[k]);
      lane(chain, i, kSetVel + k) = static_cast<float>(v2[k]);
    }
  }
  ++teleports_[static_cast<size_t>(chain)];
}

void Batch::step(double dt, std::span<const Affine3d> hips_world, std::span<Quaternionf> out) {
  assert(hips_world.size() == static_cast<size_t>(count_));
  assert(out.empty() || out.size() >= static_cast<size_t>(count_) * static_cast<size_t>(links()));
  const bool advance = dt > 0.0 && std::isfinite(dt);

  // Per chain: reject non-finite hips (v * 0 is 0 only for finite v), reset
  // on first use.
  for (int c = 0; c < count_; ++c) {
    const size_t u = static_cast<size_t>(c);
    const Eigen::Matrix4d& m = hips_world[u].matrix();
    double poison = 0.0;
    for (int e = 0; e < 16; ++e) poison += m.data()[e] * 0.0;
    rejected_now_[u] = poison != 0.0 || std::isnan(poison);
    if (rejected_now_[u]) {
      ++rejected_[u];
    } else if (!initialized_[u]) {
      reset(c, hips_world[u]);
    }
  }

  // The shared clock (step.cpp's sub-stepping).
  int substeps = 0;
  const double h = params_.internal_step;
  const double start_acc = accumulator_;
  if (advance) {
    double acc = start_acc + dt;
    const double eps = h * 1e-9;
    while (acc >= h - eps) {
      if (substeps >= params_.max_substeps) {
        acc = std::fmod(acc, h);
        break;
      }
      ++substeps;
      acc -= h;
    }
    accumulator_ = std::max(acc, 0.0);
  }
  last_substeps_ = substeps;

  const bool avx2 = isa_ == BatchIsa::kAvx2;
  auto kernel = avx2 ? batch_kernel_avx2 : batch_kernel_baseline;
  auto hips_kernel = avx2 ? batch_hips_avx2 : batch_hips_baseline;
  const BatchFrame frame{substeps, start_acc, dt, h};
  static const Eigen::Matrix4d kIdentity = Eigen::Matrix4d::Identity();
  BatchMatrixLanes matrices;
  BatchHipsLanes next;
  BatchLane teleport;
  for (int b = 0; b < blocks_; ++b) {
    // Hips of the block's lanes; padding and rejected lanes hold still.
    bool any_held = false;
    for (int l = 0; l < kBatchLanes; ++l) {
      const int c = b * kBatchLanes + l;
      const bool held = c >= count_ || rejected_now_[static_cast<size_t>(c)];
      any_held = any_held || held;
      const Eigen::Matrix4d& m = held ? kIdentity : hips_world[static_cast<size_t>(c)].matrix();
      for (int e = 0; e < 9; ++e) matrices.linear[e].v[l] = static_cast<float>(m(e % 3, e / 3));
      for (int e = 0; e < 3; ++e) matrices.trans[e].v[l] = static_cast<float>(m(e, 3));
    }
    BatchHipsLanes& prev = hips_prev_[static_cast<size_t>(b)];
    hips_kernel(constants_, matrices, prev, next, teleport);
    for (int l = 0; l < kBatchLanes; ++l) {
      const int c = b * kBatchLanes + l;
      if (c >= count_ || rejected_now_[static_cast<size_t>(c)]) {
        for (int e = 0; e < 4; ++e) next.rot[e].v[l] = prev.rot[e].v[l];
        for (int e = 0; e < 3; ++e) next.trans[e].v[l] = prev.trans[e].v[l], next.offset[e].v[l] = prev.offset[e].v[l];
      } else if (advance && teleport.v[l] != 0.0f) {
        // Carry the tail rigidly; the frame then starts at the new hips.
        teleport_lane(c, lane_hips(hips_prev_, c), next);
        for (int e = 0; e < 4; ++e) prev.rot[e].v[l] = next.rot[e].v[l];
        for (int e = 0; e < 3; ++e) prev.trans[e].v[l] = next.trans[e].v[l], prev.offset[e].v[l] = next.offset[e].v[l];
      }
    }
    hips_shown_[static_cast<size_t>(b)] = next;
    if (substeps == 0) {
      // As the scalar step(): a frame shorter than the internal step still
      // moves the hips the next frame starts from; dt <= 0 does not.
      if (advance) prev = next;
      continue;
    }
    BatchLane* blk = block(b);
    if (any_held) std::copy(blk, blk + block_size_, saved_block_.begin());
    kernel(constants_, link_constants_.data(), frame, prev, next, blk);
    if (any_held) {
      // A rejected chain keeps its state, as in the scalar step().
      for (int l = 0; l < kBatchLanes; ++l) {
        const int c = b * kBatchLanes + l;
        if (c < count_ && !rejected_now_[static_cast<size_t>(c)]) continue;
        for (size_t e = 0; e < block_size_; ++e) blk[e].v[l] = saved_block_[e].v[l];
      }
    }
    prev = next;
  }
  write_outputs(out);
}

Quaternionf Batch::lane_quat(int chain, int link, int set) const {
  return Quaternionf(lane(chain, link, set + 3), lane(chain, link, set), lane(chain, link, set + 1),
                     lane(chain, link, set + 2));
}

Quaternionf Batch::output_rotation(int chain, int link) const {
  // Normalised lerp between the last two internal states (shorter arc).
  const float s = static_cast<float>(std::clamp(accumulator_ / params_.internal_step, 0.0, 1.0));
  const Quaternionf a = lane_quat(chain, link, kSetLocalPrev);
  Quaternionf b = lane_quat(chain, link, kSetLocalCur);
  if (a.dot(b) < 0.0f) b.coeffs() = -b.coeffs();
  Quaternionf q;
  q.coeffs() = (1.0f - s) * a.coeffs() + s * b.coeffs();
  return q.normalized();
}

void Batch::write_outputs(std::span<Quaternionf> out) const {
  static_assert(sizeof(Quaternionf) == 4 * sizeof(float), "Quaternionf is x, y, z, w floats");
  if (out.empty()) return;
  const float s = static_cast<float>(std::clamp(accumulator_ / params_.internal_step, 0.0, 1.0));
  auto output = isa_ == BatchIsa::kAvx2 ? batch_output_avx2 : batch_output_baseline;
  for (int b = 0; b < blocks_; ++b) {
    const int first = b * kBatchLanes;
    const int valid = std::min(kBatchLanes, count_ - first);
    output(block(b), links(), s, valid, out[static_cast<size_t>(first * links())].coeffs().data());
  }
}

Vector3f Batch::position(int chain, int link) const {
  return Vector3f(lane(chain, link, kSetPos), lane(chain, link, kSetPos + 1), lane(chain, link, kSetPos + 2));
}

Vector3f Batch::velocity(int chain, int link) const {
  return Vector3f(lane(chain, link, kSetVel), lane(chain, link, kSetVel + 1), lane(chain, link, kSetVel + 2));
}

bool Batch::contact(int chain, int link) const { return lane(chain, link, kSetContact) != 0.0f; }

void Batch::points(int chain, std::span<Vector3f> out) const {
  assert(out.size() >= static_cast<size_t>(links()) + 1);
  const HipsPose hp = lane_hips(hips_shown_, chain);
  Quaterniond parent = hp.rot * desc_.hips_to_root_parent_rot;
  Vector3d head = (hp.trans + hp.rot * hp.offset) * desc_.meters_per_unit;
  out[0] = head.cast<float>();
  for (int i = 0; i < links(); ++i) {
    const ChainLink& link = desc_.links[static_cast<size_t>(i)];
    parent = (parent * output_rotation(chain, i).cast<double>()).normalized();
    head += link.length * (parent * link.bind_dir_local);
    out[static_cast<size_t>(i) + 1] = head.cast<float>();
  }
}

}  // namespace solver
