#include "rig/retarget/own_rig.h"

#include <algorithm>
#include <cmath>

#include "rig/retarget/track_sampling.h"

namespace rig {
namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }
Quat rotation_of(const Mat4& m) { return Transform::from_matrix(m).rotation; }

// A length to judge bind translations by: the diagonal of the bind joints'
// bounding box (about the rig's height and length, wherever it stands).
double size_of(const Skeleton& sk) {
  if (sk.bind_world.empty()) return 0.0;
  Vec3 lo = position(sk.bind_world[0]), hi = lo;
  for (const Mat4& m : sk.bind_world) {
    lo = lo.cwiseMin(position(m));
    hi = hi.cwiseMax(position(m));
  }
  return (hi - lo).norm();
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
  if (!hips) return {};
  // Source joints the target lacks may only be what strip-tail removes (no
  // body role): a body joint the target does not have is another rig.
  std::vector<char> used(ns, 0);
  for (int s : source_of)
    if (s >= 0) used[s] = 1;
  for (int s = 0; s < ns; ++s)
    if (!used[s] && source.roles[s].part != BodyPart::kNone) return {};
  return source_of;
}

Clip copy_own_rig_clip(const Skeleton& source, const Clip& clip, const Skeleton& target,
                       std::span<const int> source_of) {
  const int nt = target.size(), ns = source.size();
  if (static_cast<int>(source_of.size()) != nt || static_cast<int>(target.neutral_local.size()) != nt ||
      static_cast<int>(source.neutral_local.size()) != ns)
    return {};
  for (int s : source_of)
    if (s >= ns) return {};
  // Per source joint, each channel's track: the last one the clip has, as
  // apply_clip lets a later track of a joint win.
  std::vector<const Track<Quat>*> turn(ns, nullptr);
  std::vector<const Track<Vec3>*> move(ns, nullptr), scale(ns, nullptr);
  for (const JointTracks& jt : clip.tracks) {
    if (jt.joint < 0 || jt.joint >= ns) continue;
    if (!jt.rotation.empty()) turn[jt.joint] = &jt.rotation;
    if (!jt.translation.empty()) move[jt.joint] = &jt.translation;
    if (!jt.scale.empty()) scale[jt.joint] = &jt.scale;
  }
  const std::vector<Transform>& held =
      static_cast<int>(source.stored_local.size()) == ns ? source.stored_local : source.neutral_local;
  Clip out;
  out.name = clip.name;
  out.duration = std::isfinite(clip.duration) ? std::max(0.0, clip.duration) : 0.0;
  out.tracks.resize(nt);
  for (int j = 0; j < nt; ++j) {
    JointTracks& jt = out.tracks[j];
    jt.joint = j;
    const int s = source_of[j];
    // The artist's keys, times and interpolation as they are. A channel the
    // clip leaves alone plays as the source file's node holds it (glTF and
    // FBX players), not as its bind pose: one key of that; a joint of the
    // target's alone (a grown tail) stays in its bind pose.
    const Transform& rest = s < 0 ? target.neutral_local[j] : held[s];
    jt.rotation = s >= 0 && turn[s] ? *turn[s] : constant_track(rest.rotation);
    jt.translation = s >= 0 && move[s] ? *move[s] : constant_track(rest.translation);
    jt.scale = s >= 0 && scale[s] ? *scale[s] : constant_track(rest.scale);
  }
  return out;
}

}  // namespace rig
