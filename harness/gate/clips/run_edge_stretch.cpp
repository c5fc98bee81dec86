// Edge stretch scenario (SPEC §7): one character, one clip, sample times,
// variants original / rigid / chain / body measured on the same welded
// edges of the detected tail region (body = edges outside every region).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "detect/find_appendages.h"
#include "detect/geometry/bone_distance.h"
#include "detect/rewrite/rigid.h"
#include "fixtures/fixtures.h"
#include "harness/gate/clips/hips_motion_clip.h"
#include "harness/gate/runners.h"
#include "harness/gate/stretch_scenario.h"
#include "measure/tail_motion.h"
#include "measure/tail_penetration.h"
#include "pipeline/bake_clips.h"
#include "pipeline/bake_colliders.h"
#include "pipeline/posed_capsules.h"
#include "pipeline/solver_params.h"
#include "rig/anatomy/leg_capsules.h"
#include "rig/anatomy/roles.h"
#include "rig/model/pose.h"
#include "solver/bake.h"
#include "solver/step.h"

namespace harness {
namespace {

using rig::Status;
using rig::Vec3;

constexpr int kFramesPerSample = 5;  // solver keys between two measured samples

// The vertices a tail run reads, ascending: the ends (representatives) of
// its edges, the tail's vertices and the tip's.
std::vector<int> vertices_read(const std::vector<int>& rep, const std::vector<std::pair<int, int>>& edges,
                               const std::vector<int>& tail, const std::vector<int>& tip, int vertex_count) {
  std::vector<char> read(static_cast<size_t>(vertex_count), 0);
  for (const auto& [a, b] : edges) read[rep[a]] = read[rep[b]] = 1;
  for (int v : tail) read[v] = 1;
  for (int v : tip) read[v] = 1;
  std::vector<int> out;
  for (int v = 0; v < vertex_count; ++v)
    if (read[v]) out.push_back(v);
  return out;
}

bool clip_is_loop(const rig::Character& c, const rig::Clip& clip) {
  if (fixtures::clip_loops(clip.name)) return true;
  auto a = rig::pose_at(c.skeleton, clip, 0.0), b = rig::pose_at(c.skeleton, clip, clip.duration);
  for (size_t j = 0; j < a.size(); ++j)
    if ((a[j] - b[j]).cwiseAbs().maxCoeff() > 1e-6 * std::max(1.0, a[j].cwiseAbs().maxCoeff())) return false;
  return true;
}


// Tail bone rotations per measured sample from the spring solver.
struct ChainMotion {
  std::vector<int> joints;                            // rig joints of the links
  std::vector<std::vector<rig::Quat>> per_sample;     // [sample][link]
  int warmup_passes = 0;
};

// `legs`: colliders the chain is stepped with (empty: none).
Status simulate_chain(const rig::Character& ch, const rig::Clip& clip, const std::vector<double>& times,
                      bool loop, const solver::ChainParams& params, double height_m, ChainMotion& out,
                      std::span<const rig::LegCapsule> legs = {}) {
  const rig::Skeleton& sk = ch.skeleton;
  solver::ChainRigInput in;
  in.names = sk.names;
  in.parents = sk.parents;
  in.inverse_bind = sk.inverse_bind;
  in.hips = rig::hips_joint(sk);
  solver::ChainDesc desc;
  if (auto st = solver::build_chain(in, params, desc); !st.ok())
    return Status::Error(Status::Code::kBadData, "solver setup: " + st.message);
  for (const auto& l : desc.links) out.joints.push_back(l.joint);
  const int n = desc.size();
  const int samples = static_cast<int>(times.size());
  const int frames = loop ? samples * kFramesPerSample : std::max(1, (samples - 1) * kFramesPerSample);
  const double dt = loop ? clip.duration / frames : (samples > 1 ? (times.back() - times.front()) / frames : 0.0);
  // One pose per frame: the hips, and the leg colliders when there are some.
  std::vector<solver::Capsule> capsules;
  auto frame_at = [&](double t) {
    const std::vector<rig::Mat4> w = rig::pose_at(sk, clip, t);
    Eigen::Affine3d a;
    a.matrix() = w[desc.hips];
    pipeline::posed_capsules(sk, w, legs, capsules);
    return a;
  };
  auto hips_at = [&](double t) {
    capsules.clear();
    return frame_at(t);
  };
  out.per_sample.assign(samples, std::vector<rig::Quat>(n));
  if (loop) {
    std::vector<Eigen::Affine3d> hips(frames);
    for (int k = 0; k < frames; ++k) hips[k] = frame_at(k * dt);  // capsules: frame-major
    solver::BakeOptions bo;
    bo.sample_rate = 1.0 / dt;
    bo.model_height = height_m;
    bo.capsules = capsules;
    bo.capsules_per_frame = static_cast<int>(legs.size());
    solver::BakeResult br;
    if (!solver::bake_loop(desc, params, hips, bo, br))
      return Status::Error(Status::Code::kBadData, "solver bake failed");
    out.warmup_passes = br.passes;
    for (int s = 0; s < samples; ++s)
      for (int i = 0; i < n; ++i) out.per_sample[s][i] = br.rotations[(s * kFramesPerSample) * n + i];
  } else {
    solver::ChainState state;
    solver::init_state(desc, state);
    solver::reset(desc, params, state, hips_at(times.front()));
    std::vector<rig::Quat> rot(n);
    solver::step(desc, params, state, 0.0, hips_at(times.front()), rot);
    out.per_sample[0] = rot;
    for (int k = 1; k <= frames; ++k) {
      const Eigen::Affine3d h = hips_at(times.front() + k * dt);
      solver::step(desc, params, state, dt, solver::FrameInput{h, capsules}, rot);
      if (k % kFramesPerSample == 0) out.per_sample[k / kFramesPerSample] = rot;
    }
  }
  return Status::Ok();
}

struct VariantRun {
  std::string variant;
  const rig::Character* character = nullptr;
  const ChainMotion* motion = nullptr;  // chain variant only
  bool body_set = false;
  std::string note;
};

// The chain variants' motions; the runs point into it.
struct ChainMotions {
  ChainMotion free, legs, bake;
};

// What the variants are run on: the character as rigged, its tail made
// rigid, its tail chained (detect), the clip and its sample times, the
// solver's parameters, H in rig units, the legs' capsules, the metric prefix.
struct VariantInputs {
  const rig::Character* original;
  const rig::Character* rigid;
  const rig::Character* chained;
  bool tail;  // a tail region was detected
  const rig::Clip* clip;
  const std::vector<double>* times;
  bool loop;
  solver::ChainParams params;
  double height_units;
  double mpu;
  std::span<const rig::LegCapsule> legs;
  std::string prefix;
};

// One run per scenario variant (original / body / rigid / chain /
// chain_legs / chain_legs_bake), the chain variants simulated into `m`.
Status variant_runs(const Scenario& s, const VariantInputs& in, ChainMotions& m,
                    std::vector<VariantRun>& runs, ScenarioResult& out) {
  const double height_m = in.height_units * in.mpu;
  for (const std::string& v : s.variants) {
    if (v == "original")
      runs.push_back({v, in.original, nullptr, false, ""});
    else if (v == "body")
      runs.push_back({v, in.original, nullptr, true, "body edges under the original rig"});
    else if (v == "rigid") {
      if (in.tail) runs.push_back({v, in.rigid, nullptr, false, "tail weights 1.0 on Hips"});
    } else if (v == "chain_legs_bake") {
      // The same at the margin `bake` keeps (pipeline/bake_colliders.h: the
      // tail skin's radius at its root): what a user's baked tail does.
      if (!in.tail) continue;
      solver::ChainParams bp = in.params;
      solver::ChainDesc desc;
      if (Status st = pipeline::character_chain(*in.chained, bp, desc); !st.ok())
        fail_regression(s.name, st.message);
      bp.collider_margin =
          pipeline::bake_colliders(*in.chained, desc, in.height_units, -1.0).margin_m;
      out.metrics[in.prefix + "bake_collider_margin_m"] = bp.collider_margin;
      if (Status st = simulate_chain(*in.chained, *in.clip, *in.times, in.loop, bp, height_m,
                                     m.bake, in.legs);
          !st.ok())
        fail_regression(s.name, st.message);
      runs.push_back({v, in.chained, &m.bake, false, "leg colliders at the bake's margin"});
    } else if (v == "chain_legs") {
      // The chain stepped with the legs' capsules as colliders (issue 46).
      if (!in.tail) continue;
      if (Status st = simulate_chain(*in.chained, *in.clip, *in.times, in.loop, in.params, height_m,
                                     m.legs, in.legs);
          !st.ok())
        fail_regression(s.name, st.message);
      runs.push_back({v, in.chained, &m.legs, false,
                      "spring solver with leg colliders, " + std::to_string(m.legs.warmup_passes) +
                          " warm-up loops"});
    } else if (v == "chain") {
      if (!in.tail) continue;
      // Detect built this chain: the solver refusing it is a regression.
      if (Status st = simulate_chain(*in.chained, *in.clip, *in.times, in.loop, in.params, height_m,
                                     m.free);
          !st.ok())
        fail_regression(s.name, st.message);
      runs.push_back({v, in.chained, &m.free, false,
                      "spring solver, " + std::to_string(m.free.warmup_passes) + " warm-up loops"});
      out.metrics[in.prefix + "chain.warmup_passes"] = m.free.warmup_passes;
    } else {
      return Status::Error(Status::Code::kBadData, s.path + ": unknown variant '" + v + "'");
    }
  }
  return Status::Ok();
}

}  // namespace

Status run_edge_stretch(const Scenario& s, const RunOptions& opt, ScenarioResult& out) {
  // "characters": [{"prefix": "cm.", "fixture": ...}, ...] measures each
  // version of a character under its prefix (units, seams, file round trip),
  // so "expect" can compare them; otherwise the one "character", unprefixed.
  std::vector<std::pair<std::string, nlohmann::json>> specs;
  if (s.raw.contains("characters") && !s.raw["characters"].is_array())
    return Status::Error(Status::Code::kBadData, s.path + ": \"characters\" must be a list of character objects");
  if (s.raw.contains("characters"))
    for (const auto& c : s.raw["characters"]) specs.emplace_back(c["prefix"].get<std::string>(), c);
  else
    specs.emplace_back("", s.character);
  // "clips": ["sprint", "hip_swing", ...] instead of one "clip" measures each
  // clip under its name as a prefix ("sprint.chain.tip_range_m"): one
  // scenario compares the same character's cases (tail_never_enters_legs).
  std::vector<std::pair<std::string, std::string>> clips;  // prefix, clip name
  if (s.raw.contains("clips")) {
    for (const auto& c : s.raw["clips"]) {
      if (!c.is_string())
        return Status::Error(Status::Code::kBadData,
                             s.path + ": \"clips\" must be a list of clip names");
      clips.emplace_back(c.get<std::string>() + ".", c.get<std::string>());
    }
    if (!s.clip.empty())
      return Status::Error(Status::Code::kBadData,
                           s.path + ": give \"clip\" or \"clips\", not both");
  } else {
    clips.emplace_back("", s.clip);
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    const auto& [prefix, spec] = specs[i];
    rig::Character original;
    if (Status st = load_character_spec(s, spec, original); !st.ok()) return st;
    if (!original.has_skin())
      return Status::Error(Status::Code::kBadData, s.path + ": character has no skinned mesh");
    if (!prefix.empty()) out.metrics[prefix + "meters_per_unit"] = original.meters_per_unit;
    // "hips_motion_clips": fast turns, swings and hops laid over a clip
    // (hips_motion_clip.h), measured like the character's own clips.
    for (const auto& motion : s.raw.value("hips_motion_clips", nlohmann::json::array()))
      if (Status st = add_hips_motion_clip(original, motion, s.path + ": hips_motion_clips");
          !st.ok())
        return st;
    const StretchSubject subject = stretch_subject(s, original);
    for (size_t k = 0; k < clips.size(); ++k) {
      const auto& [clip_prefix, clip_name] = clips[k];
      auto clip_it = std::find_if(original.clips.begin(), original.clips.end(),
                                  [&name = clip_name](const rig::Clip& c) { return c.name == name; });
      if (clip_it == original.clips.end())
        return Status::Error(Status::Code::kBadData,
                             s.path + ": character has no clip '" + clip_name + "'");
      if (Status st = measure_edge_stretch(s, opt, original, subject, *clip_it, prefix + clip_prefix,
                                           i == 0 && k == 0, out);
          !st.ok())
        return st;
    }
  }
  return Status::Ok();
}

StretchSubject stretch_subject(const Scenario& s, const rig::Character& original) {
  StretchSubject sub;
  // The detected tail region defines the edge sets for every variant.
  if (Status st = detect::fix(original, detect::Mode::kChain, detect::Params{}, sub.chained); !st.ok())
    fail_regression(s.name, "detect --chain: " + st.message);
  const detect::Analysis& an = sub.chained.analysis;
  const int nw = an.welded.count();
  std::vector<char> in_tail(nw, 0), in_region(nw, 0);
  for (size_t i = 0; i < an.regions.size(); ++i) {
    const detect::Region& r = an.regions[i];
    for (int w : r.welded) in_region[w] = 1;
    if (r.classification.action != detect::Action::kChain) continue;
    for (int w : r.welded) in_tail[w] = 1;
    if (sub.tail < 0) sub.tail = static_cast<int>(i);
  }
  if (const detect::Region* tail = sub.tail_region())
    for (size_t i = 0; i < tail->vertices.size(); ++i)
      if (tail->geodesic[i] >= 0.9 * tail->length) sub.tip_vertices.push_back(tail->vertices[i]);
  // The rigid variant (SPEC §2): the same tail regions, weight 1.0 on Hips.
  for (const auto& r : an.regions)
    if (r.classification.action == detect::Action::kChain)
      sub.tail_vertices.insert(sub.tail_vertices.end(), r.vertices.begin(), r.vertices.end());
  sub.rigid = detect::make_rigid(original, sub.tail_vertices, an.hips);
  for (const auto& e : rig::unique_edges(an.welded.triangles)) {
    if (in_tail[e.first] && in_tail[e.second]) sub.tail_edges.push_back(e);
    else if (!in_region[e.first] && !in_region[e.second]) sub.body_edges.push_back(e);
  }
  // Tail into the legs (issue 46): the legs' capsules from the body's own
  // skin (every region's vertices left out: the rigger's tail is on the thighs).
  std::vector<char> in_any_region(static_cast<size_t>(original.mesh.vertex_count()), 0);
  for (const auto& r : an.regions)
    for (int v : r.vertices) in_any_region[static_cast<size_t>(v)] = 1;
  sub.legs = rig::fit_leg_capsules(original, in_any_region);
  sub.counted = measure::outside_legs_at_bind(original, sub.legs, sub.tail_vertices);
  return sub;
}

Status measure_edge_stretch(const Scenario& s, const RunOptions& opt, const rig::Character& original,
                            const StretchSubject& sub, const rig::Clip& clip, const std::string& prefix,
                            bool with_series, ScenarioResult& out) {
  if (!original.has_skin()) return Status::Error(Status::Code::kBadData, s.path + ": character has no skinned mesh");
  const double mpu = original.meters_per_unit;
  const detect::FixResult& chained = sub.chained;
  const detect::Analysis& an = chained.analysis;
  const int nw = an.welded.count();
  const detect::Region* tail = sub.tail_region();
  const std::vector<int>& tip_vertices = sub.tip_vertices;
  const std::vector<int>& tail_vertices = sub.tail_vertices;
  const std::vector<std::pair<int, int>>& tail_edges = sub.tail_edges;
  const std::vector<std::pair<int, int>>& body_edges = sub.body_edges;
  out.metrics[prefix + "height_m"] = an.height * mpu;
  out.metrics[prefix + "tail_regions"] = static_cast<int>(std::count_if(an.regions.begin(), an.regions.end(), [](const auto& r) {
    return r.classification.action == detect::Action::kChain;
  }));
  out.metrics[prefix + "tail_edges"] = static_cast<long>(tail_edges.size());
  out.metrics[prefix + "body_edges"] = static_cast<long>(body_edges.size());
  if (tail) {
    out.metrics[prefix + "original.bone_distance_m"] = tail->bone_distance_before * mpu;
    out.metrics[prefix + "chain.bone_distance_m"] = tail->bone_distance_after * mpu;
    out.metrics[prefix + "tail_length_m"] = tail->length * mpu;
    out.metrics[prefix + "tail_bones"] = tail->bones;
  } else {
    out.failures.push_back(prefix + "no tail region detected: the tail rows cannot be measured");
  }

  const bool loop = clip_is_loop(original, clip);
  std::vector<double> times(s.samples);
  for (int i = 0; i < s.samples; ++i)
    times[i] = loop ? clip.duration * i / s.samples
                    : (s.samples > 1 ? clip.duration * i / (s.samples - 1) : 0.0);
  if (with_series) out.series["times"] = times;

  const std::vector<rig::LegCapsule>& legs = sub.legs;
  const std::vector<char>& counted = sub.counted;
  out.metrics[prefix + "leg_capsules"] = static_cast<int>(legs.size());

  solver::ChainParams sp;
  std::string perr;
  if (!pipeline::apply_solver_overrides(s.solver, sp, perr)) return Status::Error(Status::Code::kBadData, s.path + ": " + perr);
  sp.meters_per_unit = mpu;
  ChainMotions motions;
  std::vector<VariantRun> runs;
  const VariantInputs inputs{&original,
                             &sub.rigid,
                             &chained.character,
                             tail != nullptr,
                             &clip,
                             &times,
                             loop,
                             sp,
                             an.height,
                             mpu,
                             legs,
                             prefix};
  if (Status st = variant_runs(s, inputs, motions, runs, out); !st.ok()) return st;

  const std::vector<int>& rep = an.welded.representative;
  std::vector<Vec3> bind_w(nw);
  for (int w = 0; w < nw; ++w) bind_w[w] = original.mesh.positions[rep[w]];
  const std::vector<int> sheet_samples = {0, s.samples / 4, s.samples / 2, (3 * s.samples) / 4};
  for (const VariantRun& run : runs) {
    const rig::Character& ch = *run.character;
    const auto& edges = run.body_set ? body_edges : tail_edges;
    const int hips = rig::hips_joint(ch.skeleton);
    std::vector<double> all, p99_series, hips_height, leg_depths;
    std::vector<Vec3> tips;
    std::vector<std::vector<Vec3>> bone_dirs(run.motion ? run.motion->joints.size() : 0);
    std::vector<Vec3> posed_w(nw);
    // A tail run reads only its edges' ends, the tail and tip vertices: only
    // they are skinned (the whole mesh per sample was half this scenario's
    // time, issue 47); the body set and the contact sheet read every vertex.
    const bool every_vertex = run.body_set || opt.contact_sheet;
    const std::vector<int> read = every_vertex ? std::vector<int>{}
                                               : vertices_read(rep, edges, tail_vertices, tip_vertices,
                                                               ch.mesh.vertex_count());
    std::vector<Vec3> skinned(ch.mesh.positions.size()), read_skinned(read.size());
    const std::vector<double> bind_length = measure::edge_lengths(bind_w, edges);  // once, not per sample
    for (int si = 0; si < s.samples; ++si) {
      std::vector<rig::Transform> locals = ch.skeleton.stored_local;
      rig::apply_clip(clip, times[si], locals);
      if (run.motion)
        for (size_t i = 0; i < run.motion->joints.size(); ++i)
          locals[run.motion->joints[i]].rotation = run.motion->per_sample[si][i];
      const auto world = rig::local_to_world(ch.skeleton, locals);
      if (every_vertex) {
        rig::skin_positions(ch.mesh, ch.skin, ch.skeleton, world, skinned);
      } else {
        rig::skin_vertices(ch.mesh, ch.skin, ch.skeleton, world, read, read_skinned);
        for (size_t i = 0; i < read.size(); ++i) skinned[static_cast<size_t>(read[i])] = read_skinned[i];
      }
      for (int w = 0; w < nw; ++w) posed_w[w] = skinned[rep[w]];
      if (!run.body_set && !legs.empty())
        leg_depths.push_back(measure::tail_in_legs_depth(ch, legs, tail_vertices, counted, world, skinned));
      std::vector<double> ratios;
      measure::append_edge_ratios(bind_length, posed_w, edges, ratios);
      all.insert(all.end(), ratios.begin(), ratios.end());
      // Moved: percentile takes its list by value; ratios is not read again.
      p99_series.push_back(measure::percentile(std::move(ratios), 99));
      Eigen::Affine3d hw;
      hw.matrix() = world[hips];
      hips_height.push_back(hw.translation().y() * mpu);
      const Eigen::Matrix3d hips_rot = hw.linear().colwise().normalized();
      if (!tip_vertices.empty()) {
        Vec3 tip = Vec3::Zero();
        for (int v : tip_vertices) tip += skinned[v];
        tip /= static_cast<double>(tip_vertices.size());
        tips.push_back(hips_rot.transpose() * (tip - hw.translation()) * mpu);
      }
      if (run.motion) {
        const auto& js = run.motion->joints;
        for (size_t i = 0; i < js.size(); ++i) {
          const Vec3 head = world[js[i]].block<3, 1>(0, 3);
          const auto kids = ch.skeleton.children(js[i]);
          if (kids.empty()) continue;
          const Vec3 d = Vec3(world[kids[0]].block<3, 1>(0, 3)) - head;
          bone_dirs[i].push_back(hips_rot.transpose() * d.normalized());
        }
      }
      if (opt.contact_sheet && std::find(sheet_samples.begin(), sheet_samples.end(), si) != sheet_samples.end()) {
        // Side view (z, y) in metres; all set edges, every k-th other edge.
        nlohmann::json segs = nlohmann::json::array();
        auto add = [&](const std::pair<int, int>& e, bool in_set) {
          const double l0 = (bind_w[e.first] - bind_w[e.second]).norm();
          const double r = l0 > 0 ? (posed_w[e.first] - posed_w[e.second]).norm() / l0 : 1.0;
          auto q = [](double x) { return std::round(x * 1000.0) / 1000.0; };
          segs.push_back({q(posed_w[e.first].z() * mpu), q(posed_w[e.first].y() * mpu), q(posed_w[e.second].z() * mpu),
                          q(posed_w[e.second].y() * mpu), q(r), in_set ? 1 : 0});
        };
        for (const auto& e : edges) add(e, true);
        const auto& others = run.body_set ? tail_edges : body_edges;
        const size_t step = std::max<size_t>(1, others.size() / 4000);
        for (size_t k = 0; k < others.size(); k += step) add(others[k], false);
        out.contact[prefix + run.variant].push_back({{"time", times[si]}, {"segments", segs}});
      }
    }
    Row row{prefix + run.variant, run.body_set ? "body" : "tail", static_cast<long>(edges.size()), measure::stretch_stats(std::move(all)), run.note};
    const std::string pre = prefix + run.variant + "." + row.set + ".";
    out.metrics[pre + "p50"] = row.stats.p50;
    out.metrics[pre + "p95"] = row.stats.p95;
    out.metrics[pre + "p99"] = row.stats.p99;
    out.metrics[pre + "max"] = row.stats.max;
    out.metrics[pre + "min"] = row.stats.min;
    out.metrics[pre + "torn_fraction"] = row.stats.torn_fraction;
    if (with_series) {
      out.series["p99"][run.variant] = p99_series;
      out.series["hips_height_m"][run.variant] = hips_height;
    }
    if (!leg_depths.empty()) {
      // Skin level: tail vertices inside the posed leg capsules, samples
      // deeper than 1 % of H and the deepest.
      const measure::Penetration pen = measure::penetration(leg_depths, 0.01 * an.height);
      out.metrics[prefix + run.variant + ".tail_in_legs_frames_fraction"] = pen.frames_over_fraction;
      out.metrics[prefix + run.variant + ".tail_in_legs_max_rel_H"] = pen.max_depth / an.height;
      row.in_legs_fraction = pen.frames_over_fraction;
      row.in_legs_max_rel_H = pen.max_depth / an.height;
    }
    if (!run.body_set && !tips.empty()) {
      const measure::TailMotion m = measure::tail_motion(tips, bone_dirs);
      out.metrics[prefix + run.variant + ".tip_range_m"] = m.tip_range;
      out.metrics[prefix + run.variant + ".tip_rms_m"] = m.tip_rms;
      if (!m.bone_angle_range_deg.empty()) {
        out.metrics[prefix + run.variant + ".bone_angle_range_min_deg"] =
            *std::min_element(m.bone_angle_range_deg.begin(), m.bone_angle_range_deg.end());
        out.metrics[prefix + run.variant + ".bone_angle_range_max_deg"] =
            *std::max_element(m.bone_angle_range_deg.begin(), m.bone_angle_range_deg.end());
      }
    }
    out.rows.push_back(row);
  }
  return Status::Ok();
}

}  // namespace harness
