// Steps 4 and 7 of the spring chain's internal step for one link (step.cpp,
// SPEC §4): bend coupling and the elastic bend limit, then the link's
// rotations and bend snapshot. Always inlined: they run once per link per
// internal step in the scalar kernel (harness bench's scalar case).
#pragma once

#include <cmath>
#include <cstddef>

#include "math.h"
#include "small_math.h"
#include "solver/chain.h"
#include "solver/state.h"

namespace solver::detail {

// 4. Bend coupling and elastic limit, in the parent frame (why: the comment
// on internal_step in step.cpp): the link's new direction d (rope-projected,
// c = rest_world . d) turned towards the mean of its neighbours' bends and
// held within theta_max of rest; velocity pushing into the stop is removed
// from v.
[[gnu::always_inline]] inline V3 couple_and_limit_bend(const ChainState& st, const StepConstants& kc,
                                                      const SlerpPoly& coupling, const M3& parent, const M3& to_hips,
                                                      const V3& rest_dir, double c, int i, int n, bool bug_feedback,
                                                      V3 d, V3& v) {
  const size_t ui = static_cast<size_t>(i);
  Q4 q;
  {
    double q_norm2;
    q = swing_raw(c, rest_dir, tmul(parent, d), q_norm2);
    q = scaled(1.0 / std::sqrt(q_norm2), q);
  }
  bool modified = false;
  if (kc.alpha > 0.0) {
    Q4 target_bend;
    if (i == 0) {
      target_bend = half_way(Q4{1.0, 0.0, 0.0, 0.0}, q4(st.bend[1]));
    } else if (i == n - 1) {
      target_bend = q4(st.bend[ui - 1]);
    } else {
      target_bend = half_way(q4(st.bend[ui - 1]), q4(st.bend[ui + 1]));
    }
    const V3 axis_parent = tmul(to_hips, vec(target_bend));
    const Q4 target_parent{target_bend.w, axis_parent.x, axis_parent.y, axis_parent.z};
    q = slerp(q, coupling, target_parent);  // unit to rounding
    modified = true;
  }
  bool limited = false;
  // theta = 2 acos|w| > theta_max  <=>  |w| < cos(theta_max / 2); the
  // limited bend, slerp(I, q, theta_max / theta), is the rotation about
  // q's axis by exactly theta_max.
  if (kc.theta_max > 0.0 && std::abs(q.w) < kc.cos_half_limit) {
    const double vn = std::sqrt(norm2(vec(q)));
    const double k = (q.w < 0.0 ? -kc.sin_half_limit : kc.sin_half_limit) / vn;
    q = Q4{kc.cos_half_limit, k * q.x, k * q.y, k * q.z};
    limited = true;
    modified = true;
  }
  if (modified) {
    const V3 d_new = parent * rotate(q, rest_dir);  // unit to rounding
    if (limited && !bug_feedback) {
      // Remove velocity that keeps pushing into the stop.
      V3 push = d - d_new;
      push = push - dot(push, d_new) * d_new;
      const double pn = std::sqrt(norm2(push));
      if (pn > 1e-12) {
        push = (1.0 / pn) * push;
        const double into = dot(v, push);
        if (into > 0.0) v = v - into * push;
      }
    }
    d = d_new;
  }
  return d;
}

// 7. Rotation of link ui: swing from the bind direction to the particle direction,
// and the bend snapshot A_i swing(r_i, R^-1 d) A_i^-1 for the next step.
// The swing's norm scales both the local rotation and the next parent
// rotation (products of unit quaternions); the next link's matrix takes
// it as 2 / |q|^2 (one division instead of a square root and a
// division before the next link can start). The norm is
// |(1 + c, b x e)|^2 = 1 + 2c + |e|^2 for a unit b (not 2 + 2c): so the
// rounding of |e| = |R^-1 d| is not handed on and the chain's rotations
// stay unit to rounding at every link.
// `parent` and `parent_rot` move on to the link's own (the next link's parent).
[[gnu::always_inline]] inline void store_link_rotation(const ChainLink& link, const M3& to_hips,
                                                      const V3& rest_world, const V3& rest_dir, const V3& d, size_t ui,
                                                      M3& parent, Q4& parent_rot, ChainState& st) {
  const V3 dir_parent = tmul(parent, d);
  const V3 bind_dir = v3(link.bind_dir_parent);
  const double c_bind = dot(bind_dir, dir_parent);
  double local_norm2;
  const Q4 local_swing = swing_raw(c_bind, bind_dir, dir_parent, local_norm2);
  if (c_bind >= 0.0) local_norm2 = 1.0 + 2.0 * c_bind + norm2(dir_parent);
  const Q4 local_raw = local_swing * q4(link.neutral_rotation);
  const Q4 next_parent_raw = parent_rot * local_raw;
  parent = matrix_of(next_parent_raw, 2.0 / local_norm2);
  const double inv_local_norm = 1.0 / std::sqrt(local_norm2);
  st.local_cur[ui] = eig(scaled(inv_local_norm, local_raw));
  parent_rot = scaled(inv_local_norm, next_parent_raw);
  st.world_rot[ui] = eig(parent_rot);
  double bend_norm2;
  const Q4 bend_raw = swing_raw(dot(rest_world, d), rest_dir, dir_parent, bend_norm2);
  const Q4 bend_parent = scaled(1.0 / std::sqrt(bend_norm2), bend_raw);
  const V3 axis_hips = to_hips * vec(bend_parent);
  st.bend_scratch[ui] = Eigen::Quaterniond(bend_parent.w, axis_hips.x, axis_hips.y, axis_hips.z);
}

}  // namespace solver::detail
