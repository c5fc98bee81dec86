// The legs' colliders a fixed character carries (issue 46): `fix` fits
// them (rig::fit_leg_capsules) when the character has or gets a Tail_*
// chain, the written glTF keeps them on the leg joints (extras, see
// rig/io/gltf/gltf_colliders.h), the bake steps the chain with them; the
// report and the summary line say which they are.
#pragma once

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

#include "rig/model/model.h"

namespace pipeline {

// Per vertex of `c`: 1 where the tail's skin is, which no leg capsule may
// be fitted to (a rigger's tail weighted to the thighs is no thigh):
// every vertex in `regions` (detect's appendage regions' vertex lists) and
// every vertex some weight ties to a joint of `tail_joints` (per joint, 1
// for a Tail_* bone or below; empty: none).
std::vector<char> tail_skin(const rig::Character& c, std::span<const std::vector<int>> regions,
                            std::span<const char> tail_joints);

// Per joint of `sk`: 1 for a Tail_* bone (solver::parse_tail_name) and
// every joint below one.
std::vector<char> tail_joints(const rig::Skeleton& sk);

// The legs' capsules of `c` from the skin `exclude` does not mark
// (rig::fit_leg_capsules; empty when no leg has enough skin).
std::vector<rig::JointCapsule> fit_leg_colliders(const rig::Character& c, std::span<const char> exclude);

// The report's "leg_colliders": {"count", "source", "capsules": [{"joint",
// "a_m", "b_m", "radius_a_m", "radius_b_m"}]} (bind space, metres).
nlohmann::json colliders_json(const rig::Character& c, const std::string& source);

// "leg colliders: 4 capsules on thigh.L, shin.L, ..." ("" when none).
std::string colliders_line(const rig::Character& c, const std::string& source);

}  // namespace pipeline
