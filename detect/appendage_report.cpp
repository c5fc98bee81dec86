#include "detect/appendage_report.h"

#include <cmath>

#include "rig/anatomy/roles.h"

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
  const int n = c.skeleton.size();
  auto name = [&](int j) { return j >= 0 && j < n ? nlohmann::json(c.skeleton.names[j]) : nlohmann::json(nullptr); };
  out["pelvis"] = name(a.body.pelvis);
  out["legs"] = a.body.legs;
  nlohmann::json tail = nlohmann::json::array();
  for (int j : a.body.tail_bones) tail.push_back(name(j));
  out["tail_bones"] = tail;
  if (!a.refused.empty()) out["refused"] = a.refused;
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
    if (r.section.segments > 0) j["section_flatness"] = finite_or_null(r.section.median);
    if (r.cut_level > 0.0) {  // split off a fused region (find_appendages.cpp)
      j["cut_level"] = r.cut_level;  // fraction of H
      j["root_offset"] = r.root_offset * m;
    }
    if (r.tube_end > 0.0) {  // cut where it stops being a tube (tube.h)
      j["tube_end_from_tip"] = r.tube_end * m;
      j["tube_end_closure"] = r.tube_end_closure;
    }
    j["length"] = r.length * m;
    j["bones"] = r.bones;
    j["edge_step"] = r.edge_step * m;
    nlohmann::json joints = nlohmann::json::array();
    for (const auto& p : r.joints) joints.push_back({p.x() * m, p.y() * m, p.z() * m});
    j["joints"] = joints;
    if (r.chain_parent >= 0 && r.chain_parent < c.skeleton.size()) {
      j["chain_parent"] = c.skeleton.names[r.chain_parent];
    }
    if (r.root_joint >= 0 && r.root_joint < c.skeleton.size()) j["root_joint"] = c.skeleton.names[r.root_joint];
    j["reason"] = r.reason;
    j["ring_centroid"] = {r.ring_centroid.x() * m, r.ring_centroid.y() * m, r.ring_centroid.z() * m};
    nlohmann::json own;
    own["top_joint"] = r.owner.top_joint >= 0 && r.owner.top_joint < c.skeleton.size()
                           ? nlohmann::json(c.skeleton.names[r.owner.top_joint])
                           : nlohmann::json(nullptr);
    own["top_fraction"] = r.owner.top_fraction;
    own["non_body_fraction"] = r.owner.non_body;
    own["limb_fraction"] = r.owner.limb;
    own["arm_fraction"] = r.owner.arm;
    j["driven_by"] = own;
    j["bone_distance_before"] = r.bone_distance_before * m;
    j["bone_distance_after"] = r.bone_distance_after * m;
    out["appendages"].push_back(j);
  }
  return out;
}

}  // namespace detect
