// bake_loops scenario (issue 12, SPEC §9): a character's chain (detect
// --chain) baked into looping clips through the pipeline::bake_clips library, written
// to GLB and read back. Per clip:
// - the seam of the warmed-up bake (degrees per bone, tip in % of H);
// - the same bake started cold (no warm-up), in the same run: worse;
// - the replay of the keys read back from the file through our clip
//   sampling and skinning against a live solver run (reset, the same number
//   of warm-up loops, then step) at every key: all vertices, relative to H.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "rig/model/find_clip.h"
#include "pipeline/bake_clips.h"
#include "pipeline/bake_colliders.h"
#include "pipeline/posed_capsules.h"
#include "detect/find_appendages.h"
#include "rig/model/pose.h"
#include "harness/gate/runners.h"
#include "solver/state.h"
#include "solver/step.h"
#include "pipeline/solver_params.h"
#include "rig/io/io.h"

namespace harness {
namespace {

using rig::Status;
using Eigen::Affine3d;
using Eigen::Quaterniond;

Status bad(const Scenario& s, const std::string& m) {
  return Status::Error(Status::Code::kBadData, s.path + ": " + m);
}

// Largest vertex distance (rig units) between the baked clip replayed from
// the re-read file and a live solver run, over every key, and the key count
// found on the tail bones of the re-read clip.
struct Replay {
  double max_error = 0;  // rig units
  int worst_key = -1;
  int min_keys = 0, max_keys = 0;
};

Status replay(const Scenario& s, const rig::Character& chained, const rig::Character& reread,
              const pipeline::BakeClipsReport& bake, const pipeline::ClipBakeReport& rep,
              const pipeline::BakeClipsOptions& bo, Replay& out) {
  solver::ChainParams p = bo.params;
  solver::ChainDesc desc;
  pipeline::TailShape shape;  // the chain and spring as the bake sized them
  if (Status st = pipeline::sized_character_chain(chained, bo.sizing, p, desc, shape); !st.ok())
    fail_regression(s.name, st.message);
  const rig::Clip* src = find_clip(chained, rep.name);
  const rig::Clip* back = find_clip(reread, rep.name);
  if (!src || !back) fail_regression(s.name, "clip '" + rep.name + "' lost in the written file");
  const rig::Skeleton& sk = chained.skeleton;
  const int m = rep.keys - 1;
  if (m < 1 || !rep.looping) fail_regression(s.name, "clip '" + rep.name + "' was not baked as a loop");
  const double D = rep.duration;
  std::vector<Affine3d> hips(static_cast<size_t>(m));
  // The bake's leg colliders (issue 46), chosen and posed as it does.
  std::vector<solver::Capsule> caps;  // sample-major
  size_t per = 0;
  pipeline::BakeColliders legs;
  if (bake.colliders_used) {
    legs = pipeline::bake_colliders(chained, desc, bake.height_m / bake.meters_per_unit, bo.collider_margin_m);
    p.collider_margin = legs.margin_m;
    per = legs.capsules.size();
  }
  for (int k = 0; k < m; ++k) {
    const std::vector<rig::Mat4> world = rig::pose_at(sk, *src, D * k / m);
    hips[k].matrix() = world[desc.hips];
    if (per > 0) pipeline::posed_capsules(sk, world, legs.capsules, caps);
  }
  auto frame = [&](int k) {
    const std::span<const solver::Capsule> all(caps);
    return solver::FrameInput{hips[static_cast<size_t>(k)],
                              per > 0 ? all.subspan(static_cast<size_t>(k) * per, per) : all.first(0)};
  };
  const double dt = D / m;
  const size_t n = desc.links.size();
  solver::ChainState st;
  solver::init_state(desc, st);
  solver::reset(desc, p, st, hips[0]);
  std::vector<Quaterniond> rot(n);
  for (int pass = 0; pass < rep.warmup_passes; ++pass)
    for (int k = 1; k <= m; ++k) solver::step(desc, p, st, dt, frame(k % m), rot);
  rot = st.out_local;
  // Key counts on the re-read tail tracks.
  out.min_keys = 1 << 30;
  for (const auto& l : desc.links) {
    int keys = 0;
    const int j = reread.skeleton.find(sk.names[l.joint]);  // the re-read joint order may differ
    for (const auto& jt : back->tracks)
      if (j >= 0 && jt.joint == j) keys = static_cast<int>(jt.rotation.times.size());
    out.min_keys = std::min(out.min_keys, keys);
    out.max_keys = std::max(out.max_keys, keys);
  }
  for (int k = 0; k <= m; ++k) {
    if (k > 0) solver::step(desc, p, st, dt, frame(k % m), rot);
    const double t = k == m ? D : D * k / m;
    std::vector<rig::Transform> live = sk.stored_local;
    rig::apply_clip(*src, t, live);
    for (size_t i = 0; i < n; ++i) live[desc.links[i].joint].rotation = rot[i];
    const auto a = rig::skin_positions(chained.mesh, chained.skin, sk, rig::local_to_world(sk, live));
    const auto b = rig::skin_positions(reread.mesh, reread.skin, reread.skeleton,
                                       rig::pose_at(reread.skeleton, *back, t));
      if (a.size() != b.size()) fail_regression(s.name, "the re-read file has a different vertex count");
    for (size_t v = 0; v < a.size(); ++v) {
      const double e = (a[v] - b[v]).norm();
      if (!(e <= out.max_error)) {
        out.max_error = e;
        out.worst_key = k;
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status run_bake_scenario(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  detect::FixResult fixed;
  if (Status st = load_chained_scenario_character(s, fixed); !st.ok()) return st;
  const rig::Character& chained = fixed.character;

  pipeline::BakeClipsOptions warm;
  warm.fps = s.raw.value("fps", 30.0);
  warm.clips = s.raw.value("clips", std::vector<std::string>{});
  // "colliders": false bakes without the leg colliders (harness bake
  // --no-colliders); default: as the product bakes, with them.
  warm.colliders = s.raw.value("colliders", true);
  if (warm.clips.empty()) return bad(s, "no \"clips\" to bake");
  for (const std::string& name : warm.clips)  // a clip the fixture lacks is bad input, not a regression
    if (!find_clip(chained, name)) return bad(s, "character has no clip '" + name + "'");
  std::string perr;
  if (!pipeline::apply_solver_overrides(s.solver, warm.params, perr)) return bad(s, perr);
  warm.sizing = pipeline::sizing_without(s.solver);  // as harness bake --solver: given fields as given
  pipeline::BakeClipsOptions cold = warm;
  cold.warm_up = false;
  rig::Character baked = chained, baked_cold = chained;
  pipeline::BakeClipsReport rw, rc;
  if (Status st = pipeline::bake_clips(baked, warm, rw); !st.ok()) fail_regression(s.name, st.message);
  if (Status st = pipeline::bake_clips(baked_cold, cold, rc); !st.ok()) fail_regression(s.name, st.message);

  // Through the writer and the reader.
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec) / ("tailrig_bake_loops_" + std::to_string(::getpid()));
  fs::create_directories(dir, ec);
  const std::string file = (dir / "baked.glb").string();
  rig::Character reread;
  Status io = rig::save_glb(baked, file);
  if (io.ok()) io = rig::load(file, reread);
  fs::remove_all(dir, ec);
  if (!io.ok()) fail_regression(s.name, "write/read back: " + io.message);

  out.metrics["height_m"] = rw.height_m;
  out.metrics["tail_bones"] = static_cast<int>(rw.bones.size());
  out.metrics["fps"] = warm.fps;
  for (size_t i = 0; i < rw.clips.size(); ++i) {
    const pipeline::ClipBakeReport& w = rw.clips[i];
    const pipeline::ClipBakeReport& c = rc.clips[i];
    const std::string pre = w.name + ".";
    out.metrics[pre + "looping"] = w.looping ? 1 : 0;
    out.metrics[pre + "duration_s"] = w.duration;
    out.metrics[pre + "keys"] = w.keys;
    out.metrics[pre + "warmup_passes"] = w.warmup_passes;
    out.metrics[pre + "warmup_converged"] = w.converged ? 1 : 0;
    out.metrics[pre + "seam_max_deg"] = w.seam_max_deg;
    for (size_t b = 0; b < w.seam_deg.size(); ++b)
      out.metrics[pre + "seam_deg." + rw.bones[b]] = w.seam_deg[b];
    out.metrics[pre + "seam_tip_rel_H"] = w.seam_tip_rel_H;
    out.metrics[pre + "tip_range_m"] = w.tip_range_m;
    out.metrics[pre + "tip_range_rel_H"] = w.tip_range_rel_H;
    out.metrics[pre + "cold.seam_max_deg"] = c.seam_max_deg;
    out.metrics[pre + "cold.seam_tip_rel_H"] = c.seam_tip_rel_H;
    out.metrics[pre + "cold_minus_warm_seam_deg"] = c.seam_max_deg - w.seam_max_deg;
    if (!w.looping) {
      out.failures.push_back(w.name + ": not detected as a loop");
      continue;
    }
    Replay r;
    if (Status st = replay(s, chained, reread, rw, w, warm, r); !st.ok()) return st;
    out.metrics[pre + "replay_max_error_rel_H"] = r.max_error * rw.meters_per_unit / rw.height_m;
    out.metrics[pre + "replay_worst_key"] = r.worst_key;
    out.metrics[pre + "reread_keys_min"] = r.min_keys;
    out.metrics[pre + "reread_keys_max"] = r.max_keys;
    if (r.min_keys != w.keys || r.max_keys != w.keys)
      out.failures.push_back(w.name + ": the re-read file has " + std::to_string(r.min_keys) + ".." +
                             std::to_string(r.max_keys) + " keys per tail bone, baked " + std::to_string(w.keys));
    out.notes.push_back(w.name + ": " + std::to_string(w.warmup_passes) + " warm-up loops; cold start seam " +
                        std::to_string(c.seam_max_deg) + " deg vs " + std::to_string(w.seam_max_deg) + " deg warm");
  }
  for (const std::string& line : pipeline::bake_report_lines(rw)) out.notes.push_back("warm " + line);
  for (const std::string& line : pipeline::bake_report_lines(rc)) out.notes.push_back("cold " + line);
  return Status::Ok();
}

}  // namespace harness
