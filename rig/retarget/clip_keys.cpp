#include "rig/retarget/clip_keys.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/model/pose.h"

namespace rig {
namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

template <typename T>
Track<T> trim_track(const Track<T>& tr, double start) {
  if (tr.times.size() <= 1) return tr;
  Track<T> out;
  out.interpolation = tr.interpolation == Interpolation::kStep ? Interpolation::kStep : Interpolation::kLinear;
  out.times.push_back(0.0);
  out.values.push_back(sample(tr, start));
  for (double t : tr.times) {
    if (t <= start) continue;
    out.times.push_back(t - start);
    out.values.push_back(sample(tr, t));
  }
  return out;
}

}  // namespace

// The retargeted clip's key times: the longest track's (retarget samples
// every animated track at the same times).
std::vector<double> key_times(const Clip& clip) {
  const std::vector<double>* best = nullptr;
  for (const JointTracks& jt : clip.tracks) {
    for (const std::vector<double>* t : {&jt.rotation.times, &jt.translation.times})
      if (!best || t->size() > best->size()) best = t;
  }
  return best ? *best : std::vector<double>{};
}

// First two distinct key times of the clip, or false.
bool first_two_keys(const Clip& clip, double& t0, double& t1) {
  bool found = false;
  for (const JointTracks& jt : clip.tracks) {
    for (const std::vector<double>* t : {&jt.rotation.times, &jt.translation.times}) {
      if (t->size() < 2) continue;
      if (!found || (*t)[0] < t0 || ((*t)[0] == t0 && (*t)[1] < t1)) {
        t0 = (*t)[0];
        t1 = (*t)[1];
        found = true;
      }
    }
  }
  return found && t1 > t0;
}

double first_key_time(const Clip& clip, const std::vector<char>& skip) {
  double t = std::numeric_limits<double>::infinity();
  for (const JointTracks& jt : clip.tracks) {
    if (jt.joint >= 0 && jt.joint < static_cast<int>(skip.size()) && skip[static_cast<size_t>(jt.joint)]) continue;
    for (const std::vector<double>* times : {&jt.rotation.times, &jt.translation.times, &jt.scale.times})
      if (!times->empty()) t = std::min(t, times->front());
  }
  return std::isfinite(t) && t > 0.0 && t < clip.duration ? t : 0.0;
}

bool starts_with_bind_pose(const Skeleton& sk, const Clip& clip) {
  double t0 = 0, t1 = 0;
  if (!first_two_keys(clip, t0, t1)) return false;
  std::vector<Transform> a = sk.neutral_local, b = sk.neutral_local;
  apply_clip(clip, t0, a);
  apply_clip(clip, t1, b);
  double scale = 0;  // a length to judge translations by
  for (const Mat4& m : sk.bind_world) scale = std::max(scale, position(m).norm());
  double jump = 0;
  for (int j = 0; j < sk.size(); ++j) {
    if (a[j].rotation.angularDistance(sk.neutral_local[j].rotation) > 1e-3) return false;
    // A root may stand anywhere: mocap records its T-pose frame where the
    // performer starts, not at the rest position.
    if (sk.parents[j] < 0) continue;
    if ((a[j].translation - sk.neutral_local[j].translation).norm() > 1e-4 * std::max(scale, 1e-12)) return false;
    jump = std::max(jump, a[j].rotation.angularDistance(b[j].rotation));
  }
  return jump > 0.1;
}

Clip trim_clip_start(const Clip& clip, double start) {
  Clip out;
  out.name = clip.name;
  out.duration = std::max(0.0, clip.duration - start);
  for (const JointTracks& jt : clip.tracks) {
    JointTracks t;
    t.joint = jt.joint;
    t.translation = trim_track(jt.translation, start);
    t.rotation = trim_track(jt.rotation, start);
    t.scale = trim_track(jt.scale, start);
    out.tracks.push_back(std::move(t));
  }
  return out;
}

}  // namespace rig
