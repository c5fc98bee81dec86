#include "rigger_tail.h"

#include <algorithm>

#include "detect/body.h"
#include "detect/find_appendages.h"
#include "rig/grounding.h"

namespace harness {

int find_rigger_tail(const rig::Character& c, std::vector<int>& tail_vertices) {
  const std::vector<bool> tail_bone = rig::tail_joint_mask(c.skeleton);
  for (const auto& infl : c.skin.influences) {
    const int d = rig::dominant_joint(infl);
    if (d >= 0 && d < static_cast<int>(tail_bone.size()) && tail_bone[d]) return 0;
  }
  detect::Analysis a;
  if (!detect::find_appendages(c, detect::Params{}, a).ok()) return -1;
  // A tail-shaped region that non-body bones already drive (a sword on a
  // `Weapon` bone) has bones of its own: it is not skin a rigger gave the legs.
  for (const detect::Region& r : a.regions)
    if (r.classification.cls == detect::AppendageClass::kTail && !detect::already_rigged(r.owner))
      tail_vertices.insert(tail_vertices.end(), r.vertices.begin(), r.vertices.end());
  std::sort(tail_vertices.begin(), tail_vertices.end());
  return static_cast<int>(tail_vertices.size());
}

}  // namespace harness
