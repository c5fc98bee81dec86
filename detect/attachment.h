// Attachment ring of a region and the joint it hangs from (SPEC §1.4).
// The ring's skin weights are never read: when the appendage is a separate
// shell, its ring is the shell's own root ring and carries the same wrong
// weights that are being fixed.
#pragma once

#include <vector>

#include "detect/geometry/components.h"
#include "rig/model/model.h"

namespace detect {

// Ring = the vertices with far[v] == 0 adjacent (in `graph`) to a vertex of
// `region` (ids of the graph). Sorted ascending, no duplicates.
std::vector<int> attachment_ring(const Graph& graph, const std::vector<int>& region,
                                 const std::vector<char>& far);

rig::Vec3 centroid(const std::vector<rig::Vec3>& points);

// True for the roles that win the attachment tie-break: hips, spine (and
// chest), thigh.
bool is_trunk_or_thigh(rig::BodyPart part);

struct AttachmentJoint {
  int joint = -1;             // chosen joint (skeleton index), -1 if no candidate
  double distance = 0.0;      // its distance to the point (bind units)
  int nearest = -1;           // the plainly nearest candidate
  double nearest_distance = 0.0;
};

// The joint a point hangs from: the nearest candidate joint, except that a
// trunk or thigh joint within `preference` x the shortest distance wins (the
// nearest such one). `candidates[j] != 0` marks usable joints (empty: all).
AttachmentJoint choose_attachment_joint(const rig::Skeleton& skeleton, const rig::Vec3& point,
                                        const std::vector<char>& candidates = {},
                                        double preference = 1.5);

}  // namespace detect
