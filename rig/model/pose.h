// Clip sampling, pose evaluation (local -> world) and linear blend skinning.
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// Samples one track at `time` seconds (clamped to the key range). Linear
// tracks lerp (slerp for rotations), STEP holds the previous key, cubic
// spline uses glTF's Hermite form.
Vec3 sample(const Track<Vec3>& track, double time);
Quat sample(const Track<Quat>& track, double time);

// Keys `track` linearly at exactly `times` (ascending), sampling what it
// had (`neutral` when it is empty); a linear track already keyed there is
// left as it is.
void key_track_at(Track<Quat>& track, const Quat& neutral, std::span<const double> times);

// Overwrites the locals of the joints the clip animates; others keep what the
// caller put there (usually Skeleton::stored_local or neutral_local).
// `locals` has one entry per skeleton joint.
void apply_clip(const Clip& clip, double time, std::span<Transform> locals);

// World (bind/scene space) matrices from locals, parents first.
void local_to_world(const Skeleton& skeleton, std::span<const Transform> locals,
                    std::span<Mat4> world);
std::vector<Mat4> local_to_world(const Skeleton& skeleton,
                                 std::span<const Transform> locals);

// Convenience: world matrices of `clip` at `time` on top of the stored pose.
std::vector<Mat4> pose_at(const Skeleton& skeleton, const Clip& clip, double time);

// Linear blend skinning: out[v] = sum_j w_j * world_j * inverse_bind_j * p_v.
void skin_positions(const Mesh& mesh, const Skin& skin, const Skeleton& skeleton,
                    std::span<const Mat4> world, std::span<Vec3> out);
std::vector<Vec3> skin_positions(const Mesh& mesh, const Skin& skin,
                                 const Skeleton& skeleton, std::span<const Mat4> world);
// The listed vertices only (out[i]: vertex vertices[i]), bit for bit as
// skin_positions gives them: for measures that read a few vertices.
void skin_vertices(const Mesh& mesh, const Skin& skin, const Skeleton& skeleton, std::span<const Mat4> world,
                   std::span<const int> vertices, std::span<Vec3> out);

}  // namespace rig
