#include "pipeline/keep_off_grounding.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "detect/body.h"
#include "detect/find_appendages.h"
#include "rig/retarget/contact/grounding.h"

namespace pipeline {

namespace {

// The lowest knee (shin joint) of the bind pose, or +infinity without one.
double lowest_knee(const rig::Character& c, const std::vector<rig::Role>& roles) {
  double knee = std::numeric_limits<double>::infinity();
  for (int j = 0; j < c.skeleton.size() && j < static_cast<int>(roles.size()); ++j)
    if (roles[j].part == rig::BodyPart::kShin) knee = std::min(knee, c.skeleton.bind_world[j](1, 3));
  return knee;
}

// Per foot and toe joint, the lowest bind vertex it dominates: the soles
// a standing body is grounded on (none for a joint without skin).
std::vector<int> sole_vertices(const rig::Character& c, const std::vector<rig::Role>& roles) {
  const int joints = std::min(c.skeleton.size(), static_cast<int>(roles.size()));
  std::vector<int> lowest(static_cast<size_t>(std::max(joints, 0)), -1);
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  for (int v = 0; v < nv; ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d < 0 || d >= joints) continue;
    const rig::BodyPart part = roles[d].part;
    if (part != rig::BodyPart::kFoot && part != rig::BodyPart::kToe) continue;
    if (lowest[d] < 0 || c.mesh.positions[v].y() < c.mesh.positions[lowest[d]].y()) lowest[d] = v;
  }
  std::vector<int> soles;
  for (int v : lowest)
    if (v >= 0) soles.push_back(v);
  std::sort(soles.begin(), soles.end());
  return soles;
}

// Cloth that hangs from the trunk past the knees (a floor-length robe or
// cape): a sheet, wide or worn region on the hips, spine or a thigh whose
// lowest bind vertex lies below every knee. The thighs it was weighted to
// swing its hem under the floor, which no foot stands on. A region that
// holds a foot's sole is the body's own legs, not cloth over them (a long
// body whose hind legs and neck detect read as one worn region, the
// Apatosaurus class of issue 45 class 2): leaving it out of grounding
// would ground the body on its other feet, the soles it stands on ignored.
bool hangs_past_the_knees(const rig::Character& c, double knee, const std::vector<int>& soles,
                          const detect::Region& r) {
  using rig::BodyPart;
  const detect::AppendageClass cls = r.classification.cls;
  if (cls != detect::AppendageClass::kWide && cls != detect::AppendageClass::kHair &&
      cls != detect::AppendageClass::kWorn)
    return false;
  const BodyPart at = r.attachment_role.part;
  if (at != BodyPart::kHips && at != BodyPart::kSpine && at != BodyPart::kThigh) return false;
  double low = std::numeric_limits<double>::infinity();
  for (int v : r.vertices) {
    low = std::min(low, c.mesh.positions[v].y());
    if (std::binary_search(soles.begin(), soles.end(), v)) return false;
  }
  return low < knee;
}

}  // namespace

int find_rigger_tail(const rig::Character& c, std::vector<int>& tail_vertices, std::vector<int>* cloth_vertices) {
  // Tail bones carry the tail skin: grounding finds it by them.
  const std::vector<bool> tail_bone = rig::tail_joint_mask(c.skeleton);
  bool tail_has_bones = false;
  for (const auto& infl : c.skin.influences) {
    const int d = rig::dominant_joint(infl);
    tail_has_bones |= d >= 0 && d < static_cast<int>(tail_bone.size()) && tail_bone[d];
  }
  if (tail_has_bones && !cloth_vertices) return 0;
  detect::Analysis a;
  if (!detect::find_appendages(c, detect::Params{}, a).ok()) return tail_has_bones ? 0 : -1;
  // A tail-shaped region that non-body bones already drive (a sword on a
  // `Weapon` bone) has bones of its own: it is not skin a rigger gave the legs.
  const double knee = lowest_knee(c, a.roles);
  const std::vector<int> soles = cloth_vertices ? sole_vertices(c, a.roles) : std::vector<int>{};
  for (const detect::Region& r : a.regions) {
    if (r.classification.cls == detect::AppendageClass::kTail && !detect::already_rigged(r.owner)) {
      if (!tail_has_bones) tail_vertices.insert(tail_vertices.end(), r.vertices.begin(), r.vertices.end());
    } else if (cloth_vertices && hangs_past_the_knees(c, knee, soles, r))
      cloth_vertices->insert(cloth_vertices->end(), r.vertices.begin(), r.vertices.end());
  }
  std::sort(tail_vertices.begin(), tail_vertices.end());
  if (cloth_vertices) std::sort(cloth_vertices->begin(), cloth_vertices->end());
  return static_cast<int>(tail_vertices.size());
}

int keep_off_grounding(const rig::Character& c, rig::GroundingOptions& grounding, size_t& cloth) {
  std::vector<int> hem;
  const int tail = find_rigger_tail(c, grounding.tail_vertices, &hem);
  grounding.tail_vertices.insert(grounding.tail_vertices.end(), hem.begin(), hem.end());
  cloth = hem.size();
  return tail;
}

}  // namespace pipeline
