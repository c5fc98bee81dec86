#include "detect/report.h"

#include <cmath>

#include "rig/roles.h"

namespace detect {

namespace {
nlohmann::json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json appendage_report(const rig::Character& c, const Analysis& a) {
  const double m = c.meters_per_unit;
  nlohmann::json out;
  out["H"] = a.height * m;
  out["meters_per_unit"] = m;
  out["appendages"] = nlohmann::json::array();
  for (const Region& r : a.regions) {
    nlohmann::json j;
    j["id"] = r.id;
    j["class"] = class_name(r.classification.cls);
    j["action"] = action_name(r.classification.action);
    j["attachment"] = r.attachment >= 0 && r.attachment < c.skeleton.size()
                          ? nlohmann::json(c.skeleton.names[r.attachment])
                          : nlohmann::json(nullptr);
    j["attachment_role"] = rig::role_name(r.attachment_role);
    if (r.classification.action == Action::kRigid && r.rigid_joint >= 0 &&
        r.rigid_joint < c.skeleton.size()) {
      j["rigid_joint"] = c.skeleton.names[r.rigid_joint];
    }
    j["vertex_count"] = r.vertices.size();
    j["welded_vertex_count"] = r.welded.size();
    j["reach"] = r.reach * m;
    j["elongation"] = finite_or_null(r.shape.elongation);
    j["flatness"] = finite_or_null(r.shape.flatness);
    j["centroid_ratio"] = r.centroid_ratio;
    if (r.cut_level > 0.0) {  // split off a fused region (find_appendages.cpp)
      j["cut_level"] = r.cut_level;  // fraction of H
      j["root_offset"] = r.root_offset * m;
    }
    j["length"] = r.length * m;
    j["bones"] = r.bones;
    nlohmann::json joints = nlohmann::json::array();
    for (const auto& p : r.joints) joints.push_back({p.x() * m, p.y() * m, p.z() * m});
    j["joints"] = joints;
    j["bone_distance_before"] = r.bone_distance_before * m;
    j["bone_distance_after"] = r.bone_distance_after * m;
    out["appendages"].push_back(j);
  }
  return out;
}

}  // namespace detect
