// Bake the tail spring into every clip (SPEC §9; issue 12). See bake_clips.h.
#include "pipeline/bake_clips.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pipeline/bake_colliders.h"
#include "pipeline/posed_capsules.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/anatomy/facing.h"
#include "rig/model/pose.h"
#include "rig/anatomy/roles.h"
#include "rig/model/weld.h"
#include "measure/tail_penetration.h"
#include "solver/bake.h"

namespace pipeline {
namespace {

using rig::Status;
using Eigen::Affine3d;
using Eigen::Vector3d;

constexpr double kPi = 3.14159265358979323846;

Status bad(const std::string& m) { return Status::Error(Status::Code::kBadData, m); }

// The solver's hips is the bone Tail_1 hangs from: its motion is exactly what
// moves the tail root (a rig's "Hips" may be a sibling branch, as on the
// Quaternius T-Rex whose tail hangs from "Back"), so no bone between the two
// is assumed to stay still.
solver::ChainRigInput rig_input(const rig::Skeleton& sk) {
  solver::ChainRigInput in;
  in.names = sk.names;
  in.parents = sk.parents;
  in.inverse_bind = sk.inverse_bind;
  in.hips = -1;
  for (int j = 0; j < sk.size(); ++j)
    if (solver::parse_tail_name(sk.names[j], nullptr) == 1 && sk.parents[j] >= 0) {
      in.hips = sk.parents[j];
      break;
    }
  return in;
}

// Two body poses of the clip compared (tail excluded): largest joint
// position difference (rig units) and rotation difference (degrees).
void pose_error(const rig::Skeleton& sk, const rig::Clip& clip, double ta, double tb, const std::vector<char>& tail,
                double& pos_err, double& ang_err) {
  const auto a = rig::pose_at(sk, clip, ta), b = rig::pose_at(sk, clip, tb);
  pos_err = ang_err = 0;
  for (int j = 0; j < sk.size(); ++j) {
    if (tail[static_cast<size_t>(j)]) continue;
    pos_err = std::max(pos_err, (a[j].block<3, 1>(0, 3) - b[j].block<3, 1>(0, 3)).norm());
    const Eigen::Matrix3d r = a[j].block<3, 3>(0, 0).inverse() * b[j].block<3, 3>(0, 0);
    const double c = std::clamp((r.trace() - 1.0) / 2.0, -1.0, 1.0);
    ang_err = std::max(ang_err, std::acos(c) * 180.0 / kPi);
  }
}

// The clip's key interval: the median spacing of its keys (0 without two).
double key_interval(const rig::Clip& clip) {
  std::vector<double> t = rig::key_times(clip), d;
  for (size_t k = 1; k < t.size(); ++k)
    if (t[k] > t[k - 1]) d.push_back(t[k] - t[k - 1]);
  if (d.empty()) return 0.0;
  std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
  return d[d.size() / 2];
}

// A cycle exported without its closing frame (the last key one key step
// before the first pose comes round again: a walk keyed on frames 0..25
// whose frame 26 is frame 0): its span is a whole number of its (median)
// key steps, and the step from its last pose back to its first is no
// larger than twice the body's own steps at either end. A clip that ends elsewhere (a jump
// landing in an idle, a death) moves far more between its end and its
// start than one key step. Returns the clip's key intervals over
// [start, duration] (the loop then has one more), 0 when it is not such a
// cycle.
int open_loop_intervals(const rig::Skeleton& sk, const rig::Clip& clip, double start, const std::vector<char>& tail,
                        double wrap_pos, double wrap_deg) {
  const double dt = key_interval(clip), end = clip.duration;
  if (!(dt > 0) || !(end - start >= 4 * dt)) return 0;
  const double intervals = (end - start) / dt;
  constexpr double kMaxIntervals = 1e6;  // a bound on the samples baked
  if (intervals > kMaxIntervals) return 0;
  const long m = std::lround(intervals);
  // Float key times (glTF stores float32): on the grid within 1e-3 of a step.
  if (std::abs(intervals - static_cast<double>(m)) > 1e-3) return 0;
  double p0 = 0, a0 = 0, p1 = 0, a1 = 0;
  pose_error(sk, clip, start, start + dt, tail, p0, a0);
  pose_error(sk, clip, end - dt, end, tail, p1, a1);
  constexpr double kStepFactor = 2.0;
  const bool one_step = wrap_pos <= kStepFactor * std::max(p0, p1) && wrap_deg <= kStepFactor * std::max(a0, a1);
  return one_step ? static_cast<int>(m) : 0;
}

// A loop recorded over one sample more than the clip's keys (the implied
// closing frame): drops bake_loop's closing key so the keys are the clip's.
void drop_closing_key(solver::BakeResult& br) {
  if (br.frames < 2) return;
  const size_t n = static_cast<size_t>(br.bones);
  br.frames -= 1;
  br.times.pop_back();
  br.tip_in_hips.pop_back();
  br.rotations.resize(br.rotations.size() - n);
}

// Tail into the legs over the baked keys: the body as the clip poses it,
// the tail bones as baked (before the keys are written into the clip).
void measure_legs(const rig::Character& c, const rig::Clip& clip, const solver::ChainDesc& desc,
                  const BakeColliders& legs, const solver::BakeResult& br, double start, double height_units,
                  ClipBakeReport& r) {
  const rig::Skeleton& sk = c.skeleton;
  const size_t n = desc.links.size();
  std::vector<double> depths;
  for (int k = 0; k < br.frames; ++k) {
    std::vector<rig::Transform> locals = sk.stored_local;
    rig::apply_clip(clip, start + br.times[static_cast<size_t>(k)], locals);
    for (size_t i = 0; i < n; ++i)
      locals[static_cast<size_t>(desc.links[i].joint)].rotation = br.rotations[static_cast<size_t>(k) * n + i];
    depths.push_back(tail_depth(c, legs, rig::local_to_world(sk, locals)));
  }
  const measure::Penetration p = measure::penetration(depths, 0.01 * height_units);
  r.legs_measured = true;
  r.tail_in_legs_keys_fraction = p.frames_over_fraction;
  r.tail_in_legs_max_rel_H = height_units > 0 ? p.max_depth / height_units : 0.0;
}

}  // namespace

Status character_chain(const rig::Character& c, solver::ChainParams& params, solver::ChainDesc& desc,
                       std::string* forward_axis) {
  const rig::Skeleton& sk = c.skeleton;
  params.meters_per_unit = c.meters_per_unit > 0 ? c.meters_per_unit : 1.0;
  // Facing: glTF characters face +Z; others are turned (see below).
  const double fwd_default[3] = {0, 0, 1}, lat_default[3] = {1, 0, 0};
  std::copy(fwd_default, fwd_default + 3, params.forward_axis);
  std::copy(lat_default, lat_default + 3, params.lateral_axis);
  solver::ChainDesc probe;
  if (auto st = solver::build_chain(rig_input(sk), params, probe); !st.ok())
    return bad("no usable Tail_* chain: " + st.message);
  const int root = probe.links.front().joint;
  const int end = probe.tail_end >= 0 ? probe.tail_end : probe.links.back().joint;
  const Vector3d t = sk.bind_world[end].block<3, 1>(0, 3) - sk.bind_world[root].block<3, 1>(0, 3);
  const double hx = t.x(), hz = t.z();
  std::string axis = "+Z";
  // The body's sides decide where they exist (rig/facing.h: any heading);
  // else the tail's bind direction, snapped to a model axis.
  bool sided = false;
  const rig::Facing facing = rig::facing_from_roles(sk, &sided);
  if (sided && !facing.canonical()) {
    const Vector3d fwd = facing.forward(), lat = facing.left();
    for (int k = 0; k < 3; ++k) params.forward_axis[k] = fwd[k], params.lateral_axis[k] = lat[k];
    if (std::abs(fwd.x()) == 1 || std::abs(fwd.z()) == 1) {
      axis = fwd.z() != 0 ? (fwd.z() > 0 ? "+Z" : "-Z") : (fwd.x() > 0 ? "+X" : "-X");
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "(%.3f, 0, %.3f)", fwd.x(), fwd.z());
      axis = buf;
    }
  } else if (!sided && std::hypot(hx, hz) > 0.2 * t.norm()) {
    Vector3d fwd = std::abs(hz) >= std::abs(hx) ? Vector3d(0, 0, hz > 0 ? -1 : 1) : Vector3d(hx > 0 ? -1 : 1, 0, 0);
    const Vector3d lat = Vector3d::UnitY().cross(fwd);
    for (int k = 0; k < 3; ++k) params.forward_axis[k] = fwd[k], params.lateral_axis[k] = lat[k];
    axis = fwd.z() != 0 ? (fwd.z() > 0 ? "+Z" : "-Z") : (fwd.x() > 0 ? "+X" : "-X");
  }
  if (forward_axis) *forward_axis = axis;
  if (auto st = solver::build_chain(rig_input(sk), params, desc); !st.ok())
    return bad("no usable Tail_* chain: " + st.message);
  return Status::Ok();
}

Status sized_character_chain(const rig::Character& c, const SpringSizing& which, solver::ChainParams& params,
                             solver::ChainDesc& desc, TailShape& shape, std::string* forward_axis) {
  if (Status s = character_chain(c, params, desc, forward_axis); !s.ok()) return s;
  shape = tail_shape(c.skeleton, desc, params);
  if (size_spring_to_tail(shape, which, params)) return character_chain(c, params, desc, forward_axis);
  return Status::Ok();
}

bool has_tail_chain(const rig::Character& c) {
  solver::ChainParams p;
  solver::ChainDesc d;
  return character_chain(c, p, d).ok();
}

Status bake_clips(rig::Character& c, const BakeClipsOptions& o, BakeClipsReport& report) {
  report = BakeClipsReport{};
  if (!(o.fps > 0 && o.fps <= 1000)) return bad("--fps must be in (0, 1000]");
  solver::ChainParams params = o.params;
  solver::ChainDesc desc;
  // The spring sized to this tail (issue 45 class 9; spring_size.h).
  TailShape shape;
  if (Status s = sized_character_chain(c, o.sizing, params, desc, shape, &report.forward_axis); !s.ok()) return s;
  const rig::Skeleton& sk = c.skeleton;
  const double mpu = params.meters_per_unit;
  const double height_units = rig::model_height(c.mesh.positions);
  const double H = height_units > 0 ? height_units * mpu : desc.total_length;
  report.height_m = H;
  report.meters_per_unit = mpu;
  report.tail_reach_m = shape.reach_m;
  report.carry_deg = params.carry_deg;
  report.root_frequency_hz = params.root_frequency_hz;
  report.tip_frequency_hz = params.tip_frequency_hz;
  report.damping_ratio = params.damping_ratio;
  report.spring = spring_summary(params, o.sizing, report.tail_reach_m);
  for (const auto& l : desc.links) report.bones.push_back(sk.names[l.joint]);
  const std::vector<char> tail = chain_joints(sk, desc);
  // The legs the tail must stay out of (issue 46; bake_colliders.h).
  const BakeColliders legs = bake_colliders(c, desc, H / mpu, o.collider_margin_m);
  const bool use_legs = o.colliders && !legs.capsules.empty();
  if (use_legs) params.collider_margin = legs.margin_m;
  report.colliders = static_cast<int>(legs.capsules.size());
  report.colliders_source = legs.source;
  report.colliders_used = use_legs;
  report.collider_margin_m = use_legs ? legs.margin_m : 0.0;
  report.margin_source = use_legs ? legs.margin_source : "";

  std::vector<size_t> which;
  for (const std::string& name : o.clips) {
    auto it = std::find_if(c.clips.begin(), c.clips.end(), [&](const rig::Clip& k) { return k.name == name; });
    if (it == c.clips.end()) {
      std::string names;
      for (const rig::Clip& k : c.clips) names += (names.empty() ? "'" : ", '") + k.name + "'";
      return bad("no clip '" + name + "' (available: " + (names.empty() ? "none" : names) + ")");
    }
    which.push_back(static_cast<size_t>(it - c.clips.begin()));
  }
  if (o.clips.empty())
    for (size_t i = 0; i < c.clips.size(); ++i) which.push_back(i);

  const size_t n = desc.links.size();
  std::vector<rig::Clip> baked = c.clips;  // written back only when every clip succeeded
  for (size_t ci : which) {
    rig::Clip& clip = baked[ci];
    ClipBakeReport r;
    r.name = clip.name;
    r.duration = std::max(0.0, clip.duration);
    // The tail is baked over the body's keyed span (the tail tracks it replaces aside).
    const double start = rig::first_key_time(clip, tail), span = r.duration - start;
    double pos_err = 0, ang_err = 0;
    pose_error(sk, clip, start, clip.duration, tail, pos_err, ang_err);
    r.loop_pose_error_rel_H = pos_err * mpu / H;
    r.loop_pose_error_deg = ang_err;
    r.loop_forced = o.loop != LoopMode::kAuto;
    r.looping = o.loop == LoopMode::kLoop ||
                (o.loop == LoopMode::kAuto && r.loop_pose_error_rel_H <= o.loop_position_tolerance &&
                 r.loop_pose_error_deg <= o.loop_angle_tolerance_deg);
    const bool still = !(span > 0);
    if (still) r.looping = false;
    const int open_m =
        !r.looping && !still && o.loop == LoopMode::kAuto ? open_loop_intervals(sk, clip, start, tail, pos_err, ang_err)
                                                          : 0;
    r.loop_open = open_m > 0;
    r.looping = r.looping || r.loop_open;
    // An open loop is keyed on the clip's own key times: its period is then
    // exactly its keys plus the implied closing step (the last sample wraps
    // to the first one key step later, as the body does).
    const int m = still ? 0 : r.loop_open ? open_m : std::max(1, static_cast<int>(std::lround(span * o.fps)));
    // One pose per sample: the hips, and the leg colliders (sample-major).
    std::vector<Affine3d> hips;
    std::vector<solver::Capsule> capsules;
    const int samples = r.looping && !r.loop_open ? m : m + 1;
    for (int k = 0; k < samples; ++k) {
      const std::vector<rig::Mat4> world = rig::pose_at(sk, clip, m > 0 ? start + span * k / m : start);
      Affine3d a;
      a.matrix() = world[static_cast<size_t>(desc.hips)];
      hips.push_back(a);
      if (use_legs) posed_capsules(sk, world, legs.capsules, capsules);
    }
    solver::BakeOptions bo;
    bo.sample_rate = m > 0 ? m / span : o.fps;
    bo.model_height = H;
    bo.tolerance = o.warmup_tolerance;
    bo.max_passes = o.warm_up ? o.max_warmup_passes : 0;
    bo.capsules = capsules;
    bo.capsules_per_frame = use_legs ? static_cast<int>(capsules.size()) / samples : 0;
    solver::BakeResult br;
    const bool ok = r.looping ? solver::bake_loop(desc, params, hips, bo, br)
                              : solver::bake_clip(desc, params, hips, bo, br);
    if (!ok) return bad("clip '" + clip.name + "': the hips motion is not finite");
    if (r.loop_open) drop_closing_key(br);
    for (const auto& q : br.rotations)
      if (!q.coeffs().allFinite()) return bad("clip '" + clip.name + "': the solver produced a non-finite rotation");
    r.warmup_passes = br.passes;
    r.converged = br.converged;
    r.cycle_loops = br.cycle_loops;
    r.last_change_rel_H = br.last_change;
    r.seam_deg = br.bone_closure_error_deg;
    r.seam_max_deg = br.closure_error_deg;
    r.seam_tip_rel_H = br.tip_closure_error / H;
    r.keys = br.frames;
    for (const auto& a : br.tip_in_hips)
      for (const auto& b : br.tip_in_hips) r.tip_range_m = std::max(r.tip_range_m, (a - b).norm());
    r.tip_range_rel_H = r.tip_range_m / H;
    if (!legs.capsules.empty()) measure_legs(c, clip, desc, legs, br, start, H / mpu, r);

    // Tracks: times start + k * span / M exactly (the last key at the clip's
    // end), one sign-continuous rotation track per tail bone, replacing any
    // old one.
    for (size_t i = 0; i < n; ++i) {
      rig::Track<rig::Quat> track;
      track.interpolation = rig::Interpolation::kLinear;
      for (int k = 0; k < br.frames; ++k) {
        track.times.push_back(m > 0 ? (k == m ? r.duration : start + span * k / m) : start);
        rig::Quat q = br.rotations[static_cast<size_t>(k) * n + i].normalized();
        if (!track.values.empty() ? q.coeffs().dot(track.values.back().coeffs()) < 0 : q.w() < 0)
          q.coeffs() = -q.coeffs();
        track.values.push_back(q);
      }
      const int joint = desc.links[i].joint;
      auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                             [&](const rig::JointTracks& jt) { return jt.joint == joint; });
      if (it == clip.tracks.end()) {
        clip.tracks.push_back(rig::JointTracks{});
        it = std::prev(clip.tracks.end());
        it->joint = joint;
      }
      it->rotation = std::move(track);
    }
    if (clip.duration < r.duration) clip.duration = r.duration;
    report.clips.push_back(std::move(r));
  }
  c.clips = std::move(baked);
  return Status::Ok();
}

nlohmann::json bake_report_json(const BakeClipsReport& r) {
  nlohmann::json clips = nlohmann::json::array();
  for (const ClipBakeReport& k : r.clips) {
    clips.push_back({{"name", k.name},
                     {"duration_s", k.duration},
                     {"looping", k.looping},
                     {"loop_forced", k.loop_forced},
                     {"loop_open", k.loop_open},
                     {"loop_pose_error_rel_H", k.loop_pose_error_rel_H},
                     {"loop_pose_error_deg", k.loop_pose_error_deg},
                     {"warmup_passes", k.warmup_passes},
                     {"warmup_converged", k.converged},
                     {"warmup_cycle_loops", k.cycle_loops},
                     {"warmup_last_change_rel_H", k.last_change_rel_H},
                     {"seam_deg", k.seam_deg},
                     {"seam_max_deg", k.seam_max_deg},
                     {"seam_tip_percent_H", 100.0 * k.seam_tip_rel_H},
                     {"keys", k.keys},
                     {"tip_range_m", k.tip_range_m},
                     {"tip_range_percent_H", 100.0 * k.tip_range_rel_H}});
    if (k.legs_measured) {
      clips.back()["tail_in_legs_keys_percent"] = 100.0 * k.tail_in_legs_keys_fraction;
      clips.back()["tail_in_legs_max_percent_H"] = 100.0 * k.tail_in_legs_max_rel_H;
    }
  }
  return {{"height_m", r.height_m},
          {"meters_per_unit", r.meters_per_unit},
          {"tail_bones", r.bones},
          {"forward_axis", r.forward_axis},
          {"spring",
           {{"tail_reach_m", r.tail_reach_m},
            {"carry_deg", r.carry_deg},
            {"root_frequency_hz", r.root_frequency_hz},
            {"tip_frequency_hz", r.tip_frequency_hz},
            {"damping_ratio", r.damping_ratio}}},
          {"leg_colliders",
           {{"count", r.colliders},
            {"source", r.colliders_source},
            {"used", r.colliders_used},
            {"margin_m", r.collider_margin_m},
            {"margin_source", r.margin_source}}},
          {"clips", clips}};
}

std::vector<std::string> bake_report_lines(const BakeClipsReport& r) {
  std::vector<std::string> out;
  char b[512];
  std::snprintf(b, sizeof b, "baked %zu clip%s, %zu tail bones (%s..%s), H=%.4g m, facing %s", r.clips.size(),
                r.clips.size() == 1 ? "" : "s", r.bones.size(), r.bones.empty() ? "" : r.bones.front().c_str(),
                r.bones.empty() ? "" : r.bones.back().c_str(), r.height_m, r.forward_axis.c_str());
  out.push_back(b);
  out.push_back("  spring: " + r.spring);
  if (r.colliders_used)
    std::snprintf(b, sizeof b, "  stepped with %d leg collider%s (%s), margin %.3g m (%s)", r.colliders,
                  r.colliders == 1 ? "" : "s", r.colliders_source.c_str(), r.collider_margin_m,
                  r.margin_source.c_str());
  else if (r.colliders > 0)
    std::snprintf(b, sizeof b, "  no leg colliders (--no-colliders); the tail measured against %d %s capsule%s",
                  r.colliders, r.colliders_source.c_str(), r.colliders == 1 ? "" : "s");
  else
    std::snprintf(b, sizeof b, "  no leg colliders: no leg with enough skin of its own");
  out.push_back(b);
  for (const ClipBakeReport& k : r.clips) {
    std::string seam;
    for (double d : k.seam_deg) {
      std::snprintf(b, sizeof b, "%s%.3f", seam.empty() ? "" : " ", d);
      seam += b;
    }
    std::string settled;
    if (!k.converged && k.warmup_passes > 0)
      settled = " (not converged)";
    else if (k.cycle_loops > 1)
      settled = " (repeats every " + std::to_string(k.cycle_loops) + " loops: keys are their mean)";
    if (k.looping)
      std::snprintf(b, sizeof b,
                    "  %-16s loop%s   %2d warm-up pass%s%s, seam [%s] deg (tip %.3f %% of H), %d keys%s, tip range "
                    "%.3g m (%.1f %% of H)",
                    k.name.c_str(), k.loop_forced ? "*" : " ", k.warmup_passes, k.warmup_passes == 1 ? "" : "es",
                    settled.c_str(), seam.c_str(),
                    100.0 * k.seam_tip_rel_H, k.keys, k.loop_open ? " (open cycle: its first pose is one key past its last)" : "",
                    k.tip_range_m, 100.0 * k.tip_range_rel_H);
    else
      std::snprintf(b, sizeof b, "  %-16s once%s   from the settled carry pose, %d keys, tip range %.3g m (%.1f %% of H)",
                    k.name.c_str(), k.loop_forced ? "*" : " ", k.keys, k.tip_range_m, 100.0 * k.tip_range_rel_H);
    std::string line = b;
    if (k.legs_measured) {
      std::snprintf(b, sizeof b, ", tail in legs %.0f %% of keys (max %.2f %% of H)",
                    100.0 * k.tail_in_legs_keys_fraction, 100.0 * k.tail_in_legs_max_rel_H);
      line += b;
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace pipeline
