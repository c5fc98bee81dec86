// Batch: setup, per-frame bookkeeping (teleports, rejected hips, the shared
// clock), output and the worker threads; the physics is the kernel in
// batch_kernel.inc.
#include "solver/batch.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cfenv>
#include <cmath>
#include <system_error>
#include <thread>

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

// libgcc's and compiler-rt's checks include the OS saving the zmm state.
bool cpu_has_avx512() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
#else
  return false;
#endif
}

// The kernel for a request: the one asked for, or the best below it the CPU has.
BatchIsa usable_isa(BatchIsa want) {
  if ((want == BatchIsa::kAuto || want == BatchIsa::kAvx512) && cpu_has_avx512()) return BatchIsa::kAvx512;
  if (want != BatchIsa::kBaseline && cpu_has_avx2()) return BatchIsa::kAvx2;
  return BatchIsa::kBaseline;
}

}  // namespace

BatchIsa best_batch_isa() { return usable_isa(BatchIsa::kAuto); }

const char* batch_isa_name(BatchIsa isa) {
  switch (isa) {
    case BatchIsa::kAuto: return "auto";
    case BatchIsa::kBaseline: return "baseline";
    case BatchIsa::kAvx2: return "avx2";
    case BatchIsa::kAvx512: return "avx512";
  }
  return "?";
}

Batch::Batch(const ChainDesc& desc, const ChainParams& params, int count, BatchIsa isa)
    : desc_(desc), params_(params), count_(count) {
  assert(count >= 1 && desc.size() >= 1);
  isa_ = usable_isa(isa);
  const int n = desc.size();
  blocks_ = (count + kBatchLanes - 1) / kBatchLanes;
  block_size_ = static_cast<size_t>(n) * kBatchLaneSets;
  state_.assign(static_cast<size_t>(blocks_) * block_size_, BatchLane{});
  saved_blocks_.assign(block_size_, BatchLane{});
  hips_prev_.assign(static_cast<size_t>(blocks_), BatchHipsLanes{});
  hips_shown_.assign(static_cast<size_t>(blocks_), BatchHipsLanes{});
  const size_t lanes = static_cast<size_t>(blocks_) * kBatchLanes;
  initialized_.assign(lanes, 0);
  rejected_now_.assign(lanes, 0);
  teleports_.assign(lanes, 0);
  rejected_.assign(lanes, 0);
  sway_time_.assign(lanes, 0.0);
  sway_speed_.assign(lanes, 0.0);
  link_constants_.assign(static_cast<size_t>(n), BatchLinkConstants{});
  scalar_.resize(1);
  init_state(desc_, scalar_[0]);
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
  c.collider_margin = static_cast<float>(p.collider_margin);
  c.collider_friction = static_cast<float>(p.collider_friction);
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

void Batch::reset(int chain, const Affine3d& hips_world) { reset_with(chain, hips_world, scalar_[0]); }

void Batch::reset_with(int chain, const Affine3d& hips_world, ChainState& scalar) {
  assert(chain >= 0 && chain < count_);
  if (!hips_world.matrix().allFinite()) {
    ++rejected_[static_cast<size_t>(chain)];
    return;
  }
  // The scalar reference reset (settle included), then rounded to float.
  solver::reset(desc_, params_, scalar, hips_world);
  for (int i = 0; i < links(); ++i) {
    const size_t u = static_cast<size_t>(i);
    for (int k = 0; k < 3; ++k) {
      lane(chain, i, kSetPos + k) = static_cast<float>(scalar.pos[u][k]);
      lane(chain, i, kSetVel + k) = static_cast<float>(scalar.vel[u][k]);
    }
    const Eigen::Vector4d b = scalar.bend[u].coeffs(), l = scalar.local_cur[u].coeffs();
    for (int k = 0; k < 4; ++k) {
      lane(chain, i, kSetBend + k) = static_cast<float>(b[k]);
      lane(chain, i, kSetLocalPrev + k) = static_cast<float>(l[k]);
      lane(chain, i, kSetLocalCur + k) = static_cast<float>(l[k]);
    }
    lane(chain, i, kSetContact) = scalar.contact[u] ? 1.0f : 0.0f;
  }
  const HipsPose hp = decompose(hips_world);
  set_lane_hips(hips_prev_, chain, hp);
  set_lane_hips(hips_shown_, chain, hp);
  initialized_[static_cast<size_t>(chain)] = 1;
  teleports_[static_cast<size_t>(chain)] = 0;
  sway_time_[static_cast<size_t>(chain)] = 0.0;  // as reset() does to a ChainState
  sway_speed_[static_cast<size_t>(chain)] = 0.0;
  if (collider_capacity_ > 0) collider_count_[static_cast<size_t>(chain)] = -1;  // as the scalar reset
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

// One step(): what every block needs, the same for every thread.
struct Batch::Frame {
  BatchFrame clock;
  bool advance = false;
  float out_s = 0.0f;  // output interpolation, local_prev -> local_cur
  std::span<const Affine3d> hips;     // the hips, or
  std::span<const FrameInput> inputs;  // the hips and colliders
  std::span<Quaternionf> out;
  const Affine3d& hips_of(int chain) const {
    const size_t u = static_cast<size_t>(chain);
    return inputs.empty() ? hips[u] : inputs[u].hips_world;
  }
};

// The worker threads of set_threads(). A step bumps `generation` (release:
// the frame is published) and wakes them; each runs its range of blocks
// and counts `pending` down; the caller runs range 0 and waits for zero.
// Waiting is std::atomic::wait (a futex): no spinning on a shared machine,
// no allocation.
struct Batch::Workers {
  std::vector<std::thread> threads;
  std::atomic<unsigned> generation{0};
  std::atomic<int> pending{0};
  bool stop = false;         // read after a generation change
  Batch* batch = nullptr;    // the current job
  const Frame* frame = nullptr;
  std::fenv_t env{};         // the caller's rounding and denormal modes
  int count = 1;             // threads, the caller's included

  void run(int worker) const {
    const int blocks = batch->blocks_;
    batch->step_blocks(*frame, worker, blocks * worker / count, blocks * (worker + 1) / count);
  }
  void loop(int worker) {
    unsigned seen = 0;
    for (;;) {
      generation.wait(seen, std::memory_order_acquire);
      seen = generation.load(std::memory_order_acquire);
      if (stop) return;
      std::fesetenv(&env);
      run(worker);
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) pending.notify_one();
    }
  }
  // Runs the frame on every thread; returns when all are done.
  void dispatch(Batch* b, const Frame& f) {
    batch = b, frame = &f;
    std::fegetenv(&env);
    pending.store(count - 1, std::memory_order_relaxed);
    generation.fetch_add(1, std::memory_order_release);
    generation.notify_all();
    run(0);
    for (int p = pending.load(std::memory_order_acquire); p != 0; p = pending.load(std::memory_order_acquire))
      pending.wait(p, std::memory_order_acquire);
  }
  ~Workers() {
    stop = true;
    generation.fetch_add(1, std::memory_order_release);
    generation.notify_all();
    for (std::thread& t : threads) t.join();
  }
};

Batch::~Batch() = default;
Batch::Batch(Batch&&) noexcept = default;
Batch& Batch::operator=(Batch&&) noexcept = default;

int Batch::threads() const { return workers_ ? workers_->count : 1; }

void Batch::set_threads(int threads) {
  assert(threads >= 1);
  workers_.reset();  // joins the old ones
  threads = std::max(threads, 1);
  scalar_.resize(static_cast<size_t>(threads));
  for (ChainState& st : scalar_) init_state(desc_, st);
  saved_blocks_.assign(static_cast<size_t>(threads) * block_size_, BatchLane{});
  size_collider_scratch();
  if (threads == 1) return;
  workers_ = std::make_unique<Workers>();
  Workers& w = *workers_;
  w.threads.reserve(static_cast<size_t>(threads - 1));
  for (int k = 1; k < threads; ++k) {
    try {
      w.threads.emplace_back([&w, k] { w.loop(k); });
    } catch (const std::system_error&) {
      break;  // run with the threads the system gave
    }
  }
  w.count = static_cast<int>(w.threads.size()) + 1;
  if (w.count == 1) workers_.reset();
}

void Batch::step(double dt, std::span<const Affine3d> hips_world, std::span<Quaternionf> out) {
  assert(hips_world.size() == static_cast<size_t>(count_));
  Frame f;
  f.advance = dt > 0.0 && std::isfinite(dt);
  f.hips = hips_world;
  f.out = out;
  run_frame(dt, f);
}

void Batch::step(double dt, std::span<const FrameInput> frames, std::span<Quaternionf> out) {
  assert(frames.size() == static_cast<size_t>(count_));
  Frame f;
  f.advance = dt > 0.0 && std::isfinite(dt);
  f.inputs = frames;
  f.out = out;
  run_frame(dt, f);
}

void Batch::run_frame(double dt, Frame& f) {
  assert(f.out.empty() || f.out.size() >= static_cast<size_t>(count_) * static_cast<size_t>(links()));

  // The shared clock (step.cpp's sub-stepping).
  int substeps = 0;
  const double h = params_.internal_step;
  const double start_acc = accumulator_;
  if (f.advance) {
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
  f.clock = BatchFrame{substeps, start_acc, dt, h};
  f.out_s = static_cast<float>(std::clamp(accumulator_ / h, 0.0, 1.0));

  if (workers_) {
    workers_->dispatch(this, f);
  } else {
    step_blocks(f, 0, 0, blocks_);
  }
}

void Batch::admit_chains(const Frame& f, int worker, int b) {
  // Reject non-finite hips (v * 0 is 0 only for finite v), reset on first use.
  const int end = std::min(count_, (b + 1) * kBatchLanes);
  for (int c = b * kBatchLanes; c < end; ++c) {
    const size_t u = static_cast<size_t>(c);
    const Eigen::Matrix4d& m = f.hips_of(c).matrix();
    double poison = 0.0;
    for (int e = 0; e < 16; ++e) poison += m.data()[e] * 0.0;
    rejected_now_[u] = poison != 0.0 || std::isnan(poison);
    if (rejected_now_[u]) {
      ++rejected_[u];
    } else if (!initialized_[u]) {
      reset_with(c, f.hips_of(c), scalar_[static_cast<size_t>(worker)]);
    }
  }
}

// Inputs on their way into the cache while block b steps: read once a
// frame from the caller's memory, they otherwise stall the gather (perf,
// 10 k tails x 4 capsules: the gather 16 % of the kernel's time without,
// 11 % with). Lane l's: two blocks ahead its hips (a FrameInput's third
// line holds its capsules' span), one block ahead its capsules, whose span
// is by then in the cache. Called once a lane, not for the block at once:
// 112 prefetches in a burst stalled on the cache's miss slots (perf: 5 %
// of the frame on the prefetch instructions).
void Batch::prefetch_inputs(const Frame& f, int b, int last, int l) const {
  const int later = (b + 2) * kBatchLanes + l, next = (b + 1) * kBatchLanes + l;
  if (b + 2 < last && later < count_) {
    const char* hips = reinterpret_cast<const char*>(&f.hips_of(later));
    __builtin_prefetch(hips);
    __builtin_prefetch(hips + 64);
    if (!f.inputs.empty()) __builtin_prefetch(hips + 128);  // a FrameInput: 144 bytes
  }
  if (b + 1 >= last || next >= count_ || f.inputs.empty()) return;
  const std::span<const Capsule> caps = f.inputs[static_cast<size_t>(next)].capsules;
  const size_t n = std::min(caps.size(), static_cast<size_t>(collider_capacity_));
  const char* first = reinterpret_cast<const char*>(caps.data());
  for (size_t at = 0; at < n * sizeof(Capsule); at += 64) __builtin_prefetch(first + at);
}

// The next block's state (kBatchLaneSets lanes a link, ~10 KB for 8 links),
// a 16th of it a lane: touched once a frame, it is out of the cache by the
// time its block steps, and the kernel's first loads of each link waited
// for it (perf: the hottest instruction of the kernel). Alternating driver
// runs, 10 k x 8: ~7 % faster with colliders and without.
void Batch::prefetch_state(int b, int last, int l) const {
  if (b + 1 >= last) return;
  const char* lanes = reinterpret_cast<const char*>(block(b + 1));
  const size_t bytes = block_size_ * sizeof(BatchLane);
  for (size_t at = bytes * static_cast<size_t>(l) / kBatchLanes; at < bytes * static_cast<size_t>(l + 1) / kBatchLanes;
       at += 64)
    __builtin_prefetch(lanes + at, 1);
}

void Batch::step_blocks(const Frame& f, int worker, int first, int last) {
#if defined(__x86_64__) || defined(__i386__)
  const bool avx512 = isa_ == BatchIsa::kAvx512, avx2 = isa_ == BatchIsa::kAvx2;
  auto kernel = avx512 ? batch_kernel_avx512 : avx2 ? batch_kernel_avx2 : batch_kernel_baseline;
  auto hips_kernel = avx512 ? batch_hips_avx512 : avx2 ? batch_hips_avx2 : batch_hips_baseline;
  auto output = avx512 ? batch_output_avx512 : avx2 ? batch_output_avx2 : batch_output_baseline;
#else
  // Elsewhere (WebAssembly) only the baseline kernel is built: 4 lanes of
  // the target's SIMD (usable_isa() never picks another off x86).
  auto kernel = batch_kernel_baseline;
  auto hips_kernel = batch_hips_baseline;
  auto output = batch_output_baseline;
#endif
  BatchLane* saved = &saved_blocks_[static_cast<size_t>(worker) * block_size_];
  static const Eigen::Matrix4d kIdentity = Eigen::Matrix4d::Identity();
  BatchMatrixLanes matrices;
  BatchHipsLanes next;
  BatchLane teleport;
  for (int b = first; b < last; ++b) {
    admit_chains(f, worker, b);
    // Hips of the block's lanes; padding and rejected lanes hold still.
    bool any_held = false;
    for (int l = 0; l < kBatchLanes; ++l) {
      const int c = b * kBatchLanes + l;
      prefetch_inputs(f, b, last, l);  // spread over the block: a burst of them stalls
      prefetch_state(b, last, l);
      const bool held = c >= count_ || rejected_now_[static_cast<size_t>(c)];
      any_held = any_held || held;
      const Eigen::Matrix4d& m = held ? kIdentity : f.hips_of(c).matrix();
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
      } else if (f.advance && teleport.v[l] != 0.0f) {
        // Carry the tail rigidly; the frame then starts at the new hips.
        teleport_lane(c, lane_hips(hips_prev_, c), next);
        for (int e = 0; e < 4; ++e) prev.rot[e].v[l] = next.rot[e].v[l];
        for (int e = 0; e < 3; ++e) prev.trans[e].v[l] = next.trans[e].v[l], prev.offset[e].v[l] = next.offset[e].v[l];
      }
    }
    hips_shown_[static_cast<size_t>(b)] = next;
    const int slots = collider_capacity_ > 0 ? load_colliders(f.inputs, f.advance, b, worker, teleport) : 0;
    BatchColliders colliders;
    if (collider_capacity_ > 0) {
      const ColliderSides sides = collider_sides(b, worker);
      colliders = {sides.prev, sides.next, slots};
    }
    BatchLane* blk = block(b);
    BatchSwayLanes sway;
    const bool swaying = sway_lanes(f.clock, b, sway);
    if (f.advance) advance_sway(f.clock, b, prev, next);
    if (f.clock.substeps == 0) {
      // As the scalar step(): a frame shorter than the internal step still
      // moves the hips the next frame starts from; dt <= 0 does not.
      if (f.advance) prev = next;
    } else {
      if (any_held) std::copy(blk, blk + block_size_, saved);
      kernel(constants_, link_constants_.data(), f.clock, prev, next, colliders,
             swaying ? &sway : nullptr, blk);
      if (any_held) {
        // A rejected chain keeps its state, as in the scalar step().
        for (int l = 0; l < kBatchLanes; ++l) {
          const int c = b * kBatchLanes + l;
          if (c < count_ && !rejected_now_[static_cast<size_t>(c)]) continue;
          for (size_t e = 0; e < block_size_; ++e) blk[e].v[l] = saved[e].v[l];
        }
      }
      prev = next;
    }
    if (collider_capacity_ > 0 && f.advance) keep_colliders(b, worker);
    if (!f.out.empty()) {
      const int chain = b * kBatchLanes;
      output(blk, links(), f.out_s, std::min(kBatchLanes, count_ - chain),
             f.out[static_cast<size_t>(chain * links())].coeffs().data());
    }
  }
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
