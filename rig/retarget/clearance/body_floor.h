// The whole body against the floor (issue 45). Body grounding lifts the
// pelvis for a sample of the skin, S: each joint's lowest bind vertices
// (grounding.h). That sample is the right one for a body that stays upright;
// a body turned over is not low where its bind pose is: an upside-down head
// touches with its crown, a hand planted in a cartwheel with its palm, a
// bowing knight's hanging fingers with their tips. Here every body vertex
// counts, at every sample of the clip:
//   depth(t) = max(0, floor_y - min over the body B of y(t)),
// B = the skinned vertices but tail skin (grounding's T: dominant joint a
// tail bone, or listed in GroundingOptions::tail_vertices: a boneless tail,
// cloth past the knees) and carried objects (carried_object_vertices: a
// sword in the hand), as grounding leaves them out.
// Y up; lengths in the character's model units.
#pragma once

#include <span>
#include <vector>

#include "rig/model/lowest_skin.h"
#include "rig/model/model.h"
#include "rig/retarget/contact/grounding.h"

namespace rig {

// The body B of `character`, ascending vertex indices: tail skin (by
// options.tail_joints / tail_joint_mask and options.tail_vertices) and
// carried objects (carried_object_vertices at `weld_tolerance`, model units)
// left out.
std::vector<int> body_floor_vertices(const Character& character, const GroundingOptions& options,
                                     double weld_tolerance);

// How far the body goes under the floor over a clip.
struct BodyFloorDepth {
  std::vector<double> depth;  // per sample: floor_y - the lowest body vertex's y, at least 0
  double max_depth = 0.0;     // the largest of them
  int key = -1;               // its sample (-1: the body never goes under the floor)
  int vertex = -1;            // the lowest body vertex at that sample
  int joint = -1;             // that vertex's dominant joint
};

// depth(t) of `vertices` (body_floor_vertices) at each of `times`; poses
// use the clip on top of the neutral (bind) locals, as grounding does.
BodyFloorDepth body_under_floor(const Character& character, std::span<const int> vertices, const Clip& clip,
                                std::span<const double> times, double floor_y);
// The same with the vertices indexed once (index_lowest_skin of `character`
// and them): a transfer measures the same body at several steps and clips.
BodyFloorDepth body_under_floor(const Character& character, const LowestSkinIndex& index, const Clip& clip,
                                std::span<const double> times, double floor_y);

// The lift that keeps the body within `tolerance` (model units) of the
// floor: max(0, depth(t) - tolerance), smoothed as grounding smooths
// (smooth_lift over `smoothing_radius_s` seconds of `times`: never below
// the raw lift). All zeros when the body never goes deeper than tolerance.
std::vector<double> body_floor_lift(const BodyFloorDepth& depth, std::span<const double> times, double tolerance,
                                    double smoothing_radius_s);

}  // namespace rig
