// Viewer placement that ignores the tail (SPEC §5).
//
// Putting the lowest point of the whole mesh on the floor lifts a character
// whose tail hangs below its soles. Placement finds the body's bottom over the
// skin that is not mostly driven by tail bones; the camera framing box still
// covers the whole character, tail included.
// Y up; lengths and positions in the character's units (bind space, or
// whatever space the caller's posed positions are in).
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct PlacementOptions {
  double floor_height = 0.0;  // y of the floor plane
  // A vertex is tail skin when the summed weight of its tail-bone influences
  // is above this share ("mostly driven by tail bones"); 0.5 = majority.
  double tail_share = 0.5;
  // When non-empty, these joints are the tail bones instead of auto detection
  // (rig::tail_joint_mask: role none and a "tail" name token, or below one).
  std::vector<int> tail_joints;
};

struct Placement {
  // Add to every y so the lowest body point sits on the floor.
  double vertical_offset = 0.0;
  // Lowest y over body vertices (tail skin ignored) before the offset. When
  // the mesh has no body vertex (all tail), the whole mesh is used.
  double body_bottom = 0.0;
  // Lowest y over every vertex before the offset (what a naive viewer uses).
  double mesh_bottom = 0.0;
  // Axis-aligned framing box over every vertex, tail included, after the
  // offset (y shifted by vertical_offset).
  Vec3 frame_min = Vec3::Zero();
  Vec3 frame_max = Vec3::Zero();
  int body_vertices = 0;  // vertices the bottom was taken from
  int tail_vertices = 0;  // vertices ignored for the bottom
  bool empty = true;      // no vertex at all: offset 0, empty box
};

// Per vertex: true when mostly driven by tail bones or prop bones (rig::prop_joint_mask), see PlacementOptions.
// Vertices without influences are body skin.
std::vector<bool> tail_skin_mask(const Character& character, const PlacementOptions& options = {});

// Placement for `positions` (one per mesh vertex, e.g. skinned at some time).
// Positions beyond the skin's vertex count have no influences: body skin.
Placement place_on_floor(const Character& character, std::span<const Vec3> positions,
                         const PlacementOptions& options = {});

// Placement of the bind pose (mesh positions as stored).
Placement place_on_floor(const Character& character, const PlacementOptions& options = {});

}  // namespace rig
