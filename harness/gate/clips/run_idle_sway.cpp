// idle_sway scenario (issue 46): a standing character's idle baked through
// pipeline::bake_clips (what `fix --bake --solver '{"idle_sway": true}'`
// runs) with and without solver::idle_sway(). Reports, per clip, the baked
// tail tip's turn about the hips' up axis (the sway's amplitude), the loop
// seam, the tip's motion range and, between the two bakes, the largest
// per-key difference of the tip relative to the calm bake's motion range
// (a walk must not sway).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rig/model/find_clip.h"
#include "detect/find_appendages.h"
#include "harness/gate/runners.h"
#include "pipeline/bake_clips.h"
#include "pipeline/solver_params.h"
#include "rig/model/pose.h"
#include "solver/step.h"

namespace harness {
namespace {

using rig::Status;

Status bad(const Scenario& s, const std::string& m) {
  return Status::Error(Status::Code::kBadData, s.path + ": " + m);
}

// The baked tail's tip (Tail_End, else the last tail bone's head) relative
// to the tail root's head, in the hips frame (X lateral, Y up, Z forward),
// metres, at each of the clip's `keys` evenly spaced keys.
std::vector<Eigen::Vector3d> tip_track(const rig::Character& baked, const solver::ChainDesc& desc,
                                       const rig::Clip& clip, int keys) {
  const int tip_joint = desc.tail_end >= 0 ? desc.tail_end : desc.links.back().joint;
  const int root_joint = desc.links.front().joint;
  std::vector<Eigen::Vector3d> out;
  for (int k = 0; k < keys; ++k) {
    const double t = keys > 1 ? clip.duration * k / (keys - 1) : 0.0;
    const std::vector<rig::Mat4> w = rig::pose_at(baked.skeleton, clip, t);
    Eigen::Affine3d hips;
    hips.matrix() = w[desc.hips];
    const Eigen::Vector3d d =
        (w[tip_joint].block<3, 1>(0, 3) - w[root_joint].block<3, 1>(0, 3)) * desc.meters_per_unit;
    out.push_back(solver::hips_frame_world(desc, hips).conjugate() * d);
  }
  return out;
}

// The tip's turn about the hips' up axis from straight behind, degrees.
double yaw_deg(const Eigen::Vector3d& d) { return std::atan2(-d.x(), -d.z()) * 180.0 / M_PI; }

struct Bake {
  rig::Character character;
  pipeline::BakeClipsReport report;
};

Status bake(const Scenario& s, const rig::Character& chained, const solver::ChainParams& params,
            const std::vector<std::string>& clips, Bake& out) {
  pipeline::BakeClipsOptions o;
  o.fps = s.raw.value("fps", 30.0);
  o.clips = clips;
  o.params = params;
  o.sizing = pipeline::sizing_without(s.solver);  // as harness bake --solver: given fields as given
  out.character = chained;
  if (Status st = pipeline::bake_clips(out.character, o, out.report); !st.ok())
    fail_regression(s.name, st.message);
  return Status::Ok();
}

}  // namespace

Status run_idle_sway_scenario(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  detect::FixResult fixed;
  if (Status st = load_chained_scenario_character(s, fixed); !st.ok()) return st;
  const std::vector<std::string> clips = s.raw.value("clips", std::vector<std::string>{});
  if (clips.empty()) return bad(s, "no \"clips\" to bake");
  for (const std::string& name : clips)
    if (!find_clip(fixed.character, name)) return bad(s, "character has no clip '" + name + "'");
  solver::ChainParams calm_params;
  std::string perr;
  if (!pipeline::apply_solver_overrides(s.solver, calm_params, perr)) return bad(s, perr);
  Bake calm, sway;
  if (Status st = bake(s, fixed.character, calm_params, clips, calm); !st.ok()) return st;
  if (Status st = bake(s, fixed.character, solver::idle_sway(calm_params), clips, sway); !st.ok())
    return st;

  solver::ChainParams p = calm_params;
  solver::ChainDesc desc;
  if (Status st = pipeline::character_chain(sway.character, p, desc); !st.ok())
    fail_regression(s.name, st.message);
  out.metrics["height_m"] = sway.report.height_m;
  out.metrics["collider_margin_m"] = sway.report.collider_margin_m;
  for (size_t i = 0; i < clips.size(); ++i) {
    const pipeline::ClipBakeReport& c = calm.report.clips[i];
    const pipeline::ClipBakeReport& w = sway.report.clips[i];
    const std::string pre = w.name + ".";
    const std::vector<Eigen::Vector3d> a =
        tip_track(calm.character, desc, *find_clip(calm.character, c.name), c.keys);
    const std::vector<Eigen::Vector3d> b =
        tip_track(sway.character, desc, *find_clip(sway.character, w.name), w.keys);
    double calm_lo = 1e9, calm_hi = -1e9, sway_lo = 1e9, sway_hi = -1e9, calm_mean = 0.0,
           diff = 0.0, added = 0.0;
    for (size_t k = 0; k < a.size() && k < b.size(); ++k) {
      calm_lo = std::min(calm_lo, yaw_deg(a[k]));
      calm_hi = std::max(calm_hi, yaw_deg(a[k]));
      sway_lo = std::min(sway_lo, yaw_deg(b[k]));
      sway_hi = std::max(sway_hi, yaw_deg(b[k]));
      calm_mean += yaw_deg(a[k]) / static_cast<double>(a.size());
      diff = std::max(diff, (a[k] - b[k]).norm());
      added = std::max(added, std::abs(yaw_deg(b[k]) - yaw_deg(a[k])));
    }
    // Sway to each side measured from where the calm tail hangs on average.
    out.metrics[pre + "calm.tip_yaw_range_deg"] = calm_hi - calm_lo;
    out.metrics[pre + "sway.tip_yaw_left_deg"] = sway_hi - calm_mean;
    out.metrics[pre + "sway.tip_yaw_right_deg"] = calm_mean - sway_lo;
    // The sway's own share: the largest turn it adds to the calm bake's at a key.
    out.metrics[pre + "sway.tip_yaw_added_max_deg"] = added;
    out.metrics[pre + "calm.tip_range_m"] = c.tip_range_m;
    out.metrics[pre + "sway.tip_range_m"] = w.tip_range_m;
    out.metrics[pre + "tip_range_ratio"] = c.tip_range_m > 0 ? w.tip_range_m / c.tip_range_m : 0.0;
    out.metrics[pre + "tip_difference_of_calm_range"] =
        c.tip_range_m > 0 ? diff / c.tip_range_m : 0.0;
    out.metrics[pre + "sway.seam_tip_rel_H"] = w.seam_tip_rel_H;
    out.metrics[pre + "sway.seam_max_deg"] = w.seam_max_deg;
    out.metrics[pre + "sway.warmup_converged"] = w.converged ? 1 : 0;
    out.metrics[pre + "calm.seam_tip_rel_H"] = c.seam_tip_rel_H;
    out.metrics[pre + "looping"] = w.looping ? 1 : 0;
  }
  for (const std::string& line : pipeline::bake_report_lines(calm.report))
    out.notes.push_back("calm " + line);
  for (const std::string& line : pipeline::bake_report_lines(sway.report))
    out.notes.push_back("idle_sway " + line);
  return Status::Ok();
}

}  // namespace harness
