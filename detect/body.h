// Reading the body from the skeleton's shape (issue 11): the pelvis where the
// hind legs (and a tail) join the trunk, which bones are body bones, and who
// already drives a region's skin ("do no harm"). Works with any version of
// rig::assign_roles: only the coarse roles (thigh, head, trunk) are read, and
// the pelvis comes from topology, not from a bone called Hips.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "rig/model/model.h"

namespace detect {

struct BodyReading {
  // Pelvis: the lowest common ancestor of the hind thighs (the legs that
  // reach the floor; with four legs, the pair farther from the head), walked
  // up to a deforming joint. -1 when the rig has no legs to read.
  int pelvis = -1;
  // Per joint: 1 for the pelvis and the deforming trunk joints below it that
  // are not on the way to the head or a leg (Quaternius' `Back` under `Body`,
  // where the tail hangs).
  std::vector<char> pelvis_zone;
  // Per joint: where a grown tail may hang: the pelvis zone plus role-less
  // leaf bones hanging from it (a rump bone left behind when a rigger
  // dropped the tail). A tail hangs from the member nearest its root.
  std::vector<char> tail_roots;
  // Per joint: 1 for a leg joint between the pelvis and a thigh (a
  // quadruped's `BackShoulder`/`BackLeg`): reads as thigh for attachment.
  std::vector<char> hind_leg_root;
  // Per joint: a body bone (a role other than none, or an ancestor of one:
  // roots and trunk helpers). Everything else that carries weight (a weapon,
  // an existing tail, ears, IK helpers, a prop) is a non-body bone.
  std::vector<char> body;
  // Per joint: an arm or leg bone (shoulder .. hand, thigh .. toe, hind leg roots).
  std::vector<char> limb;
  // Per joint: an arm bone (shoulder .. hand; a quadruped's front legs named
  // arms count too: they are limbs, never worn).
  std::vector<char> arm;
  // Existing tail bones: deforming non-body chains of at least two joints
  // hanging from the pelvis zone. Non-empty: the rig has its tail rigged.
  std::vector<int> tail_bones;
  int legs = 0;        // thighs that reach the floor
  int hind_legs = 0;   // of those, the hind pair (all of them on a biped)
  // On an upright body (the head farther above the pelvis than beside it):
  // the height of the first trunk joint toward the head outside the pelvis
  // zone, where the pelvis ends; -infinity otherwise (a quadruped's spine
  // runs level with its pelvis).
  double pelvis_top = -std::numeric_limits<double>::infinity();
  // The hind thighs' joints (the hip sockets) when there are two: their
  // midpoint, the unit line across them and half their distance (0: no
  // pair). A tail leaves the pelvis between them; what hangs outside them
  // hangs beside the hip (a sword, a pouch).
  rig::Vec3 hip_mid = rig::Vec3::Zero();
  rig::Vec3 hip_across = rig::Vec3::Zero();
  double hip_half_width = 0.0;
};

// `deforming` has one entry per joint. `skeleton.roles` must have one role
// per joint.
BodyReading read_body(const rig::Skeleton& skeleton, const std::vector<char>& deforming);

// Who drives a set of vertices: each vertex counts for its dominant joint
// (largest weight, lowest index on ties).
struct Ownership {
  int vertices = 0;
  int top_joint = -1;        // the joint dominating most of the vertices
  double top_fraction = 0;   // its share
  double non_body = 0;       // share dominated by non-body bones
  double limb = 0;           // share dominated by arm/leg bones
  double arm = 0;            // share dominated by arm bones (shoulder .. hand)
  int top_non_body = -1;     // the non-body joint dominating most vertices
};

Ownership ownership(const rig::Skin& skin, const std::vector<int>& vertices,
                    const BodyReading& body, int joint_count);

// A share above this of a region's vertices is "most" of it (do no harm).
inline constexpr double kOwnedFraction = 0.5;

// Already rigged: most of the vertices are driven by non-body bones (a
// weapon, an existing tail, a prop), which fix leaves alone and which is no
// rigger's boneless tail.
inline bool already_rigged(const Ownership& o) {
  return o.non_body > kOwnedFraction && o.top_non_body >= 0;
}

}  // namespace detect
