// Tapered capsules fitted to a body's legs (issue 46): per leg, one along
// the thigh (hip to knee) and one along the shin (knee to ankle), each end's
// radius the median distance of the skin the bone dominates near that end
// from the bone: the leg's surface, in the bind pose. A capsule moves
// rigidly with its bone (the bone's skinning matrix).
//
// What a tail must stay out of: the measure of tail-into-leg penetration
// (measure/tail_penetration.h), and later the solver's leg colliders.
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// A leg capsule follows its thigh or shin: a at the bone's joint, b at the
// next joint of the leg (knee, ankle). The model's JointCapsule, so that a
// character carries the ones fitted (Character::colliders).
using LegCapsule = JointCapsule;

// Capsules of every leg rig::find_legs reads; skin per bone from the
// vertices it dominates that `exclude` does not mark (per vertex; empty: none
// excluded; a rigger's tail on the thighs is no thigh). A bone dominating
// fewer than kMinCapsuleVertices at an end gets no capsule.
inline constexpr int kMinCapsuleVertices = 8;
std::vector<LegCapsule> fit_leg_capsules(const Character& c, std::span<const char> exclude = {});

// How deep `q` (world) lies inside capsule `k` posed by its bone's skinning
// matrix `skinning` (world x inverse bind): the radius at q's place along the
// axis minus q's distance from it; negative outside.
double capsule_depth(const LegCapsule& k, const Mat4& skinning, const Vec3& q);
// The same with the axis posed once (posed_axis), for many points against
// one posed capsule: the same arithmetic, so the same bits.
struct PosedAxis {
  Vec3 a, b;  // world: skinning x k.a, skinning x k.b
};
PosedAxis posed_axis(const LegCapsule& k, const Mat4& skinning);
double capsule_depth(const LegCapsule& k, const PosedAxis& axis, const Vec3& q);

}  // namespace rig
