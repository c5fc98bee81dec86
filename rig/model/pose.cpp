#include "rig/model/pose.h"

#include <algorithm>
#include <cassert>

namespace rig {
namespace {

// Index of the key interval containing t and the blend factor in it.
struct Segment {
  size_t k0 = 0, k1 = 0;
  double u = 0.0, dt = 0.0;
};

Segment find_segment(const std::vector<double>& times, double t) {
  Segment s;
  const size_t n = times.size();
  if (n == 1 || t <= times.front()) return s;
  if (t >= times.back()) {
    s.k0 = s.k1 = n - 1;
    return s;
  }
  size_t k1 = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
  s.k0 = k1 - 1;
  s.k1 = k1;
  s.dt = times[k1] - times[k1 - 1];
  s.u = s.dt > 0 ? (t - times[k1 - 1]) / s.dt : 0.0;
  return s;
}

template <typename T>
T hermite(const Track<T>& tr, const Segment& s) {
  // glTF cubic spline: values are (in-tangent, value, out-tangent) per key.
  const T& p0 = tr.values[3 * s.k0 + 1];
  const T& m0 = tr.values[3 * s.k0 + 2];
  const T& p1 = tr.values[3 * s.k1 + 1];
  const T& m1 = tr.values[3 * s.k1 + 0];
  const double u = s.u, u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * s.dt * m0 + (-2 * u3 + 3 * u2) * p1 +
         (u3 - u2) * s.dt * m1;
}

template <typename T>
const T& key_value(const Track<T>& tr, size_t k) {
  return tr.interpolation == Interpolation::kCubicSpline ? tr.values[3 * k + 1] : tr.values[k];
}

}  // namespace

Vec3 sample(const Track<Vec3>& tr, double time) {
  assert(!tr.empty());
  Segment s = find_segment(tr.times, time);
  if (s.k0 == s.k1 || tr.interpolation == Interpolation::kStep) return key_value(tr, s.k0);
  if (tr.interpolation == Interpolation::kCubicSpline) return hermite(tr, s);
  return (1 - s.u) * tr.values[s.k0] + s.u * tr.values[s.k1];
}

Quat sample(const Track<Quat>& tr, double time) {
  assert(!tr.empty());
  Segment s = find_segment(tr.times, time);
  if (s.k0 == s.k1 || tr.interpolation == Interpolation::kStep)
    return key_value(tr, s.k0).normalized();
  if (tr.interpolation == Interpolation::kCubicSpline) {
    auto v = [&](size_t i) { return tr.values[i].coeffs(); };
    const double u = s.u, u2 = u * u, u3 = u2 * u;
    Eigen::Vector4d q = (2 * u3 - 3 * u2 + 1) * v(3 * s.k0 + 1) +
                        (u3 - 2 * u2 + u) * s.dt * v(3 * s.k0 + 2) +
                        (-2 * u3 + 3 * u2) * v(3 * s.k1 + 1) + (u3 - u2) * s.dt * v(3 * s.k1);
    Quat out;
    out.coeffs() = q;
    return out.normalized();
  }
  return tr.values[s.k0].slerp(s.u, tr.values[s.k1]).normalized();
}

void key_track_at(Track<Quat>& track, const Quat& neutral, std::span<const double> times) {
  if (track.interpolation == Interpolation::kLinear && track.values.size() == times.size() &&
      std::equal(track.times.begin(), track.times.end(), times.begin(), times.end()))
    return;
  std::vector<Quat> values;
  values.reserve(times.size());
  for (double t : times) values.push_back(track.empty() ? neutral : sample(track, t));
  track.times.assign(times.begin(), times.end());
  track.values = std::move(values);
  track.interpolation = Interpolation::kLinear;
}

void apply_clip(const Clip& clip, double time, std::span<Transform> locals) {
  for (const JointTracks& jt : clip.tracks) {
    if (jt.joint < 0 || jt.joint >= static_cast<int>(locals.size())) continue;
    Transform& l = locals[jt.joint];
    if (!jt.translation.empty()) l.translation = sample(jt.translation, time);
    if (!jt.rotation.empty()) l.rotation = sample(jt.rotation, time);
    if (!jt.scale.empty()) l.scale = sample(jt.scale, time);
  }
}

void local_to_world(const Skeleton& sk, std::span<const Transform> locals, std::span<Mat4> world) {
  assert(locals.size() == static_cast<size_t>(sk.size()) && world.size() == locals.size());
  for (int i = 0; i < sk.size(); ++i) {
    const int p = sk.parents[i];
    const Mat4& parent = p < 0 ? sk.root_parent_world[i] : world[p];
    world[i] = parent * locals[i].matrix();
  }
}

std::vector<Mat4> local_to_world(const Skeleton& sk, std::span<const Transform> locals) {
  std::vector<Mat4> w(locals.size());
  local_to_world(sk, locals, w);
  return w;
}

std::vector<Mat4> pose_at(const Skeleton& sk, const Clip& clip, double time) {
  std::vector<Transform> locals = sk.stored_local;
  apply_clip(clip, time, locals);
  return local_to_world(sk, locals);
}

namespace {

std::vector<Eigen::Affine3d> skinning_matrices(const Skeleton& sk, std::span<const Mat4> world) {
  std::vector<Eigen::Affine3d> skinning(world.size());
  for (size_t j = 0; j < world.size(); ++j) skinning[j].matrix() = world[j] * sk.inverse_bind[j];
  return skinning;
}

// One vertex skinned: the same arithmetic for skin_positions and skin_vertices.
inline Vec3 skin_vertex(const std::vector<Eigen::Affine3d>& skinning, const Vec3& p, const std::vector<Influence>& infl) {
  if (infl.empty()) return p;
  Vec3 acc = Vec3::Zero();
  for (const Influence& in : infl) acc += in.weight * (skinning[in.joint] * p);
  return acc;
}

}  // namespace

void skin_positions(const Mesh& mesh, const Skin& skin, const Skeleton& sk,
                    std::span<const Mat4> world, std::span<Vec3> out) {
  assert(out.size() == mesh.positions.size() && world.size() == static_cast<size_t>(sk.size()));
  const std::vector<Eigen::Affine3d> skinning = skinning_matrices(sk, world);
  for (size_t v = 0; v < mesh.positions.size(); ++v)
    out[v] = skin_vertex(skinning, mesh.positions[v], skin.influences[v]);
}

void skin_vertices(const Mesh& mesh, const Skin& skin, const Skeleton& sk, std::span<const Mat4> world,
                   std::span<const int> vertices, std::span<Vec3> out) {
  assert(out.size() == vertices.size() && world.size() == static_cast<size_t>(sk.size()));
  const std::vector<Eigen::Affine3d> skinning = skinning_matrices(sk, world);
  for (size_t i = 0; i < vertices.size(); ++i) {
    const size_t v = static_cast<size_t>(vertices[i]);
    out[i] = skin_vertex(skinning, mesh.positions[v], skin.influences[v]);
  }
}

std::vector<Vec3> skin_positions(const Mesh& mesh, const Skin& skin, const Skeleton& sk,
                                 std::span<const Mat4> world) {
  std::vector<Vec3> out(mesh.positions.size());
  skin_positions(mesh, skin, sk, world, out);
  return out;
}

}  // namespace rig
