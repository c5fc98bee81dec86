// The colliders a character carries (Character::colliders, issue 46) as
// glTF `extras` on its joint nodes, so that a fixed file keeps them for a
// later bake, another tool or the Blender add-on (internal to rig/io/gltf).
//
// Schema (README "What fix writes"): a joint node with a collider carries
//   "extras": {"tailrig_collider": {"version": 1, "shape": "capsule",
//              "a": [x, y, z], "b": [x, y, z], "radius_a": r, "radius_b": r}}
// a and b are the ends of the capsule's axis in the joint node's own space
// at bind (the space its inverse bind matrix maps into), so the capsule
// moves rigidly with the joint whatever the pose; radius_a and radius_b are
// the radii at a and b in that space's units (a scaled joint scales them).
// Other extras of a node are kept; a node whose extras are not a JSON
// object gets no collider (noted). (tinygltf itself drops a node's extras
// that are not an object, or an empty object, when it reads a file.)
#pragma once

#include <string>
#include <vector>

#include "rig/io/gltf/gltf_source.h"

namespace rig {

inline constexpr const char* kColliderExtrasKey = "tailrig_collider";
inline constexpr int kColliderExtrasVersion = 1;

// The colliders stored on the joint nodes (`joint_nodes`: per skeleton
// joint, its node), into bind space. A malformed one (another version or
// shape, a missing, non-finite or negative value) is left out with a note.
std::vector<JointCapsule> read_collider_extras(const std::string& path, const tinygltf::Model& m,
                                               const std::vector<int>& joint_nodes, const Skeleton& sk,
                                               std::vector<std::string>& notes);

// Writes `c.colliders` onto the joint nodes (`joint_node`: per joint, its
// node), after removing every stored collider (a rewritten character holds
// the ones it carries, no stale one). One collider per joint (the last
// wins); a non-finite one is not written.
void write_collider_extras(tinygltf::Model& m, const std::vector<int>& joint_node, const Character& c,
                           std::vector<std::string>& notes);

}  // namespace rig
