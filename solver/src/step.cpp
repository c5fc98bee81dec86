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
#include "solver/step.h"

#include <cassert>
#include <cmath>

#include "math.h"

namespace solver {
namespace {

using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

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
  HipsPose h;
  h.rot = detail::slerp(a.rot, s, b.rot).normalized();
  h.trans = a.trans + s * (b.trans - a.trans);
  h.offset = a.offset + s * (b.offset - a.offset);
  return h;
}

// Unit vector of v with a fallback when v (almost) vanishes.
Vector3d normalized_or(const Vector3d& v, const Vector3d& fallback) {
  const double n = v.norm();
  return n > 1e-12 ? Vector3d(v / n) : fallback;
}

// Direction on the circle where the unit sphere meets the plane d.n = m:
// keeps the tangential part of `d` (fallback `alt`), |m| clamped to 1.
Vector3d onto_circle(const Vector3d& d, const Vector3d& n, double m, const Vector3d& alt) {
  m = std::clamp(m, -1.0, 1.0);
  Vector3d t = d - d.dot(n) * n;
  if (t.norm() < 1e-9) t = alt - alt.dot(n) * n;
  if (t.norm() < 1e-9) t = n.unitOrthogonal();
  t.normalize();
  return std::sqrt(std::max(0.0, 1.0 - m * m)) * t + m * n;
}

double link_frequency(const ChainParams& p, int i, int n) {
  if (n <= 1) return p.root_frequency_hz;
  const double s = static_cast<double>(i) / static_cast<double>(n - 1);
  return p.root_frequency_hz + (p.tip_frequency_hz - p.root_frequency_hz) * s;
}

// Constants of the internal step, computed once per step()/reset() call
// rather than per internal step (exp, cos, sin).
struct StepConstants {
  double alpha = 0.0;           // bend coupling 1 - exp(-k h)
  double theta_max = 0.0;       // bend limit, radians (<= 0: off)
  double cos_half_limit = 1.0;  // cos(theta_max / 2)
  double sin_half_limit = 0.0;  // sin(theta_max / 2)
  double contact_decay = 1.0;   // exp(-gamma h)
};

StepConstants step_constants(const ChainDesc& desc, const ChainParams& params, double h) {
  StepConstants k;
  k.alpha = (desc.size() > 1 && params.bend_coupling_rate > 0.0) ? 1.0 - std::exp(-params.bend_coupling_rate * h)
                                                                 : 0.0;
  k.theta_max = params.bend_limit_deg * M_PI / 180.0;
  k.cos_half_limit = detail::cos_half_angle_threshold(k.theta_max);
  k.sin_half_limit = std::sin(0.5 * k.theta_max);
  k.contact_decay = std::exp(-params.contact_damping * h);
  return k;
}

// One fixed internal step of length h with the hips at `hp`.
void internal_step(const ChainDesc& desc, const ChainParams& params, const StepConstants& kc, ChainState& st,
                   double h, double frame_dt, const HipsPose& hp) {
  const int n = desc.size();
  const double mpu = desc.meters_per_unit;
  const Vector3d root = (hp.trans + hp.rot * hp.offset) * mpu;
  const Quaterniond frame_world = hp.rot * desc.hips_frame_local;
  const Vector3d forward = frame_world * Vector3d::UnitZ();
  const Vector3d gravity(0.0, -params.gravity, 0.0);
  const double alpha = kc.alpha;
  const double theta_max = kc.theta_max;
  const double floor_y = params.floor_height + params.floor_clearance;
  const double contact_decay = kc.contact_decay;
  const bool bug_feedback = params.test_bug_rope_velocity_feedback;

  Quaterniond parent_rot = hp.rot * desc.hips_to_root_parent_rot;
  Vector3d head = root;
  for (int i = 0; i < n; ++i) {
    const ChainLink& link = desc.links[static_cast<size_t>(i)];
    Vector3d& p = st.pos[static_cast<size_t>(i)];
    Vector3d& v = st.vel[static_cast<size_t>(i)];
    const double len = link.length;
    const Vector3d rest_world = parent_rot * link.rest_dir;

    // 1-2. Spring towards the rest target, semi-implicit Euler.
    const Vector3d target = head + len * rest_world;
    double omega = 2.0 * M_PI * link_frequency(params, i, n);
    if (params.test_bug_fixed_fraction_follow) omega = std::sqrt(0.12) / frame_dt;  // bug 1
    const Vector3d acc =
        omega * omega * (target - p) - 2.0 * params.damping_ratio * omega * v + gravity;
    v += h * acc;
    const Vector3d predicted = p + h * v;

    // 3. Rope constraint.
    Vector3d d = normalized_or(predicted - head, rest_world);
    if (!bug_feedback) v -= v.dot(d) * d;

    // 4. Bend coupling and elastic limit in the hips frame.
    // A swing(r, R^-1 d) A^-1 = swing(A r, A R^-1 d): vectors rotated into
    // the hips frame instead of conjugating quaternions.
    const Quaterniond to_hips = link.parent_to_hips * parent_rot.conjugate();
    const Vector3d rest_hips = link.parent_to_hips * link.rest_dir;
    Quaterniond q = detail::swing(rest_hips, to_hips * d);
    bool modified = false;
    if (alpha > 0.0) {
      Quaterniond target_bend;
      if (i == 0) {
        target_bend = detail::half_way(Quaterniond::Identity(), st.bend[1]);
      } else if (i == n - 1) {
        target_bend = st.bend[static_cast<size_t>(i - 1)];
      } else {
        target_bend = detail::half_way(st.bend[static_cast<size_t>(i - 1)], st.bend[static_cast<size_t>(i + 1)]);
      }
      q = detail::slerp(q, alpha, target_bend).normalized();
      modified = true;
    }
    bool limited = false;
    // theta = 2 acos|w| > theta_max  <=>  |w| < cos(theta_max / 2); the
    // limited bend, slerp(I, q, theta_max / theta), is the rotation about
    // q's axis by exactly theta_max.
    if (theta_max > 0.0 && std::abs(q.w()) < kc.cos_half_limit) {
      const double vn = q.vec().norm();
      const double k = (q.w() < 0.0 ? -kc.sin_half_limit : kc.sin_half_limit) / vn;
      q = Quaterniond(kc.cos_half_limit, k * q.x(), k * q.y(), k * q.z());
      limited = true;
      modified = true;
    }
    if (modified) {
      const Vector3d d_new = (to_hips.conjugate() * (q * rest_hips)).normalized();
      if (limited && !bug_feedback) {
        // Remove velocity that keeps pushing into the stop.
        Vector3d push = d - d_new;
        push -= push.dot(d_new) * d_new;
        const double pn = push.norm();
        if (pn > 1e-12) {
          push /= pn;
          const double into = v.dot(push);
          if (into > 0.0) v -= into * push;
        }
      }
      d = d_new;
    }

    // 5a. Forward plane through the tail root (normal = hips forward).
    if (params.forward_plane) {
      const double depth = (head - root).dot(forward);  // <= 0 on the back side
      if (len * d.dot(forward) > -depth) {
        d = onto_circle(d, forward, -depth / len, rest_world);
        if (!bug_feedback) {
          const double into = v.dot(forward);
          if (into > 0.0) v -= into * forward;
        }
      }
    }

    // 5b. Ground contact on the sphere-plane circle; never stretches a bone,
    // never moves the head (u clamped), wins over the bend stop.
    bool contact = false;
    if (params.floor_enabled && head.y() + len * d.y() < floor_y) {
      contact = true;
      const double u = std::clamp((floor_y - head.y()) / len, -1.0, 1.0);
      Vector3d horiz(d.x(), 0.0, d.z());
      if (horiz.norm() < 1e-9) horiz = Vector3d(rest_world.x(), 0.0, rest_world.z());
      if (horiz.norm() < 1e-9) horiz = Vector3d(-forward.x(), 0.0, -forward.z());
      if (params.forward_plane) {
        // The back plane restricts which part of the circle is allowed.
        Vector3d fh(forward.x(), 0.0, forward.z());
        const double depth = (head - root).dot(forward);
        const double fn = fh.norm();
        if (fn > 1e-9) {
          fh /= fn;
          const Vector3d cand = head + len * (std::sqrt(1.0 - u * u) * normalized_or(horiz, -fh) +
                                              u * Vector3d::UnitY());
          if ((cand - root).dot(forward) > 1e-12 && depth <= 0.0) {
            const double fwd_part = horiz.dot(fh);
            if (fwd_part > 0.0) horiz -= fwd_part * fh;
          }
        }
      }
      const Vector3d t = normalized_or(horiz, Vector3d(-forward.x(), 0.0, -forward.z()).normalized());
      d = std::sqrt(std::max(0.0, 1.0 - u * u)) * t + u * Vector3d::UnitY();
      d.normalize();
    }

    p = head + len * d;

    // 6. Velocity projections.
    if (bug_feedback) {
      v += (p - predicted) / h;  // bug 2 (tests only): correction / dt fed back
    } else {
      v -= v.dot(d) * d;
    }
    if (contact) {
      v = contact_decay * Vector3d(v.x(), std::max(0.0, v.y()), v.z());
    }
    st.contact[static_cast<size_t>(i)] = contact ? 1 : 0;

    // 7. Rotation: swing from the bind direction to the particle direction.
    const Vector3d dir_parent = parent_rot.conjugate() * d;
    const Quaterniond local =
        (detail::swing(link.neutral_rotation * link.bind_dir_local, dir_parent) *
         link.neutral_rotation)
            .normalized();
    st.local_cur[static_cast<size_t>(i)] = local;
    st.bend_scratch[static_cast<size_t>(i)] = detail::swing(rest_hips, to_hips * d);
    parent_rot = (parent_rot * local).normalized();
    st.world_rot[static_cast<size_t>(i)] = parent_rot;
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
  Quaterniond parent_rot = hp.rot * desc.hips_to_root_parent_rot;
  Vector3d head = (hp.trans + hp.rot * hp.offset) * desc.meters_per_unit;
  st.points[0] = head;
  for (int i = 0; i < n; ++i) {
    const ChainLink& link = desc.links[static_cast<size_t>(i)];
    const Quaterniond q =
        detail::slerp(st.local_prev[static_cast<size_t>(i)], s, st.local_cur[static_cast<size_t>(i)]).normalized();
    st.out_local[static_cast<size_t>(i)] = q;
    if (static_cast<size_t>(i) < out.size()) out[static_cast<size_t>(i)] = q;
    parent_rot = (parent_rot * q).normalized();
    head += link.length * (parent_rot * link.bind_dir_local);
    st.points[static_cast<size_t>(i) + 1] = head;
  }
}

void copy_cur_to_prev(ChainState& st) {
  for (size_t i = 0; i < st.local_cur.size(); ++i) st.local_prev[i] = st.local_cur[i];
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

void reset(const ChainDesc& desc, const ChainParams& params, ChainState& st,
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
  const StepConstants kc = step_constants(desc, params, params.internal_step);
  for (int k = 0; k < settle; ++k) {
    internal_step(desc, params, kc, st, params.internal_step, params.internal_step, hp);
    double speed = 0.0;
    for (int i = 0; i < n; ++i) speed = std::max(speed, st.vel[static_cast<size_t>(i)].norm());
    if (speed < 1e-9) break;  // settled: deterministic early out
  }
  copy_cur_to_prev(st);
  st.hips_prev = hips_world;
  st.accumulator = 0.0;
  st.time = 0.0;
  st.teleports = 0;
  st.last_substeps = 0;
  st.initialized = true;
  write_output(desc, params, st, hp, {});
}

void step(const ChainDesc& desc, const ChainParams& params, ChainState& st, double dt,
          const Affine3d& hips_world, std::span<Eigen::Quaterniond> out) {
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
      write_output(desc, params, st, decompose(desc, st.hips_prev), out);
    } else {
      for (size_t i = 0; i < out.size() && i < desc.links.size(); ++i) out[i] = desc.links[i].rest_local_rotation;
    }
    return;
  }
  if (!st.initialized) {
    reset(desc, params, st, hips_world);
  }
  const HipsPose next = decompose(desc, hips_world);
  st.last_substeps = 0;
  if (!(dt > 0.0) || !std::isfinite(dt)) {
    write_output(desc, params, st, next, out);
    return;
  }
  HipsPose prev = decompose(desc, st.hips_prev);

  // Teleport: carry the tail rigidly (its hips-relative state is kept).
  const double jump = (next.trans - prev.trans).norm() * desc.meters_per_unit;
  // Turn angle 2 acos|w| > limit  <=>  |w| < cos(limit / 2).
  const double turn_w = std::abs((next.rot * prev.rot.conjugate()).w());
  if (jump > params.teleport_distance ||
      turn_w < detail::cos_half_angle_threshold(params.teleport_angle_deg * M_PI / 180.0)) {
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
  }

  // Fixed internal steps; the hips are interpolated across the frame.
  const double h = params.internal_step;
  const double start_acc = st.accumulator;
  double acc = start_acc + dt;
  int k = 0;
  const double eps = h * 1e-9;  // 1/60 = 2 * (1/120) must give two steps
  const StepConstants kc = step_constants(desc, params, h);
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
    copy_cur_to_prev(st);
    internal_step(desc, params, kc, st, h, dt, interpolate(prev, next, s));
    acc -= h;
  }
  st.accumulator = std::max(acc, 0.0);
  st.last_substeps = k;
  st.hips_prev = hips_world;
  write_output(desc, params, st, next, out);
}

void step(const ChainDesc& desc, const ChainParams& params, ChainState& st, double dt,
          const Eigen::Matrix4d& hips_world, std::span<Eigen::Quaterniond> out) {
  step(desc, params, st, dt, Affine3d(hips_world), out);
}

}  // namespace solver
