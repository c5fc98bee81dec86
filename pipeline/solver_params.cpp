#include "pipeline/solver_params.h"

namespace pipeline {

bool apply_solver_overrides(const nlohmann::json& j, solver::ChainParams& p, std::string& error) {
  try {
    for (const auto& [k, v] : j.items()) {
      if (k == "root_frequency_hz") p.root_frequency_hz = v;
      else if (k == "tip_frequency_hz") p.tip_frequency_hz = v;
      else if (k == "damping_ratio") p.damping_ratio = v;
      else if (k == "gravity") p.gravity = v;
      else if (k == "carry_deg") p.carry_deg = v;
      else if (k == "rest_curve") p.rest_curve = v;
      else if (k == "bend_coupling_rate") p.bend_coupling_rate = v;
      else if (k == "bend_limit_deg") p.bend_limit_deg = v;
      else if (k == "forward_plane") p.forward_plane = v;
      else if (k == "floor_enabled") p.floor_enabled = v;
      else if (k == "floor_height") p.floor_height = v;
      else if (k == "floor_clearance") p.floor_clearance = v;
      else if (k == "contact_damping") p.contact_damping = v;
      else if (k == "collider_margin") p.collider_margin = v;
      else if (k == "collider_friction") p.collider_friction = v;
      else if (k == "idle_sway") {
        if (v.get<bool>()) p = solver::idle_sway(p);  // the named set (params.h)
      }
      else if (k == "idle_sway_deg") p.idle_sway_deg = v;
      else if (k == "idle_sway_period") p.idle_sway_period = v;
      else if (k == "idle_sway_still_speed") p.idle_sway_still_speed = v;
      else if (k == "idle_sway_fade") p.idle_sway_fade = v;
      else if (k == "internal_step") p.internal_step = v;
      else if (k == "teleport_distance") p.teleport_distance = v;
      else if (k == "teleport_angle_deg") p.teleport_angle_deg = v;
      else {
        error = "unknown solver parameter '" + k + "'";
        return false;
      }
    }
  } catch (const std::exception& e) {
    error = std::string("solver parameters: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace pipeline
