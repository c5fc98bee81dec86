#include "rig/io/gltf/gltf_read_clips.h"

#include <algorithm>
#include <map>

#include "rig/io/gltf/gltf_source.h"
#include "rig/io/read_checks.h"

namespace rig {
namespace {

bool moves_a_node(const tinygltf::AnimationChannel& ch) {
  return ch.target_path == "translation" || ch.target_path == "rotation" ||
         ch.target_path == "scale";
}

// Channels a clip does not hold, counted for a note: they stay in the
// document as stored (the writer edits only channels on joints).
struct UnreadChannels {
  int weights = 0;                      // morph target weights
  int off_joint = 0;                    // translation, rotation or scale of a node that is no joint
  int other = 0;                        // another path (KHR_animation_pointer, an extension's)
  std::vector<std::string> animations;  // the names of those that hold any

  void note(const std::string& path, std::vector<std::string>& notes) const {
    const int total = weights + off_joint + other;
    if (total == 0) return;
    std::string what;
    auto add = [&](int n, const char* kind) {
      if (n) what += std::to_string(n) + " " + kind + ", ";
    };
    add(weights, "on morph target weights");
    add(off_joint, "on nodes that are not joints");
    add(other, "on other paths");
    for (size_t i = 0; i < animations.size() && i < 3; ++i)
      what += (i ? ", '" : "in '") + animations[i] + "'";
    if (animations.size() > 3) what += ", ...";
    notes.push_back(path + ": " + std::to_string(total) + " animation channels (" + what +
                    ") not read: kept in the file as they are (clips here move joints)");
  }
};

// One channel of `anim` on skeleton joint `joint` into its tracks and the clip's duration.
Status read_channel(const std::string& path, const tinygltf::Model& m, const tinygltf::Animation& anim,
                    const tinygltf::AnimationChannel& ch, const int joint, std::map<int, JointTracks>& tracks,
                    Clip& clip, int& zero_keys) {
  if (!valid_index(ch.sampler, anim.samplers)) return bad_data(path, "animation channel names a missing sampler");
  const tinygltf::AnimationSampler& s = anim.samplers[ch.sampler];
  std::vector<double> times, values;
  int tc = 0, vc = 0;
  std::string err;
  if (!read_accessor(m, s.input, times, tc, err) || !read_accessor(m, s.output, values, vc, err) || tc != 1)
    return bad_data(path, "animation '" + anim.name + "': " + (err.empty() ? "key times are not scalars" : err));
  const Interpolation interp = s.interpolation == "STEP" ? Interpolation::kStep
                               : s.interpolation == "CUBICSPLINE" ? Interpolation::kCubicSpline
                                                                  : Interpolation::kLinear;
  const size_t per_key = interp == Interpolation::kCubicSpline ? 3 : 1;
  if (!std::is_sorted(times.begin(), times.end()) || times.empty())
    return bad_data(path, "animation '" + anim.name + "' has unsorted or empty key times");
  if (times.size() > static_cast<size_t>(kMaxFrames) || times.back() > kMaxClipSeconds)
    return bad_data(path, "animation '" + anim.name + "' is longer than " + std::to_string(kMaxFrames) + " keys or " +
                         std::to_string(static_cast<int>(kMaxClipSeconds)) + " s");
  JointTracks& jt = tracks[joint];
  jt.joint = joint;
  const bool is_rot = ch.target_path == "rotation";
  const size_t want = is_rot ? 4 : 3;
  if (static_cast<size_t>(vc) != want || values.size() != times.size() * per_key * want)
    return bad_data(path, "animation '" + anim.name + "' output does not match its input");
  if (is_rot) {
    jt.rotation.times = times;
    jt.rotation.interpolation = interp;
    for (size_t k = 0; k < values.size(); k += 4) {
      Quat q(values[k + 3], values[k], values[k + 1], values[k + 2]);
      if (interp != Interpolation::kCubicSpline && q.norm() <= 1e-6) {  // tangents may be zero
        q = jt.rotation.values.empty() ? Quat::Identity() : jt.rotation.values.back();
        ++zero_keys;
      }
      jt.rotation.values.push_back(q);
    }
  } else {
    Track<Vec3>& tr = ch.target_path == "translation" ? jt.translation : jt.scale;
    tr.times = times;
    tr.interpolation = interp;
    for (size_t k = 0; k < values.size(); k += 3) tr.values.emplace_back(values[k], values[k + 1], values[k + 2]);
  }
  clip.duration = std::max(clip.duration, times.back());
  return Status::Ok();
}

}  // namespace

// Step of load_gltf: clips from the channels on joint nodes, with notes of keys dropped or replaced.
Status read_gltf_clips(const std::string& path, const tinygltf::Model& m,
                       const std::map<int, int>& skeleton_index_of_node, std::vector<Clip>& clips,
                       std::vector<std::string>& notes) {
  int zero_keys = 0;
  UnreadChannels unread;
  for (const tinygltf::Animation& anim : m.animations) {
    Clip clip;
    clip.name = anim.name;
    std::map<int, JointTracks> tracks;
    const int unread_before = unread.weights + unread.off_joint + unread.other;
    for (const tinygltf::AnimationChannel& ch : anim.channels) {
      auto it = skeleton_index_of_node.find(ch.target_node);
      if (!moves_a_node(ch)) {
        ++(ch.target_path == "weights" ? unread.weights : unread.other);
        continue;
      }
      if (it == skeleton_index_of_node.end()) {
        ++unread.off_joint;
        continue;
      }
      if (Status s = read_channel(path, m, anim, ch, it->second, tracks, clip, zero_keys); !s.ok()) return s;
    }
    if (unread.weights + unread.off_joint + unread.other > unread_before)
      unread.animations.push_back(anim.name);
    for (auto& [j, jt] : tracks) clip.tracks.push_back(std::move(jt));
    if (const int dropped = make_key_times_increasing(clip))
      notes.push_back(path + ": animation '" + anim.name + "': " + std::to_string(dropped) +
                      " keys at a repeated time dropped");
    clips.push_back(std::move(clip));
  }
  unread.note(path, notes);
  if (zero_keys)
    notes.push_back(path + ": " + std::to_string(zero_keys) +
                    " zero rotation keys replaced by the previous key (or identity)");
  return Status::Ok();
}

}  // namespace rig
