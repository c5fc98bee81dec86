// Fast hips motion over a base clip (see hips_motion_clip.h).
#include "harness/gate/clips/hips_motion_clip.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "rig/anatomy/roles.h"
#include "rig/model/pose.h"

namespace harness {
namespace {

using rig::Status;

constexpr double kKeyRate = 60.0;  // keys per second: 24 per 0.4 s swing

struct Motion {
  double amplitude = 0.0, period = 1.0;
  double at(double t) const { return amplitude * std::sin(2.0 * M_PI * t / period); }
  double hop(double t) const { return amplitude * std::abs(std::sin(M_PI * t / period)); }
};

bool read_motion(const nlohmann::json& spec, const char* key, Motion& out) {
  if (!spec.contains(key)) return true;
  const auto& v = spec[key];
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number()) return false;
  out.amplitude = v[0].get<double>();
  out.period = v[1].get<double>();
  return std::isfinite(out.amplitude) && std::abs(out.amplitude) <= 1e3 && out.period > 0.01 &&
         out.period <= 1e3;
}

// `track` sampled at `times` (base time `base_t[k]` for key k), linear.
template <class T>
rig::Track<T> resampled(const rig::Track<T>& track, const std::vector<double>& times,
                        const std::vector<double>& base_t) {
  rig::Track<T> out;
  if (track.empty()) return out;
  out.times = times;
  for (double t : base_t) out.values.push_back(rig::sample(track, t));
  return out;
}

}  // namespace

Status add_hips_motion_clip(rig::Character& c, const nlohmann::json& spec,
                            const std::string& where) {
  auto bad = [&](const std::string& m) {
    return Status::Error(Status::Code::kBadData, where + ": " + m);
  };
  if (!spec.is_object() || !spec.contains("name") || !spec["name"].is_string() ||
      !spec.contains("from") || !spec["from"].is_string() || !spec.contains("duration_s") ||
      !spec["duration_s"].is_number())
    return bad("needs \"name\", \"from\" (a clip) and \"duration_s\"");
  const double duration = spec["duration_s"].get<double>();
  if (!(duration > 0.0 && duration <= 60.0)) return bad("duration_s must be 0..60");
  Motion yaw, sideways, hop;
  if (!read_motion(spec, "yaw_deg", yaw) || !read_motion(spec, "sideways_m", sideways) ||
      !read_motion(spec, "hop_m", hop))
    return bad("yaw_deg, sideways_m and hop_m are [amplitude, period_s] (period 0.01..1000 s)");
  const auto base_it = std::find_if(c.clips.begin(), c.clips.end(), [&](const rig::Clip& k) {
    return k.name == spec["from"].get<std::string>();
  });
  if (base_it == c.clips.end()) return bad("no clip '" + spec["from"].get<std::string>() + "'");
  const rig::Clip base = *base_it;
  const int hips = rig::hips_joint(c.skeleton);
  if (hips < 0 || base.duration <= 0.0) return bad("no hips or an empty base clip");

  const int keys = static_cast<int>(std::lround(duration * kKeyRate)) + 1;
  std::vector<double> times(static_cast<size_t>(keys)), base_t(static_cast<size_t>(keys));
  for (int k = 0; k < keys; ++k) {
    times[static_cast<size_t>(k)] = duration * k / (keys - 1);
    base_t[static_cast<size_t>(k)] = std::fmod(times[static_cast<size_t>(k)], base.duration);
  }
  rig::Clip out;
  out.name = spec["name"].get<std::string>();
  out.duration = duration;
  bool hips_keyed = false;
  for (const rig::JointTracks& jt : base.tracks) {
    rig::JointTracks r;
    r.joint = jt.joint;
    r.translation = resampled(jt.translation, times, base_t);
    r.rotation = resampled(jt.rotation, times, base_t);
    r.scale = resampled(jt.scale, times, base_t);
    hips_keyed |= jt.joint == hips;
    out.tracks.push_back(std::move(r));
  }
  if (!hips_keyed) {
    rig::JointTracks r;
    r.joint = hips;
    out.tracks.push_back(std::move(r));
  }
  // The motion in the hips' parent space (world for a root hips): a turn
  // about the vertical through the hips, and a shift sideways (+X) and up.
  const rig::Transform& rest = c.skeleton.stored_local[static_cast<size_t>(hips)];
  const double units = 1.0 / c.meters_per_unit;
  for (rig::JointTracks& jt : out.tracks) {
    if (jt.joint != hips) continue;
    if (jt.rotation.empty())
      jt.rotation =
          rig::Track<rig::Quat>{times, std::vector<rig::Quat>(times.size(), rest.rotation)};
    if (jt.translation.empty())
      jt.translation =
          rig::Track<rig::Vec3>{times, std::vector<rig::Vec3>(times.size(), rest.translation)};
    for (size_t k = 0; k < times.size(); ++k) {
      const double t = times[k];
      const rig::Quat turn(Eigen::AngleAxisd(yaw.at(t) * M_PI / 180.0, rig::Vec3::UnitY()));
      jt.rotation.values[k] = (turn * jt.rotation.values[k]).normalized();
      jt.translation.values[k] += units * rig::Vec3(sideways.at(t), hop.hop(t), 0.0);
    }
  }
  c.clips.push_back(std::move(out));
  return Status::Ok();
}

}  // namespace harness
