// How much of a split-off tail's root skin the chain takes (see root_seam.h).
#include "detect/root_seam.h"

#include <algorithm>
#include <string>

#include "detect/format.h"
#include "detect/haunch_skin.h"
#include "detect/tail_root.h"

namespace detect {

std::vector<BoneSegment> leg_segments(const Context& ctx, const Analysis& a) {
  std::vector<BoneSegment> legs;
  for (const BoneSegment& s : shins_to_their_feet(ctx.sk, a.roles, ctx.segments)) {
    if (s.joint < 0 || s.joint >= static_cast<int>(a.roles.size())) continue;
    const rig::BodyPart part = a.roles[s.joint].part;
    if (part == rig::BodyPart::kThigh || part == rig::BodyPart::kShin || part == rig::BodyPart::kFoot ||
        part == rig::BodyPart::kToe)
      legs.push_back(s);
  }
  return legs;
}

void share_root_seam(const Context& ctx, const Analysis& a, Region& r) {
  r.seam_share.clear();
  if (r.cut_level <= 0.0 || r.bones <= 0 || r.joints.size() < 2) return;
  const HaunchSeam seam{ctx.params.seam_tail_alone, ctx.params.seam_leg_alone, r.root_offset + r.length / r.bones};
  const std::vector<BoneSegment> legs = leg_segments(ctx, a);
  std::vector<double> share;
  share.reserve(r.vertices.size());
  int shared = 0, left = 0, rump = 0;
  const double reach = ctx.params.leg_spill_reach * r.ring_radius;
  for (int v : r.vertices) {
    const int w = a.welded.weld_of[v];
    const rig::Vec3& p = a.welded_positions[w];
    double s = seam_chain_share(p, r.joints, legs, seam);
    shared += s < 1.0;
    if (reach > 0.0 && std::binary_search(r.leg_spill.begin(), r.leg_spill.end(), w)) {
      const double d = polyline_distance(r.joints, p, nullptr);
      if (d > reach && reach / d < s) {
        ++rump;
        s = reach / d;
      }
    }
    share.push_back(s);
    left += s <= 0.0;
  }
  if (shared == 0 && rump == 0) return;
  r.seam_share = std::move(share);
  if (shared > 0)
    r.reason += "; haunch seam: " + std::to_string(shared) +
                " vertices nearer a leg bone than the chain share their weight with the bones they were rigged to "
                "(the chain's share falls from 1 at " + fmt("%.2f", seam.tail_alone) + " to 0 at " +
                fmt("%.2f", seam.leg_alone) + " x their leg bone's distance), " + std::to_string(left) +
                " of them left as rigged";
  if (rump > 0)
    r.reason += "; rump skin: " + std::to_string(rump) + " leg-driven root vertices farther from the chain than " +
                fmt("%.2f", ctx.params.leg_spill_reach) + " x the ring radius keep part of their leg weights (the "
                "chain's share: that reach / their distance)";
}

}  // namespace detect
