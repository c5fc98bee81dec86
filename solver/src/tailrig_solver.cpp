// C API over solver::build_chain / reset / step (tailrig_solver.h). Every entry
// point validates its input (NULL, ranges, NaN/inf) before touching the C++
// solver and catches every exception, so neither crosses the C boundary.
#include "solver/tailrig_solver.h"

#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "c_api_common.h"
#include "solver/solver.h"

namespace tailrig_c_api {

// Why thread-local: the C convention (errno, SDL_GetError) without locks; a
// message belongs to the thread whose call failed.
thread_local std::string g_last_error;

tailrig_status fail(tailrig_status code, std::string message) {
  g_last_error = std::move(message);
  return code;
}

bool all_finite(const double* values, int count) {
  for (int i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

Eigen::Matrix4d matrix_from(const double* column_major) {
  return Eigen::Map<const Eigen::Matrix4d>(column_major);  // Eigen default is column-major
}

// Range checks of every field; `which` names the first bad one.
tailrig_status check_params(const tailrig_params& p) {
  const struct {
    const char* name;
    double value;
    double lo, hi;  // inclusive
  } fields[] = {
      {"root_frequency_hz", p.root_frequency_hz, 1e-6, 1e3},
      {"tip_frequency_hz", p.tip_frequency_hz, 1e-6, 1e3},
      {"damping_ratio", p.damping_ratio, 0.0, 1e3},
      {"gravity", p.gravity, 0.0, 1e3},
      {"carry_deg", p.carry_deg, -180.0, 180.0},
      {"rest_curve", p.rest_curve, 0.0, 1.0},
      {"forward_axis[0]", p.forward_axis[0], -1e9, 1e9},
      {"forward_axis[1]", p.forward_axis[1], -1e9, 1e9},
      {"forward_axis[2]", p.forward_axis[2], -1e9, 1e9},
      {"lateral_axis[0]", p.lateral_axis[0], -1e9, 1e9},
      {"lateral_axis[1]", p.lateral_axis[1], -1e9, 1e9},
      {"lateral_axis[2]", p.lateral_axis[2], -1e9, 1e9},
      {"meters_per_unit", p.meters_per_unit, 1e-9, 1e9},
      {"bend_coupling_rate", p.bend_coupling_rate, 0.0, 1e6},
      {"bend_limit_deg", p.bend_limit_deg, -360.0, 360.0},
      {"floor_height", p.floor_height, -1e9, 1e9},
      {"floor_clearance", p.floor_clearance, 0.0, 1e9},
      {"contact_damping", p.contact_damping, 0.0, 1e6},
      {"internal_step", p.internal_step, 1e-6, 0.1},
      {"reset_settle_time", p.reset_settle_time, 0.0, 600.0},
      {"teleport_distance", p.teleport_distance, 1e-9, 1e9},
      {"teleport_angle_deg", p.teleport_angle_deg, 1e-9, 360.0},
  };
  for (const auto& f : fields) {
    if (!std::isfinite(f.value)) {
      return fail(TAILRIG_ERROR_NON_FINITE, std::string("params.") + f.name + " is not finite");
    }
    if (f.value < f.lo || f.value > f.hi) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  std::string("params.") + f.name + " = " + std::to_string(f.value) +
                      " is outside " + std::to_string(f.lo) + ".." + std::to_string(f.hi));
    }
  }
  if (p.max_substeps < 1 || p.max_substeps > 100000) {
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "params.max_substeps must be 1..100000");
  }
  return TAILRIG_OK;
}

solver::ChainParams to_cpp(const tailrig_params& p) {
  solver::ChainParams c;
  c.root_frequency_hz = p.root_frequency_hz;
  c.tip_frequency_hz = p.tip_frequency_hz;
  c.damping_ratio = p.damping_ratio;
  c.gravity = p.gravity;
  c.carry_deg = p.carry_deg;
  c.rest_curve = p.rest_curve;
  for (int i = 0; i < 3; ++i) {
    c.forward_axis[i] = p.forward_axis[i];
    c.lateral_axis[i] = p.lateral_axis[i];
  }
  c.meters_per_unit = p.meters_per_unit;
  c.bend_coupling_rate = p.bend_coupling_rate;
  c.bend_limit_deg = p.bend_limit_deg;
  c.forward_plane = p.forward_plane != 0;
  c.floor_enabled = p.floor_enabled != 0;
  c.floor_height = p.floor_height;
  c.floor_clearance = p.floor_clearance;
  c.contact_damping = p.contact_damping;
  c.internal_step = p.internal_step;
  c.max_substeps = p.max_substeps;
  c.reset_settle_time = p.reset_settle_time;
  c.teleport_distance = p.teleport_distance;
  c.teleport_angle_deg = p.teleport_angle_deg;
  return c;
}

tailrig_status from_chain_status(const solver::ChainStatus& s) {
  switch (s.code) {
    case solver::ChainStatus::Code::kOk:
      return TAILRIG_OK;
    case solver::ChainStatus::Code::kNoTail:
      return fail(TAILRIG_ERROR_NO_TAIL, s.message);
    case solver::ChainStatus::Code::kBrokenChain:
      return fail(TAILRIG_ERROR_BROKEN_CHAIN, s.message);
    case solver::ChainStatus::Code::kBadInput:
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, s.message);
  }
  return fail(TAILRIG_ERROR_INTERNAL, "unknown chain status");
}

tailrig_status check_hips(const double* hips_world) {
  if (!hips_world) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "hips_world is NULL");
  if (!all_finite(hips_world, 16)) {
    return fail(TAILRIG_ERROR_NON_FINITE, "hips_world has a NaN or infinite element");
  }
  return TAILRIG_OK;
}

// The per-step fields of `p` over the [build] fields of `built` (the desc
// depends on those); the collider fields are not in tailrig_params (their
// own setter), nor the idle sway's (tailrig_sway_params).
solver::ChainParams merged_step_params(const solver::ChainParams& built, const tailrig_params& p) {
  solver::ChainParams next = to_cpp(p);
  next.collider_margin = built.collider_margin;
  next.collider_friction = built.collider_friction;
  next.idle_sway_deg = built.idle_sway_deg;
  next.idle_sway_period = built.idle_sway_period;
  next.idle_sway_still_speed = built.idle_sway_still_speed;
  next.idle_sway_fade = built.idle_sway_fade;
  next.carry_deg = built.carry_deg;
  next.rest_curve = built.rest_curve;
  for (int i = 0; i < 3; ++i) {
    next.forward_axis[i] = built.forward_axis[i];
    next.lateral_axis[i] = built.lateral_axis[i];
  }
  next.meters_per_unit = built.meters_per_unit;
  return next;
}

tailrig_status check_dt(double dt) {
  if (!std::isfinite(dt)) return fail(TAILRIG_ERROR_NON_FINITE, "dt is not finite");
  if (dt < 0.0 || dt > 3600.0)
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "dt must be 0..3600 seconds");
  return TAILRIG_OK;
}

static_assert(TAILRIG_MAX_CAPSULES == solver::kMaxColliders);
static_assert(sizeof(tailrig_capsule) == 8 * sizeof(double));

// Coordinates and radii beyond this (rig units) are refused: with
// meters_per_unit <= 1e9 their squares stay far from overflow in the step.
constexpr double kMaxCapsuleValue = 1e9;

// The frame's capsules: NULL/count, every value finite, radii >= 0, sizes
// bounded. The message names the first bad capsule and field.
tailrig_status check_capsules(const tailrig_frame_input& in) {
  if (in.capsule_count < 0 || in.capsule_count > TAILRIG_MAX_CAPSULES) {
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                "frame.capsule_count " + std::to_string(in.capsule_count) + " is outside 0.." +
                    std::to_string(TAILRIG_MAX_CAPSULES));
  }
  if (in.capsule_count > 0 && !in.capsules) {
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                "frame.capsules is NULL with capsule_count " + std::to_string(in.capsule_count));
  }
  for (int32_t c = 0; c < in.capsule_count; ++c) {
    const tailrig_capsule& k = in.capsules[c];
    const double values[8] = {k.a[0], k.a[1], k.a[2],     k.b[0],
                              k.b[1], k.b[2], k.radius_a, k.radius_b};
    static const char* const kFields[8] = {"a[0]", "a[1]", "a[2]",     "b[0]",
                                           "b[1]", "b[2]", "radius_a", "radius_b"};
    for (int f = 0; f < 8; ++f) {
      // The name is built only on failure: the accepted path allocates nothing.
      const auto name = [&] { return "frame.capsules[" + std::to_string(c) + "]." + kFields[f]; };
      if (!std::isfinite(values[f]))
        return fail(TAILRIG_ERROR_NON_FINITE, name() + " is not finite");
      const double lo = f >= 6 ? 0.0 : -kMaxCapsuleValue;
      if (values[f] < lo || values[f] > kMaxCapsuleValue) {
        return fail(TAILRIG_ERROR_INVALID_ARGUMENT, name() + " = " + std::to_string(values[f]) +
                                                        " is outside " + std::to_string(lo) + ".." +
                                                        std::to_string(kMaxCapsuleValue));
      }
    }
  }
  return TAILRIG_OK;
}

}  // namespace tailrig_c_api

using namespace tailrig_c_api;

namespace {

tailrig_status check_collider_params(const tailrig_collider_params& p) {
  if (p.version != TAILRIG_COLLIDER_PARAMS_VERSION) {
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                "collider params version " + std::to_string(p.version) +
                    " is unknown (this library knows " +
                    std::to_string(TAILRIG_COLLIDER_PARAMS_VERSION) + ")");
  }
  if (p.reserved != 0)
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "collider params reserved must be 0");
  if (!std::isfinite(p.margin))
    return fail(TAILRIG_ERROR_NON_FINITE, "collider params margin is not finite");
  if (!std::isfinite(p.friction))
    return fail(TAILRIG_ERROR_NON_FINITE, "collider params friction is not finite");
  if (p.margin < 0.0 || p.margin > 1e9)
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "collider params margin must be 0..1e9 metres");
  if (p.friction < 0.0 || p.friction > 1.0)
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "collider params friction must be 0..1");
  return TAILRIG_OK;
}

// A sway parameter: finite (else non-finite) and within lo..hi (else invalid).
tailrig_status check_sway_value(double x, double lo, double hi, const char* name) {
  if (!std::isfinite(x))
    return fail(TAILRIG_ERROR_NON_FINITE, std::string("sway params ") + name + " is not finite");
  if (x < lo || x > hi) {
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, std::string("sway params ") + name + " must be " +
                                                    std::to_string(lo) + ".." + std::to_string(hi));
  }
  return TAILRIG_OK;
}

tailrig_status check_sway_params(const tailrig_sway_params& p) {
  if (p.version != TAILRIG_SWAY_PARAMS_VERSION) {
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "sway params version " + std::to_string(p.version) +
                                                    " is unknown (this library knows " +
                                                    std::to_string(TAILRIG_SWAY_PARAMS_VERSION) +
                                                    ")");
  }
  if (p.reserved != 0)
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "sway params reserved must be 0");
  if (tailrig_status s = check_sway_value(p.amplitude_deg, 0.0, 90.0, "amplitude_deg");
      s != TAILRIG_OK)
    return s;
  if (tailrig_status s = check_sway_value(p.period, 0.01, 3600.0, "period"); s != TAILRIG_OK)
    return s;
  if (tailrig_status s = check_sway_value(p.still_speed, 1e-6, 1e3, "still_speed"); s != TAILRIG_OK)
    return s;
  return check_sway_value(p.fade, 1e-3, 3600.0, "fade");
}

tailrig_sway_params sway_params_of(const solver::ChainParams& c) {
  tailrig_sway_params p{};
  p.version = TAILRIG_SWAY_PARAMS_VERSION;
  p.amplitude_deg = c.idle_sway_deg;
  p.period = c.idle_sway_period;
  p.still_speed = c.idle_sway_still_speed;
  p.fade = c.idle_sway_fade;
  return p;
}

// The read-out calls' arguments: a chain, an output array, room for every bone.
tailrig_status check_output(const tailrig_chain* chain, const double* out, const char* out_name, int32_t capacity) {
  if (!chain || !out) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, std::string("chain or ") + out_name + " is NULL");
  const int n = chain->desc.size();
  if (capacity < n)
    return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                "capacity " + std::to_string(capacity) + " < bone count " + std::to_string(n));
  return TAILRIG_OK;
}

}  // namespace

extern "C" {

void tailrig_params_default(tailrig_params* out) {
  if (!out) return;
  const solver::ChainParams d;
  out->root_frequency_hz = d.root_frequency_hz;
  out->tip_frequency_hz = d.tip_frequency_hz;
  out->damping_ratio = d.damping_ratio;
  out->gravity = d.gravity;
  out->carry_deg = d.carry_deg;
  out->rest_curve = d.rest_curve;
  for (int i = 0; i < 3; ++i) {
    out->forward_axis[i] = d.forward_axis[i];
    out->lateral_axis[i] = d.lateral_axis[i];
  }
  out->meters_per_unit = d.meters_per_unit;
  out->bend_coupling_rate = d.bend_coupling_rate;
  out->bend_limit_deg = d.bend_limit_deg;
  out->forward_plane = d.forward_plane ? 1 : 0;
  out->floor_enabled = d.floor_enabled ? 1 : 0;
  out->floor_height = d.floor_height;
  out->floor_clearance = d.floor_clearance;
  out->contact_damping = d.contact_damping;
  out->internal_step = d.internal_step;
  out->max_substeps = d.max_substeps;
  out->reset_settle_time = d.reset_settle_time;
  out->teleport_distance = d.teleport_distance;
  out->teleport_angle_deg = d.teleport_angle_deg;
}

tailrig_status tailrig_chain_create(const char* const* joint_names, const int32_t* parents,
                                    const double* inverse_bind, int32_t joint_count,
                                    int32_t hips_joint, const tailrig_params* params,
                                    tailrig_chain** out_chain) {
  return guarded([&]() -> tailrig_status {
    if (!out_chain) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "out_chain is NULL");
    *out_chain = nullptr;
    if (!joint_names || !parents || !inverse_bind) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "joint_names, parents or inverse_bind is NULL");
    }
    // Same joint limit as the file readers (rig/io.h).
    if (joint_count < 1 || joint_count > 10000) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "joint_count must be 1..10000");
    }
    if (hips_joint < -1 || hips_joint >= joint_count) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "hips_joint out of range");
    }
    tailrig_params p;
    tailrig_params_default(&p);
    if (params) p = *params;
    if (const tailrig_status s = check_params(p); s != TAILRIG_OK) return s;

    const auto count = static_cast<size_t>(joint_count);
    std::vector<std::string> names(count);
    std::vector<int> parent_of(count);
    std::vector<Eigen::Matrix4d> ibm(count);
    for (size_t j = 0; j < count; ++j) {
      if (!joint_names[j]) {
        return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "joint name " + std::to_string(j) + " is NULL");
      }
      names[j] = joint_names[j];
      parent_of[j] = parents[j];
      const double* m = inverse_bind + 16 * j;
      if (!all_finite(m, 16)) {
        return fail(TAILRIG_ERROR_NON_FINITE, "inverse bind matrix of joint '" + names[j] +
                                                  "' has a NaN or infinite element");
      }
      ibm[j] = matrix_from(m);
    }
    auto chain = std::make_unique<tailrig_chain>();
    chain->params = to_cpp(p);
    solver::ChainRigInput in;
    in.names = names;
    in.parents = parent_of;
    in.inverse_bind = ibm;
    in.hips = hips_joint;
    if (const tailrig_status s =
            from_chain_status(solver::build_chain(in, chain->params, chain->desc));
        s != TAILRIG_OK) {
      return s;
    }
    const auto& d = chain->desc;
    chain->hips_to_root_parent =
        ibm[static_cast<size_t>(d.hips)] * ibm[static_cast<size_t>(d.root_parent)].inverse();
    if (!chain->hips_to_root_parent.allFinite()) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  "inverse bind matrix of the tail's parent is singular");
    }
    solver::init_state(chain->desc, chain->state);
    *out_chain = chain.release();
    return TAILRIG_OK;
  });
}

void tailrig_chain_destroy(tailrig_chain* chain) { delete chain; }

int32_t tailrig_chain_bone_count(const tailrig_chain* chain) {
  return chain ? static_cast<int32_t>(chain->desc.size()) : 0;
}

int32_t tailrig_chain_bone_joint(const tailrig_chain* chain, int32_t bone) {
  if (!chain || bone < 0 || bone >= chain->desc.size()) return -1;
  return chain->desc.links[static_cast<size_t>(bone)].joint;
}

tailrig_status tailrig_chain_set_params(tailrig_chain* chain, const tailrig_params* params) {
  return guarded([&]() -> tailrig_status {
    if (!chain || !params) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain or params is NULL");
    if (const tailrig_status s = check_params(*params); s != TAILRIG_OK) return s;
    chain->params = merged_step_params(chain->params, *params);
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_chain_reset(tailrig_chain* chain, const double hips_world[16]) {
  return guarded([&]() -> tailrig_status {
    if (!chain) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain is NULL");
    if (const tailrig_status s = check_hips(hips_world); s != TAILRIG_OK) return s;
    solver::reset(chain->desc, chain->params, chain->state,
                  Eigen::Affine3d(matrix_from(hips_world)));
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_chain_step(tailrig_chain* chain, double dt, const double hips_world[16]) {
  return guarded([&]() -> tailrig_status {
    if (!chain) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain is NULL");
    if (const tailrig_status s = check_dt(dt); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_hips(hips_world); s != TAILRIG_OK) return s;
    solver::step(chain->desc, chain->params, chain->state, dt, matrix_from(hips_world), {});
    return TAILRIG_OK;
  });
}

void tailrig_frame_input_default(tailrig_frame_input* out) {
  if (!out) return;
  *out = tailrig_frame_input{};
  out->version = TAILRIG_FRAME_INPUT_VERSION;
  for (int i = 0; i < 4; ++i) out->hips_world[5 * i] = 1.0;
}

tailrig_status tailrig_chain_step_frame(tailrig_chain* chain, double dt,
                                        const tailrig_frame_input* frame) {
  return guarded([&]() -> tailrig_status {
    if (!chain || !frame) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain or frame is NULL");
    if (frame->version != TAILRIG_FRAME_INPUT_VERSION) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  "frame version " + std::to_string(frame->version) +
                      " is unknown (this library knows " +
                      std::to_string(TAILRIG_FRAME_INPUT_VERSION) + ")");
    }
    if (const tailrig_status s = check_dt(dt); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_hips(frame->hips_world); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_capsules(*frame); s != TAILRIG_OK) return s;
    // On the stack: no allocation per step.
    std::array<solver::Capsule, solver::kMaxColliders> capsules;
    const auto count = static_cast<size_t>(frame->capsule_count);
    for (size_t c = 0; c < count; ++c) {
      const tailrig_capsule& k = frame->capsules[c];
      capsules[c].a = Eigen::Vector3d(k.a[0], k.a[1], k.a[2]);
      capsules[c].b = Eigen::Vector3d(k.b[0], k.b[1], k.b[2]);
      capsules[c].radius_a = k.radius_a;
      capsules[c].radius_b = k.radius_b;
    }
    // Affine3d from the matrix as the Matrix4d overload of step() does, so
    // no capsules is tailrig_chain_step bit for bit.
    const solver::FrameInput input{Eigen::Affine3d(matrix_from(frame->hips_world)),
                                   std::span<const solver::Capsule>(capsules.data(), count)};
    solver::step(chain->desc, chain->params, chain->state, dt, input, {});
    return TAILRIG_OK;
  });
}

void tailrig_collider_params_default(tailrig_collider_params* out) {
  if (!out) return;
  const solver::ChainParams d;
  *out = tailrig_collider_params{};
  out->version = TAILRIG_COLLIDER_PARAMS_VERSION;
  out->margin = d.collider_margin;
  out->friction = d.collider_friction;
}

tailrig_status tailrig_chain_set_collider_params(tailrig_chain* chain,
                                                 const tailrig_collider_params* params) {
  return guarded([&]() -> tailrig_status {
    if (!chain || !params) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain or params is NULL");
    if (const tailrig_status s = check_collider_params(*params); s != TAILRIG_OK) return s;
    chain->params.collider_margin = params->margin;
    chain->params.collider_friction = params->friction;
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_chain_get_collider_params(const tailrig_chain* chain,
                                                 tailrig_collider_params* out) {
  return guarded([&]() -> tailrig_status {
    if (!chain || !out) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain or out_params is NULL");
    if (out->version != TAILRIG_COLLIDER_PARAMS_VERSION) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  "out_params->version " + std::to_string(out->version) +
                      " is unknown (set it, e.g. with tailrig_collider_params_default)");
    }
    out->reserved = 0;
    out->margin = chain->params.collider_margin;
    out->friction = chain->params.collider_friction;
    return TAILRIG_OK;
  });
}

void tailrig_sway_params_default(tailrig_sway_params* out) {
  if (out) *out = sway_params_of(solver::ChainParams{});
}

void tailrig_sway_params_idle(tailrig_sway_params* out) {
  if (out) *out = sway_params_of(solver::idle_sway(solver::ChainParams{}));
}

tailrig_status tailrig_chain_set_sway_params(tailrig_chain* chain,
                                             const tailrig_sway_params* params) {
  return guarded([&]() -> tailrig_status {
    if (!chain || !params) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain or params is NULL");
    if (const tailrig_status s = check_sway_params(*params); s != TAILRIG_OK) return s;
    chain->params.idle_sway_deg = params->amplitude_deg;
    chain->params.idle_sway_period = params->period;
    chain->params.idle_sway_still_speed = params->still_speed;
    chain->params.idle_sway_fade = params->fade;
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_chain_get_sway_params(const tailrig_chain* chain, tailrig_sway_params* out) {
  return guarded([&]() -> tailrig_status {
    if (!chain || !out) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain or out_params is NULL");
    if (out->version != TAILRIG_SWAY_PARAMS_VERSION) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  "out_params->version " + std::to_string(out->version) +
                      " is unknown (set it, e.g. with tailrig_sway_params_default)");
    }
    *out = sway_params_of(chain->params);
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_chain_local_rotations(const tailrig_chain* chain, double* out_xyzw,
                                             int32_t capacity) {
  return guarded([&]() -> tailrig_status {
    if (const tailrig_status st = check_output(chain, out_xyzw, "out_xyzw", capacity); st != TAILRIG_OK) return st;
    const int n = chain->desc.size();
    for (int i = 0; i < n; ++i) {
      const auto idx = static_cast<size_t>(i);
      // Before the first step the state is unset: report the carry rest pose.
      const Eigen::Quaterniond& q = chain->state.initialized
                                        ? chain->state.out_local[idx]
                                        : chain->desc.links[idx].rest_local_rotation;
      out_xyzw[4 * idx + 0] = q.x();
      out_xyzw[4 * idx + 1] = q.y();
      out_xyzw[4 * idx + 2] = q.z();
      out_xyzw[4 * idx + 3] = q.w();
    }
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_chain_world_matrices(const tailrig_chain* chain, double* out_matrices,
                                            int32_t capacity) {
  return guarded([&]() -> tailrig_status {
    if (const tailrig_status st = check_output(chain, out_matrices, "out_matrices", capacity); st != TAILRIG_OK) return st;
    const int n = chain->desc.size();
    if (!chain->state.initialized) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  "no hips yet: call tailrig_chain_step or tailrig_chain_reset first");
    }
    // FK from the root parent (bind pose relative to the hips) down the chain.
    Eigen::Matrix4d world = chain->state.hips_prev.matrix() * chain->hips_to_root_parent;
    for (int i = 0; i < n; ++i) {
      const auto idx = static_cast<size_t>(i);
      const solver::ChainLink& link = chain->desc.links[idx];
      Eigen::Affine3d local = Eigen::Affine3d::Identity();
      local.translate(link.neutral_translation);
      local.rotate(chain->state.out_local[idx]);
      local.scale(link.neutral_scale);
      world = world * local.matrix();
      Eigen::Map<Eigen::Matrix4d>(out_matrices + 16 * idx) = world;
    }
    return TAILRIG_OK;
  });
}

const char* tailrig_last_error(void) { return g_last_error.c_str(); }

}  // extern "C"
