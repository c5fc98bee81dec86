// The runtime spring chain (SPEC §4 and the readings of §11).
//
// Per internal step, links are processed root to tip (heads are final
// positions of the previous link):
//   1. rest target T_i = h_i + l_i R_parent(t) r_i (§11)
//   2. damped spring p'' = w^2 (T - p) - 2 zeta w p' + g, semi-implicit Euler
//   3. rope: project onto the length sphere, remove radial velocity (never
//      correction / dt)
//   4. bend coupling in the hips frame from the previous step's snapshot,
//      alpha = 1 - exp(-k dt), then the elastic bend limit (velocity into the
//      stop removed)
//   5. forward plane through the tail root, then ground contact on the
//      sphere-plane circle (contact wins over the bend stop), u clamped
//   6. velocity projections, contact damping exp(-gamma dt)
//   7. local rotation = swing(bind direction, particle direction) * neutral
// Frame-rate independence: fixed internal step, hips interpolated across the
// caller's frame, output slerped between the last two internal states.
//
// Cost (this is the double-precision reference; solver::Batch is the fast
// one): plain scalar arithmetic (small_math.h), slerp weights from a series
// (no acos/sin for angles under 25 deg), one square root per swing and none
// on the way from one link to the next, constants of params cached in the
// state. Every rewrite is exact up to rounding.
#include "solver/step.h"

#include <cassert>
#include <cmath>

#include "collide.h"
#include "idle_sway.h"
#include "link_bend.h"
#include "math.h"
#include "settle_state.h"
#include "solver/testing/seeded_bugs.h"

namespace solver {
namespace {

using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;
using testing::SeededBugs;

// What the public reset() and step() run with.
constexpr SeededBugs kNoBugs{};

// Hips pose decomposed for interpolation: rotation, translation (rig units)
// and root head offset from the hips origin in the hips' rotation frame (rig
// units, includes the hips' scale).
struct HipsPose {
  Quaterniond rot;
  Vector3d trans;
  Vector3d offset;
};

HipsPose decompose(const ChainDesc& desc, const Affine3d& hips) {
  HipsPose h;
  h.rot = detail::rotation_of(hips.linear());
  h.trans = hips.translation();
  h.offset = h.rot.conjugate() * (hips.linear() * desc.root_head_in_hips);
  return h;
}

HipsPose interpolate(const HipsPose& a, const HipsPose& b, double s) {
  if (s == 1.0) return b;  // the last sub-step of a frame: exactly the new hips
  HipsPose h;
  h.rot = detail::eig(detail::normalized(detail::slerp(detail::q4(a.rot), s, detail::q4(b.rot))));
  h.trans = a.trans + s * (b.trans - a.trans);
  h.offset = a.offset + s * (b.offset - a.offset);
  return h;
}

using detail::M3;
using detail::Q4;
using detail::V3;

// Unit vector of v with a fallback when v (almost) vanishes.
V3 normalized_or(const V3& v, const V3& fallback) {
  const double n = std::sqrt(detail::norm2(v));
  return n > 1e-12 ? (1.0 / n) * v : fallback;
}
V3 normalized(const V3& v) { return (1.0 / std::sqrt(detail::norm2(v))) * v; }
double norm(const V3& v) { return std::sqrt(detail::norm2(v)); }

// Direction on the circle where the unit sphere meets the plane d.n = m:
// keeps the tangential part of `d` (fallback `alt`), |m| clamped to 1.
V3 onto_circle(const V3& d, const V3& n, double m, const V3& alt) {
  m = std::clamp(m, -1.0, 1.0);
  V3 t = d - dot(d, n) * n;
  if (norm(t) < 1e-9) t = alt - dot(alt, n) * n;
  if (norm(t) < 1e-9) t = detail::v3(detail::eig(n).unitOrthogonal());
  t = normalized(t);
  return std::sqrt(std::max(0.0, 1.0 - m * m)) * t + m * n;
}

double link_frequency(const ChainParams& p, int i, int n) {
  if (n <= 1) return p.root_frequency_hz;
  const double s = static_cast<double>(i) / static_cast<double>(n - 1);
  return p.root_frequency_hz + (p.tip_frequency_hz - p.root_frequency_hz) * s;
}

// The internal step's constants for `params`, recomputed only when a value
// they depend on changed since the last call (exp, cos and sin per call
// otherwise).
const StepConstants& step_constants(const ChainDesc& desc, const ChainParams& params, ChainState& st) {
  StepConstants& k = st.constants;
  const double h = params.internal_step;
  if (k.valid && k.links == desc.size() && k.internal_step == h && k.bend_coupling_rate == params.bend_coupling_rate &&
      k.bend_limit_deg == params.bend_limit_deg && k.contact_damping == params.contact_damping &&
      k.teleport_angle_deg == params.teleport_angle_deg) {
    return k;
  }
  k.valid = true;
  k.links = desc.size();
  k.internal_step = h;
  k.bend_coupling_rate = params.bend_coupling_rate;
  k.bend_limit_deg = params.bend_limit_deg;
  k.contact_damping = params.contact_damping;
  k.teleport_angle_deg = params.teleport_angle_deg;
  k.alpha = (desc.size() > 1 && params.bend_coupling_rate > 0.0) ? 1.0 - std::exp(-params.bend_coupling_rate * h)
                                                                 : 0.0;
  k.theta_max = params.bend_limit_deg * M_PI / 180.0;
  k.cos_half_limit = detail::cos_half_angle_threshold(k.theta_max);
  k.sin_half_limit = std::sin(0.5 * k.theta_max);
  k.contact_decay = std::exp(-params.contact_damping * h);
  k.cos_half_teleport = detail::cos_half_angle_threshold(params.teleport_angle_deg * M_PI / 180.0);
  return k;
}

// Ground contact (step 5b): the direction on the circle where the length
// sphere around `head` meets the floor plane y = floor_y.
V3 floor_direction(const ChainParams& params, const V3& head, double len, const V3& d, const V3& rest_world,
                   const V3& root, const V3& forward, double floor_y) {
  const double u = std::clamp((floor_y - head.y) / len, -1.0, 1.0);
  V3 horiz{d.x, 0.0, d.z};
  if (norm(horiz) < 1e-9) horiz = V3{rest_world.x, 0.0, rest_world.z};
  if (norm(horiz) < 1e-9) horiz = V3{-forward.x, 0.0, -forward.z};
  const V3 up{0.0, 1.0, 0.0};
  if (params.forward_plane) {
    // The back plane restricts which part of the circle is allowed.
    V3 fh{forward.x, 0.0, forward.z};
    const double depth = dot(head - root, forward);
    const double fn = norm(fh);
    if (fn > 1e-9) {
      fh = (1.0 / fn) * fh;
      const V3 cand = head + len * (std::sqrt(1.0 - u * u) * normalized_or(horiz, -fh) + u * up);
      if (dot(cand - root, forward) > 1e-12 && depth <= 0.0) {
        const double fwd_part = dot(horiz, fh);
        if (fwd_part > 0.0) horiz = horiz - fwd_part * fh;
      }
    }
  }
  const V3 t = normalized_or(horiz, normalized(V3{-forward.x, 0.0, -forward.z}));
  return normalized(std::sqrt(std::max(0.0, 1.0 - u * u)) * t + u * up);
}

// One fixed internal step of length h with the hips at `hp`.
//
// The bend (step 4) is worked in the parent's current frame: with R the
// parent's world rotation and A_i its rest frame -> hips frame,
// q_i = A_i swing(r_i, R^-1 d) A_i^-1, and conjugation by A_i commutes with
// slerp and with the limit (both act on the dot product and on |w|), so the
// hips-frame snapshot is conjugated into the parent frame (a rotation of
// its vector part) instead of every direction into the hips frame. Same
// rotations to rounding; R is used as a matrix (four products per link).
void internal_step(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs,
                   const StepConstants& kc, ChainState& st, double h, double frame_dt, const HipsPose& hp,
                   std::span<const detail::CapsuleM> capsules, const detail::SwayTurn& sway = {}) {
  const int n = desc.size();
  const double mpu = desc.meters_per_unit;
  const Q4 hips_rot = detail::q4(hp.rot);
  const V3 root = mpu * (detail::v3(hp.trans) + rotate(hips_rot, detail::v3(hp.offset)));
  const V3 forward = rotate(hips_rot * detail::q4(desc.hips_frame_local), V3{0.0, 0.0, 1.0});
  const V3 gravity{0.0, -params.gravity, 0.0};
  const double floor_y = params.floor_height + params.floor_clearance;
  const double contact_decay = kc.contact_decay;
  const bool bug_feedback = bugs.rope_velocity_feedback;
  const double two_zeta = 2.0 * params.damping_ratio;
  const detail::SlerpPoly coupling = detail::slerp_poly(kc.alpha);

  // parent_rot: the parent's world rotation (unit); parent: the same as a
  // matrix, built at the end of the previous link without waiting for that
  // link's normalisation (see step 7).
  Q4 parent_rot = hips_rot * detail::q4(desc.hips_to_root_parent_rot);
  M3 parent = detail::matrix_of(parent_rot);
  V3 head = root;
  for (int i = 0; i < n; ++i) {
    const size_t ui = static_cast<size_t>(i);
    const ChainLink& link = desc.links[ui];
    V3 p = detail::v3(st.pos[ui]);
    V3 v = detail::v3(st.vel[ui]);
    const double len = link.length;
    V3 rest_dir = detail::v3(link.rest_dir);
    V3 rest_world = parent * rest_dir;
    if (sway.on) {
      // Idle sway turns the rest direction itself (idle_sway.h): the spring,
      // the bend coupling and the limit all take the swayed one as rest.
      rest_world = detail::swayed(sway, rest_world);
      rest_dir = tmul(parent, rest_world);
    }

    // 1-2. Spring towards the rest target T = head + len rest_world,
    // semi-implicit Euler: v += h (w^2 (T - p) - 2 zeta w v + g), p + h v.
    // The terms of the state alone are summed before head and T are known.
    double omega = 2.0 * M_PI * link_frequency(params, i, n);
    if (bugs.fixed_fraction_follow) omega = std::sqrt(0.12) / frame_dt;  // bug 1 (tests only)
    const V3 v_free = v - (h * two_zeta * omega) * v + h * gravity;
    const V3 to_head = head - p;
    v = v_free + (h * omega * omega) * (to_head + len * rest_world);
    const V3 offset = h * v - to_head;  // predicted - head, predicted = p + h v

    // 3. Rope constraint. c = rest_world . d comes with d (for the swing).
    const double offset_norm = norm(offset);
    V3 d = rest_world;
    double c = dot(rest_world, rest_world);
    if (offset_norm > 1e-12) {
      const double inv = 1.0 / offset_norm;
      d = inv * offset;
      c = dot(rest_world, offset) * inv;
    }
    if (!bug_feedback) v = v - dot(v, d) * d;

    // 4. Bend coupling and elastic limit.
    const M3 to_hips = detail::m3(link.parent_to_hips_matrix);
    d = detail::couple_and_limit_bend(st, kc, coupling, parent, to_hips, rest_dir, c, i, n, bug_feedback, d, v);

    // 5a. Forward plane through the tail root (normal = hips forward).
    if (params.forward_plane) {
      const double depth = dot(head - root, forward);  // <= 0 on the back side
      if (len * dot(d, forward) > -depth) {
        d = onto_circle(d, forward, -depth / len, rest_world);
        if (!bug_feedback) {
          const double into = dot(v, forward);
          if (into > 0.0) v = v - into * forward;
        }
      }
    }

    // 5b. Ground contact on the sphere-plane circle; never stretches a bone,
    // never moves the head (u clamped), wins over the bend stop.
    const bool contact = params.floor_enabled && head.y + len * d.y < floor_y;
    if (contact) d = floor_direction(params, head, len, d, rest_world, root, forward, floor_y);

    // 5c. Colliders (issue 46): the link as a segment, its swing since the
    // start of the step tested in pieces; turned out about its head.
    detail::LinkContact touch;
    if (!capsules.empty()) {
      const V3 d_start = normalized_or(p - head, d);
      d = detail::collide_link(head, len, d_start, d, capsules, params.collider_margin, touch);
    }

    const V3 p_new = head + len * d;

    // 6. Velocity projections.
    if (bug_feedback) {
      v = v + (1.0 / h) * (p_new - (p + h * v));  // bug 2 (tests only): correction / dt fed back
    } else {
      v = v - dot(v, d) * d;
    }
    if (contact) v = contact_decay * V3{v.x, std::max(0.0, v.y), v.z};
    if (touch.hit) {
      // No velocity into the collider; sliding along it slowed by friction.
      const double into = dot(v, touch.normal);
      if (into < 0.0) v = v - into * touch.normal;
      const V3 slide = v - dot(v, touch.normal) * touch.normal;
      v = v - params.collider_friction * slide;
    }
    p = p_new;
    st.contact[ui] = contact ? 1 : 0;
    st.pos[ui] = detail::eig(p);
    st.vel[ui] = detail::eig(v);

    // 7. Rotation and the bend snapshot for the next step.
    detail::store_link_rotation(link, to_hips, rest_world, rest_dir, d, ui, parent, parent_rot, st);
    head = p;
  }
  st.bend.swap(st.bend_scratch);  // vector swap: no allocation
  st.time += h;
}

// Writes interpolated output rotations and FK points for the hips pose `hp`.
void write_output(const ChainDesc& desc, const ChainParams& params, ChainState& st,
                  const HipsPose& hp, std::span<Eigen::Quaterniond> out) {
  const int n = desc.size();
  const double s = std::clamp(st.accumulator / params.internal_step, 0.0, 1.0);
  const detail::SlerpPoly poly = s == 0.0 ? detail::SlerpPoly{} : detail::slerp_poly(s);
  const Q4 hips_rot = detail::q4(hp.rot);
  Q4 parent_rot = hips_rot * detail::q4(desc.hips_to_root_parent_rot);
  V3 head = desc.meters_per_unit * (detail::v3(hp.trans) + rotate(hips_rot, detail::v3(hp.offset)));
  st.points[0] = detail::eig(head);
  for (int i = 0; i < n; ++i) {
    const size_t ui = static_cast<size_t>(i);
    const ChainLink& link = desc.links[ui];
    // s = 0 (the frame ended on an internal step): slerp gives local_prev
    // exactly (unit to rounding), so neither it nor a normalisation is
    // computed.
    const Q4 q = s == 0.0 ? detail::q4(st.local_prev[ui])
                          : detail::slerp(detail::q4(st.local_prev[ui]), poly, detail::q4(st.local_cur[ui]));
    const Eigen::Quaterniond qe = s == 0.0 ? st.local_prev[ui] : detail::eig(detail::normalized(q));
    st.out_local[ui] = qe;
    if (ui < out.size()) out[ui] = qe;
    parent_rot = parent_rot * q;  // unit to rounding (q is)
    head = head + link.length * rotate(parent_rot, detail::v3(link.bind_dir_local));
    st.points[ui + 1] = detail::eig(head);
  }
}

void copy_cur_to_prev(ChainState& st) {
  for (size_t i = 0; i < st.local_cur.size(); ++i) st.local_prev[i] = st.local_cur[i];
}

// decompose(desc, st.hips_prev), from the state's cache while its keys match
// (the same bits: decompose is deterministic).
HipsPose decompose_prev(const ChainDesc& desc, const ChainState& st) {
  if (st.hips_prev_cached && st.hips_prev_key == st.hips_prev.matrix() &&
      st.hips_prev_root_key == desc.root_head_in_hips) {
    return {st.hips_prev_rot, st.hips_prev_trans, st.hips_prev_offset};
  }
  return decompose(desc, st.hips_prev);
}

// Sets st.hips_prev = hips_world and caches its decomposition `hp`.
void set_hips_prev(const ChainDesc& desc, ChainState& st, const Affine3d& hips_world, const HipsPose& hp) {
  st.hips_prev = hips_world;
  st.hips_prev_cached = true;
  st.hips_prev_key = hips_world.matrix();
  st.hips_prev_root_key = desc.root_head_in_hips;
  st.hips_prev_rot = hp.rot;
  st.hips_prev_trans = hp.trans;
  st.hips_prev_offset = hp.offset;
}

}  // namespace

void init_state(const ChainDesc& desc, ChainState& st) {
  const size_t n = desc.links.size();
  st = ChainState{};
  st.pos.assign(n, Vector3d::Zero());
  st.vel.assign(n, Vector3d::Zero());
  st.bend.assign(n, Quaterniond::Identity());
  st.bend_scratch.assign(n, Quaterniond::Identity());
  st.local_prev.assign(n, Quaterniond::Identity());
  st.local_cur.assign(n, Quaterniond::Identity());
  st.world_rot.assign(n, Quaterniond::Identity());
  st.contact.assign(n, 0);
  st.out_local.assign(n, Quaterniond::Identity());
  st.points.assign(n + 1, Vector3d::Zero());
}

Vector3d root_head_world(const ChainDesc& desc, const Affine3d& hips_world) {
  return (hips_world * desc.root_head_in_hips) * desc.meters_per_unit;
}

Quaterniond hips_frame_world(const ChainDesc& desc, const Affine3d& hips_world) {
  return detail::rotation_of(hips_world.linear()) * desc.hips_frame_local;
}

namespace {

// reset() and step() with the seeded bugs of `bugs` (none for the public ones).
void reset_seeded(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs, ChainState& st,
                  const Affine3d& hips_world) {
  const int n = desc.size();
  assert(n >= 1 && st.size() == n);
  assert(params.internal_step > 0.0);
  if (!hips_world.matrix().allFinite()) {  // see step(): ignored, state kept
    ++st.rejected_hips;
    return;
  }
  const HipsPose hp = decompose(desc, hips_world);
  Quaterniond parent_rot = hp.rot * desc.hips_to_root_parent_rot;
  Vector3d head = (hp.trans + hp.rot * hp.offset) * desc.meters_per_unit;
  for (int i = 0; i < n; ++i) {
    const ChainLink& link = desc.links[static_cast<size_t>(i)];
    const Vector3d p = head + link.length * (parent_rot * link.rest_dir);
    st.pos[static_cast<size_t>(i)] = p;
    st.vel[static_cast<size_t>(i)].setZero();
    st.bend[static_cast<size_t>(i)].setIdentity();
    st.bend_scratch[static_cast<size_t>(i)].setIdentity();
    st.local_cur[static_cast<size_t>(i)] = link.rest_local_rotation;
    st.contact[static_cast<size_t>(i)] = 0;
    parent_rot = (parent_rot * link.rest_local_rotation).normalized();
    st.world_rot[static_cast<size_t>(i)] = parent_rot;
    head = p;
  }
  const int settle = static_cast<int>(std::lround(params.reset_settle_time / params.internal_step));
  const StepConstants& kc = step_constants(desc, params, st);
  SettleState before;
  for (int k = 0; k < settle; ++k) {
    before.take(st);
    internal_step(desc, params, bugs, kc, st, params.internal_step, params.internal_step, hp, {});
    double speed = 0.0;
    for (int i = 0; i < n; ++i) speed = std::max(speed, st.vel[static_cast<size_t>(i)].norm());
    if (speed < 1e-9) break;  // settled: deterministic early out
    // A step that changed no bit of what the next one reads: every later
    // step would repeat it, so stopping here leaves the state they would.
    // Rounding brings most chains to such a fixed point long before the
    // speed bound or the settle time: a quarter of the harness' settle
    // steps (issue 47).
    if (before.unchanged_by_step(st)) break;
  }
  copy_cur_to_prev(st);
  set_hips_prev(desc, st, hips_world, hp);
  st.accumulator = 0.0;
  st.time = 0.0;
  st.teleports = 0;
  st.last_substeps = 0;
  st.sway_time = 0.0;
  st.sway_speed = 0.0;
  st.capsules_prev_count = -1;  // put somewhere new: the colliders start where the next step gives them
  st.initialized = true;
  write_output(desc, params, st, hp, {});
}

// The colliders at fraction s of the frame, metres, into `out`: interpolated
// from the previous frame's when it had as many, else where they are now.
std::span<const detail::CapsuleM> capsules_at(const ChainDesc& desc, const ChainState& st,
                                              std::span<const Capsule> next, double s,
                                              std::array<detail::CapsuleM, kMaxColliders>& out) {
  const double mpu = desc.meters_per_unit;
  const bool from_prev = st.capsules_prev_count == static_cast<int>(next.size());
  for (size_t c = 0; c < next.size(); ++c) {
    const Capsule& b = next[c];
    const Capsule& a = from_prev ? st.capsules_prev[c] : b;
    out[c].a = detail::v3(mpu * (a.a + s * (b.a - a.a)));
    out[c].b = detail::v3(mpu * (a.b + s * (b.b - a.b)));
    out[c].radius_a = mpu * (a.radius_a + s * (b.radius_a - a.radius_a));
    out[c].radius_b = mpu * (a.radius_b + s * (b.radius_b - a.radius_b));
  }
  return {out.data(), next.size()};
}

void step_seeded(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs, ChainState& st,
                 double dt, const Affine3d& hips_world, std::span<Eigen::Quaterniond> out,
                 std::span<const Capsule> given = {}) {
  // Colliders: the first kMaxColliders usable ones (nothing non-finite
  // reaches the state).
  std::array<Capsule, kMaxColliders> kept;
  size_t kept_count = 0;
  for (const Capsule& c : given) {
    if (kept_count == kept.size()) break;
    if (collider_usable(c)) kept[kept_count++] = c;
  }
  const std::span<const Capsule> capsules(kept.data(), kept_count);
  assert(st.size() == desc.size());
  assert(out.empty() || out.size() >= static_cast<size_t>(desc.size()));
  assert(params.internal_step > 0.0);
  // A non-finite hips transform (a bad key, a NaN upstream) is ignored in
  // every build type: the state is kept, the previous output re-written and
  // the frame counted in st.rejected_hips. One bad frame must not poison
  // every later one.
  if (!hips_world.matrix().allFinite()) {
    ++st.rejected_hips;
    st.last_substeps = 0;
    if (st.initialized) {
      write_output(desc, params, st, decompose_prev(desc, st), out);
    } else {
      for (size_t i = 0; i < out.size() && i < desc.links.size(); ++i) out[i] = desc.links[i].rest_local_rotation;
    }
    return;
  }
  if (!st.initialized) {
    reset_seeded(desc, params, bugs, st, hips_world);
  }
  const HipsPose next = decompose(desc, hips_world);
  st.last_substeps = 0;
  if (!(dt > 0.0) || !std::isfinite(dt)) {
    write_output(desc, params, st, next, out);
    return;
  }
  HipsPose prev = decompose_prev(desc, st);
  const StepConstants& kc = step_constants(desc, params, st);

  // Teleport: carry the tail rigidly (its hips-relative state is kept).
  const double jump = (next.trans - prev.trans).norm() * desc.meters_per_unit;
  // Turn angle 2 acos|w| > limit  <=>  |w| < cos(limit / 2).
  const double turn_w = std::abs((next.rot * prev.rot.conjugate()).w());
  if (jump > params.teleport_distance || turn_w < kc.cos_half_teleport) {
    const double mpu = desc.meters_per_unit;
    const Vector3d root_prev = (prev.trans + prev.rot * prev.offset) * mpu;
    const Vector3d root_next = (next.trans + next.rot * next.offset) * mpu;
    const Quaterniond delta = (next.rot * prev.rot.conjugate()).normalized();
    for (int i = 0; i < st.size(); ++i) {
      st.pos[static_cast<size_t>(i)] = root_next + delta * (st.pos[static_cast<size_t>(i)] - root_prev);
      st.vel[static_cast<size_t>(i)] = delta * st.vel[static_cast<size_t>(i)];
    }
    prev = next;
    ++st.teleports;
    st.capsules_prev_count = -1;  // the colliders jumped with the body: no sweep from where they were
  }

  // Fixed internal steps; the hips are interpolated across the frame.
  const double h = params.internal_step;
  const double start_acc = st.accumulator;
  double acc = start_acc + dt;
  int k = 0;
  const double eps = h * 1e-9;  // 1/60 = 2 * (1/120) must give two steps
  // Over the cap (a hitch) the time beyond it is dropped, but the hips are
  // spread over the steps that are taken so the last one reaches the new
  // pose: stopping part-way left the tail behind the hips, its first
  // particle up to 4x its link length from the root (dt = 1 s, issue 15).
  const bool capped = acc >= (params.max_substeps + 1) * h - eps;
  while (acc >= h - eps) {
    if (k >= params.max_substeps) {
      acc = std::fmod(acc, h);  // drop time beyond the cap (hitch)
      break;
    }
    ++k;
    const double s = capped ? static_cast<double>(k) / params.max_substeps
                            : std::clamp((k * h - start_acc) / dt, 0.0, 1.0);
    st.local_prev.swap(st.local_cur);  // internal_step rewrites every local_cur
    std::array<detail::CapsuleM, kMaxColliders> now;
    const HipsPose hp = interpolate(prev, next, s);
    detail::SwayTurn sway;
    if (params.idle_sway_deg > 0.0) {
      const Vector3d up = hp.rot * (desc.hips_frame_local * Vector3d::UnitY());
      sway = detail::sway_turn(params, st, st.sway_time + s * dt, desc.size(), detail::v3(up));
    }
    internal_step(desc, params, bugs, kc, st, h, dt, hp,
                  capsules.empty() ? std::span<const detail::CapsuleM>{} : capsules_at(desc, st, capsules, s, now),
                  sway);
    acc -= h;
  }
  if (params.idle_sway_deg > 0.0) {
    // How far the body carried the tail this frame: the root's travel plus
    // the hips' turn swept over the tail's length (a walk in place hardly
    // moves the root but rocks the hips; a breathing idle does neither).
    const double mpu = desc.meters_per_unit;
    const Vector3d moved = (next.trans + next.rot * next.offset - prev.trans - prev.rot * prev.offset) * mpu;
    const double turn = next.rot.angularDistance(prev.rot);
    detail::advance_sway_clock(params, st, dt, moved.norm() + turn * desc.total_length);
  }
  for (size_t c = 0; c < capsules.size(); ++c) st.capsules_prev[c] = capsules[c];
  st.capsules_prev_count = static_cast<int>(capsules.size());
  st.accumulator = std::max(acc, 0.0);
  st.last_substeps = k;
  set_hips_prev(desc, st, hips_world, next);
  write_output(desc, params, st, next, out);
}

}  // namespace

void reset(const ChainDesc& desc, const ChainParams& params, ChainState& st, const Affine3d& hips_world) {
  reset_seeded(desc, params, kNoBugs, st, hips_world);
}

void step(const ChainDesc& desc, const ChainParams& params, ChainState& st, double dt,
          const Affine3d& hips_world, std::span<Eigen::Quaterniond> out) {
  step_seeded(desc, params, kNoBugs, st, dt, hips_world, out);
}

void step(const ChainDesc& desc, const ChainParams& params, ChainState& st, double dt, const FrameInput& input,
          std::span<Eigen::Quaterniond> out) {
  step_seeded(desc, params, kNoBugs, st, dt, input.hips_world, out, input.capsules);
}

void step(const ChainDesc& desc, const ChainParams& params, ChainState& st, double dt,
          const Eigen::Matrix4d& hips_world, std::span<Eigen::Quaterniond> out) {
  step(desc, params, st, dt, Affine3d(hips_world), out);
}

namespace testing {

void reset(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs, ChainState& st,
           const Affine3d& hips_world) {
  reset_seeded(desc, params, bugs, st, hips_world);
}

void step(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs, ChainState& st, double dt,
          const Affine3d& hips_world, std::span<Eigen::Quaterniond> out) {
  step_seeded(desc, params, bugs, st, dt, hips_world, out);
}

}  // namespace testing

}  // namespace solver
