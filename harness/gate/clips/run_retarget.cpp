// Retarget scenarios (kinds "retarget_*"): real mocap clips retargeted onto a
// fixture through rig::transfer_clip, then measured.
//
// retarget_walk_stretch: per clip, the feet in stance (skinned foot soles
// against the reference floor, before and after limb reconciliation), walk
// sanity numbers (hips height, travel, swing height) and the SPEC §7 tail
// edge-stretch table on the retargeted walk.
#include <algorithm>
#include <optional>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "harness/gate/fixture_cache.h"
#include "harness/gate/stretch_scenario.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/model/pose.h"
#include "harness/gate/runners.h"
#include "rig/io/io.h"

namespace harness {
namespace {

using rig::Status;
using rig::Vec3;

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

int dominant_joint(const std::vector<rig::Influence>& infl) {
  int best = -1;
  double w = -1.0;
  for (const rig::Influence& in : infl)
    if (in.weight > w || (in.weight == w && in.joint < best)) {
      w = in.weight;
      best = in.joint;
    }
  return best;
}

// Skinned mesh positions of `clip` at `t` (every joint keyed by transfer_clip).
// The vertices `read` (ascending) of `ch` skinned under `clip` at `t` (on
// the neutral locals) into `at` (indexed by mesh vertex; the others left as
// they are), as rig::skin_positions places them: the measures below read
// the feet's skin only.
void skin_at(const rig::Character& ch, const rig::Clip& clip, double t, const std::vector<int>& read,
             std::vector<Vec3>& skinned, std::vector<Vec3>& at) {
  std::vector<rig::Transform> locals = ch.skeleton.neutral_local;
  rig::apply_clip(clip, t, locals);
  skinned.resize(read.size());
  rig::skin_vertices(ch.mesh, ch.skin, ch.skeleton, rig::local_to_world(ch.skeleton, locals), read, skinned);
  for (size_t i = 0; i < read.size(); ++i) at[static_cast<size_t>(read[i])] = skinned[i];
}

struct FootSkin {
  std::vector<std::vector<int>> vertices;  // per foot: vertices dominated by its foot or toe joint
};

FootSkin foot_vertices(const rig::Character& ch, const std::vector<rig::FootReport>& feet) {
  FootSkin fs;
  fs.vertices.resize(feet.size());
  for (int v = 0; v < ch.mesh.vertex_count(); ++v) {
    const int d = dominant_joint(ch.skin.influences[v]);
    for (size_t f = 0; f < feet.size(); ++f)
      if (d >= 0 && (d == feet[f].leg.foot || d == feet[f].leg.toe)) fs.vertices[f].push_back(v);
  }
  return fs;
}

double lowest(const std::vector<Vec3>& pos, const std::vector<int>& vs) {
  double y = std::numeric_limits<double>::infinity();
  for (int v : vs) y = std::min(y, pos[v].y());
  return y;
}

// Every clip of the scenario retargeted onto `target` and measured; metric
// names start with `prefix` (one character of a "characters" list, or "").
Status walks_onto(const Scenario& s, const RunOptions& opt, const rig::Character& target, const std::string& prefix,
                  bool with_series, ScenarioResult& out) {
  const nlohmann::json clips = s.raw.value("clips", nlohmann::json::array());
  if (!clips.is_array() || clips.empty())
    return Status::Error(Status::Code::kBadData, s.path + ": \"clips\" must list {key, file[, clip]}");
  if (!target.has_skin()) return Status::Error(Status::Code::kBadData, s.path + ": character has no skinned mesh");
  const double mpu = target.meters_per_unit;
  // The target's calibration, captured once before any clip is made.
  const rig::Calibration target_cal = rig::calibrate(target.skeleton);

  rig::TransferOptions to;
  to.sample_rate = s.raw.value("rate", 30.0);
  // These scenarios measure the retarget pipeline (its feet reconciled): a
  // fixture's own clip among them is retargeted, not copied as authored.
  to.copy_own_rig_clips = false;
  to.grounding.count_tail = s.raw.value("count_tail", false);
  // Support, floor and soles of the target: one pass over its mesh for every clip.
  const rig::TargetSupport prepared = rig::prepare_target_support(target, target_cal, to);

  bool first = with_series;
  std::optional<StretchSubject> subject;  // the target's tail, detected once for every clip
  for (const auto& c : clips) {
    std::string key, file, clip_name;
    try {
      key = c.at("key").get<std::string>();
      file = c.at("file").get<std::string>();
      clip_name = c.value("clip", "");
    } catch (const std::exception& e) {
      return Status::Error(Status::Code::kBadData, s.path + ": clips: " + e.what());
    }
    std::string path;
    if (Status st = resolve_scenario_file(s, file, path); !st.ok()) return st;
    rig::Character source;
    if (Status st = load_cached(s.fixtures, path, source); !st.ok()) return Status::Error(st.code, s.path + ": " + st.message);
    auto it = source.clips.begin();
    if (!clip_name.empty())
      it = std::find_if(source.clips.begin(), source.clips.end(), [&](const rig::Clip& x) { return x.name == clip_name; });
    if (it == source.clips.end())
      return Status::Error(Status::Code::kBadData, s.path + ": " + file + ": no clip '" + clip_name + "'");
    const rig::Calibration source_cal = rig::calibrate(source.skeleton);

    rig::TransferResult r = rig::transfer_clip(source, *it, source_cal, target, target_cal, prepared, to);
    // The target is a fixture and the source loaded: a refusal is a regression.
    if (!r.status.ok()) fail_regression(s.name, key + ": " + r.status.message);
    if (r.feet.empty()) fail_regression(s.name, key + ": feet not reconciled: " + r.limbs_note);
    // Before the limb solver: no feet pinned, and no whole-body lift either
    // (without the pinning it would lift the body for the stance feet floor
    // alignment leaves under the floor for the solver to place).
    rig::TransferOptions no_limbs = to;
    no_limbs.reconcile_limbs = false;
    no_limbs.body_above_floor = false;
    const rig::TransferResult before = rig::transfer_clip(source, *it, source_cal, target, target_cal, prepared, no_limbs);
    if (!before.status.ok()) fail_regression(s.name, key + ": " + before.status.message);
    // The retargeted clip must not be mistaken for a fixture loop by name.
    r.clip.name = key;

    const std::string pre = prefix + key + ".";
    const int n = static_cast<int>(r.times.size());
    const FootSkin fs = foot_vertices(target, r.feet);
    const int hips = target_cal.hips;
    double err_after = 0, err_before = 0, swing_max = 0, lift_max = 0;
    long stance = 0;
    long stance_min_foot = std::numeric_limits<long>::max();
    double hips_min = 1e300, hips_max = -1e300, hips_sum = 0;
    std::vector<long> stance_per_foot(r.feet.size(), 0);
    std::vector<int> read;  // every foot's skin, ascending
    for (const std::vector<int>& vs : fs.vertices) read.insert(read.end(), vs.begin(), vs.end());
    std::sort(read.begin(), read.end());
    read.erase(std::unique(read.begin(), read.end()), read.end());
    std::vector<Vec3> skinned, pa(target.mesh.positions.size()), pb(target.mesh.positions.size());
    for (int k = 0; k < n; ++k) {
      skin_at(target, r.clip, r.times[k], read, skinned, pa);
      // Before the limbs only where some foot stands (err_before reads it).
      if (std::any_of(r.feet.begin(), r.feet.end(), [&](const rig::FootReport& f) { return f.contact[k]; }))
        skin_at(target, before.clip, r.times[k], read, skinned, pb);
      const double hy = rig::pose_at(target.skeleton, r.clip, r.times[k])[hips](1, 3);
      hips_min = std::min(hips_min, hy);
      hips_max = std::max(hips_max, hy);
      hips_sum += hy;
      lift_max = std::max(lift_max, r.lift[k]);
      for (size_t f = 0; f < r.feet.size(); ++f) {
        const double ya = lowest(pa, fs.vertices[f]) - r.floor_y;
        if (r.feet[f].contact[k]) {
          ++stance;
          ++stance_per_foot[f];
          err_after = std::max(err_after, std::abs(ya));
          err_before = std::max(err_before, std::abs(lowest(pb, fs.vertices[f]) - r.floor_y));
        } else {
          swing_max = std::max(swing_max, ya);
        }
      }
    }
    int unreached = 0, phases = 0;
    for (size_t f = 0; f < r.feet.size(); ++f) {
      stance_min_foot = std::min(stance_min_foot, stance_per_foot[f]);
      unreached += r.feet[f].unreached;
      phases += static_cast<int>(r.feet[f].phases.size());
    }
    const Vec3 h0 = rig::pose_at(target.skeleton, r.clip, r.times.front())[hips].block<3, 1>(0, 3);
    const Vec3 h1 = rig::pose_at(target.skeleton, r.clip, r.times.back())[hips].block<3, 1>(0, 3);
    const double travel = Vec3(h1.x() - h0.x(), 0, h1.z() - h0.z()).norm() * mpu;
    out.metrics[pre + "duration_s"] = r.clip.duration;
    out.metrics[pre + "keys"] = n;
    out.metrics[pre + "stance_samples"] = stance;
    out.metrics[pre + "stance_samples_min_foot"] = stance_min_foot;
    out.metrics[pre + "contact_phases"] = phases;
    out.metrics[pre + "stance_foot_error_max_m"] = err_after * mpu;
    out.metrics[pre + "stance_foot_error_before_limbs_max_m"] = err_before * mpu;
    out.metrics[pre + "ik_unreached_samples"] = unreached;
    out.metrics[pre + "swing_foot_height_max_m"] = swing_max * mpu;
    out.metrics[pre + "body_lift_max_m"] = lift_max * mpu;
    out.metrics[pre + "hips_height_mean_m"] = (hips_sum / n - r.floor_y) * mpu;
    out.metrics[pre + "hips_height_range_m"] = (hips_max - hips_min) * mpu;
    out.metrics[pre + "travel_m"] = travel;
    out.metrics[pre + "speed_m_per_s"] = r.clip.duration > 0 ? travel / r.clip.duration : 0.0;
    out.notes.push_back(key + ": " + std::filesystem::path(file).filename().string() + " clip '" + it->name + "' " +
                        fmt("%.2f s", r.clip.duration) + " -> " + std::to_string(n) + " keys; " +
                        std::to_string(phases) + " contact phases, stance foot error " +
                        fmt("%.4f m", err_after * mpu) + " (before IK " + fmt("%.4f m", err_before * mpu) + ")" +
                        (first ? "; series (p99, hips height) are for this clip" : ""));

    // The tail table on the retargeted walk (same machinery as walk_stretch).
    if (!subject) subject = stretch_subject(s, target);
    if (Status st = measure_edge_stretch(s, opt, target, *subject, r.clip, pre, first, out); !st.ok()) return st;
    // SPEC §7: the tail may deform, within what the body already shows.
    if (out.metrics.contains(pre + "chain.tail.torn_fraction") && out.metrics.contains(pre + "body.body.torn_fraction"))
      out.metrics[pre + "chain_torn_minus_body_torn"] = out.metrics[pre + "chain.tail.torn_fraction"].get<double>() -
                                                        out.metrics[pre + "body.body.torn_fraction"].get<double>();
    out.metrics[pre + "floor_alignment_m"] = r.floor_alignment * mpu;
    out.metrics[pre + "start_skipped_s"] = r.start_time;
    first = false;
  }
  return Status::Ok();
}

// "characters": [{"prefix", ...character spec}] retargets onto each version
// of a character (e.g. one whose file stores a pose that is not its bind
// pose), so "expect" can compare them; otherwise the one "character".
Status run_walk_stretch(const Scenario& s, const RunOptions& opt, ScenarioResult& out) {
  std::vector<std::pair<std::string, nlohmann::json>> specs;
  if (s.raw.contains("characters") && s.raw["characters"].is_array())
    for (const auto& c : s.raw["characters"]) specs.emplace_back(c["prefix"].get<std::string>(), c);
  else
    specs.emplace_back("", s.character);
  for (size_t i = 0; i < specs.size(); ++i) {
    rig::Character target;
    if (Status st = load_character_spec(s, specs[i].second, target); !st.ok()) return st;
    if (Status st = walks_onto(s, opt, target, specs[i].first, i == 0, out); !st.ok()) return st;
  }
  return Status::Ok();
}

}  // namespace

rig::Status run_retarget_scenario(const Scenario& s, const RunOptions& opt, ScenarioResult& out) {
  if (s.kind == "retarget_walk_stretch") return run_walk_stretch(s, opt, out);
  return rig::Status::Error(rig::Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

}  // namespace harness
