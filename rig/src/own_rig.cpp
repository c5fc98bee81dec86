#include "rig/own_rig.h"

#include <algorithm>
#include <cmath>

#include "rig/pose.h"
#include "track_sampling.h"

namespace rig {
namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }
Quat rotation_of(const Mat4& m) { return Transform::from_matrix(m).rotation; }

// A length to judge bind translations by: the farthest bind joint from the
// origin (a rig standing at its origin: about its height).
double size_of(const Skeleton& sk) {
  double s = 0.0;
  for (const Mat4& m : sk.bind_world) s = std::max(s, position(m).norm());
  return s;
}

bool same_bind(const Skeleton& a, int ja, const Skeleton& b, int jb, double max_rotation, double max_translation) {
  const Transform& la = a.neutral_local[ja];
  const Transform& lb = b.neutral_local[jb];
  if (!(la.rotation.angularDistance(lb.rotation) <= max_rotation)) return false;
  // Local offsets measured in bind space (a rig scaled at its root keeps
  // its joints' offsets in centimetres of another unit).
  const int p = b.parents[jb];
  const Mat4& parent = p < 0 ? b.root_parent_world[jb] : b.bind_world[p];
  if (!((parent.block<3, 3>(0, 0) * (la.translation - lb.translation)).norm() <= max_translation)) return false;
  if (!((la.scale - lb.scale).norm() <= 1e-3 * std::max(1.0, lb.scale.norm()))) return false;
  const Mat4& wa = a.bind_world[ja];
  const Mat4& wb = b.bind_world[jb];
  if (!(rotation_of(wa).angularDistance(rotation_of(wb)) <= max_rotation)) return false;
  return (position(wa) - position(wb)).norm() <= max_translation;
}

}  // namespace

std::vector<int> own_rig_joints(const Skeleton& source, const Skeleton& target, const OwnRigOptions& opt) {
  const int nt = target.size(), ns = source.size();
  if (nt == 0 || ns == 0) return {};
  // Every per-joint array this reads must be the skeleton's size.
  for (const Skeleton* sk : {&source, &target}) {
    const size_t n = sk->names.size();
    if (sk->parents.size() != n || sk->roles.size() != n || sk->neutral_local.size() != n ||
        sk->bind_world.size() != n || sk->root_parent_world.size() != n)
      return {};
  }
  const double tol = opt.max_translation * size_of(target);
  std::vector<int> source_of(nt, -1);
  bool hips = false;
  for (int j = 0; j < nt; ++j) {
    const int s = source.find(target.names[j]);
    const bool body = target.roles[j].part != BodyPart::kNone;
    if (s < 0) {
      if (body) return {};  // a body joint the clip's rig does not have
      continue;
    }
    if (source.roles[s].part != target.roles[j].part) return {};
    const int tp = target.parents[j], sp = source.parents[s];
    if ((tp < 0) != (sp < 0) || (tp >= 0 && target.names[tp] != source.names[sp])) return {};
    if (!same_bind(source, s, target, j, opt.max_rotation, tol)) return {};
    source_of[j] = s;
    hips |= target.roles[j].part == BodyPart::kHips;
  }
  return hips ? source_of : std::vector<int>{};
}

Clip copy_own_rig_clip(const Skeleton& source, const Clip& clip, const Skeleton& target,
                       std::span<const int> source_of, double sample_rate) {
  const int nt = target.size(), ns = source.size();
  if (!(sample_rate > 0) || static_cast<int>(source_of.size()) != nt ||
      static_cast<int>(target.neutral_local.size()) != nt || static_cast<int>(source.neutral_local.size()) != ns)
    return {};
  for (int s : source_of)
    if (s >= ns) return {};
  // Which channels of each source joint the clip animates.
  std::vector<char> turns(ns, 0), moves(ns, 0), scales(ns, 0);
  for (const JointTracks& jt : clip.tracks) {
    if (jt.joint < 0 || jt.joint >= ns) continue;
    turns[jt.joint] |= !jt.rotation.empty();
    moves[jt.joint] |= !jt.translation.empty();
    scales[jt.joint] |= !jt.scale.empty();
  }
  // Sample times as rig::retarget's (clip durations are bounded at load).
  const std::vector<double> times = sample_times(clip.duration, sample_rate);
  const double duration = times.back();

  const std::vector<Transform>& held =
      static_cast<int>(source.stored_local.size()) == ns ? source.stored_local : source.neutral_local;
  Clip out;
  out.name = clip.name;
  out.duration = duration;
  out.tracks.resize(nt);
  for (int j = 0; j < nt; ++j) {
    JointTracks& jt = out.tracks[j];
    jt.joint = j;
    const int s = source_of[j];
    // A channel the clip leaves alone plays as the source file's node holds
    // it (glTF and FBX players), not as its bind pose; a joint of the
    // target's alone (a grown tail) stays in its bind pose.
    const Transform& rest = s < 0 ? target.neutral_local[j] : held[s];
    jt.rotation = s >= 0 && turns[s] ? Track<Quat>{times, {}} : constant_track(rest.rotation);
    jt.translation = s >= 0 && moves[s] ? Track<Vec3>{times, {}} : constant_track(rest.translation);
    jt.scale = s >= 0 && scales[s] ? Track<Vec3>{times, {}} : constant_track(rest.scale);
  }
  std::vector<Transform> locals;
  for (double t : times) {
    locals = held;
    apply_clip(clip, t, locals);
    for (int j = 0; j < nt; ++j) {
      const int s = source_of[j];
      if (s < 0) continue;
      JointTracks& jt = out.tracks[j];
      if (turns[s]) {
        Quat q = locals[s].rotation.normalized();
        // Shortest path from the previous key (q and -q are one rotation).
        if (!jt.rotation.values.empty() && jt.rotation.values.back().coeffs().dot(q.coeffs()) < 0)
          q.coeffs() = -q.coeffs();
        jt.rotation.values.push_back(q);
      }
      if (moves[s]) jt.translation.values.push_back(locals[s].translation);
      if (scales[s]) jt.scale.values.push_back(locals[s].scale);
    }
  }
  return out;
}

}  // namespace rig
