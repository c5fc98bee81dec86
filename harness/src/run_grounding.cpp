// Body grounding and calibration scenarios (issue 7, SPEC §5-6): kinds
// starting with "grounding_".
//
// Final tracks come from rig::transfer_clip, the pipeline `harness retarget`
// runs (retarget, floor alignment, body grounding, leg-only limb
// reconciliation), with the count_tail switch passed through. The target
// is a fixture run through detect --chain, so its tail skin sits on Tail_
// bones and grounding can tell it from the body.
//   grounding_pelvis_lift       tail counted vs excluded: SPEC §5's table
//   grounding_tail_skin         tail skin present vs deleted: same hips
//   grounding_calibration_isolation  live pose moved between requests
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/clip_transfer.h"
#include "rig/grounding.h"
#include "rig/placement.h"
#include "rig/pose.h"
#include "rig/retarget.h"
#include "runners.h"

namespace harness {
namespace {

using nlohmann::json;
using rig::Status;

Status bad(const Scenario& s, const std::string& m) { return Status::Error(Status::Code::kBadData, s.path + ": " + m); }

template <class T>
T param(const Scenario& s, const char* key, T fallback) {
  return s.raw.contains(key) ? s.raw[key].get<T>() : fallback;
}

void ensure_roles(rig::Skeleton& sk) {
  if (static_cast<int>(sk.roles.size()) != sk.size()) rig::assign_roles(sk);
}

// The scenario's fixture before and after detect --chain.
struct Target {
  rig::Character raw;    // as built: tail skin on leg bones
  rig::Character fixed;  // Tail_1..Tail_K under the hips carry the tail skin
  int hips = -1;
  int tail_bones = 0;
  double mpu = 1.0;
};

Status load_target(const Scenario& s, Target& t) {
  if (Status st = load_scenario_character(s, t.raw); !st.ok()) return st;
  ensure_roles(t.raw.skeleton);
  detect::FixResult fr;
  if (Status st = detect::fix(t.raw, detect::Mode::kChain, detect::Params{}, fr); !st.ok())
    fail_regression(s.name, "detect --chain: " + st.message);
  if (fr.chains < 1) fail_regression(s.name, "detect --chain grew no tail chain on this character");
  t.fixed = std::move(fr.character);
  ensure_roles(t.fixed.skeleton);
  t.hips = rig::hips_joint(t.fixed.skeleton);
  if (t.hips < 0) return bad(s, "target has no hips joint");
  for (bool b : rig::tail_joint_mask(t.fixed.skeleton)) t.tail_bones += b ? 1 : 0;
  if (t.tail_bones == 0) fail_regression(s.name, "no tail bones found after detect --chain");
  t.mpu = t.fixed.meters_per_unit;
  return Status::Ok();
}

// A clip to transfer: a mocap file ({"file": "assets:clips/x.bvh"}) or one of
// the fixture's own clips ({"fixture_clip": NAME}, animating the raw fixture).
struct Source {
  std::string key;    // metric prefix ("" = unprefixed)
  std::string label;  // for tables and plots
  rig::Character ch;
  rig::Clip clip;
};

Status load_source(const Scenario& s, const json& spec, const Target& t, Source& out) {
  out.key = spec.value("key", "");
  out.label = spec.value("label", out.key);
  if (spec.contains("fixture_clip")) {
    const std::string name = spec["fixture_clip"];
    out.ch = t.raw;
    auto it = std::find_if(out.ch.clips.begin(), out.ch.clips.end(), [&](const rig::Clip& c) { return c.name == name; });
    if (it == out.ch.clips.end()) return bad(s, "fixture has no clip '" + name + "'");
    out.clip = *it;
    return Status::Ok();
  }
  if (!spec.contains("file")) return bad(s, "a source needs \"file\" or \"fixture_clip\"");
  std::string path;
  if (Status st = resolve_scenario_file(s, spec["file"].get<std::string>(), path); !st.ok()) return st;
  if (Status st = rig::load(path, out.ch); !st.ok()) return bad(s, "loading " + path + ": " + st.message);
  ensure_roles(out.ch.skeleton);
  if (out.ch.clips.empty()) return bad(s, path + " has no clip");
  const std::string want = spec.value("clip", "");
  auto it = want.empty() ? out.ch.clips.begin()
                         : std::find_if(out.ch.clips.begin(), out.ch.clips.end(),
                                        [&](const rig::Clip& c) { return c.name == want; });
  if (it == out.ch.clips.end()) return bad(s, path + " has no clip '" + want + "'");
  out.clip = *it;
  return Status::Ok();
}

rig::GroundingOptions grounding_from(const Scenario& s, double mpu, bool count_tail) {
  rig::GroundingOptions g;
  const json j = s.raw.value("grounding", json::object());
  // The radius used to count samples (rate dependent); refuse the old key.
  if (j.contains("smoothing_radius")) throw std::runtime_error("grounding.smoothing_radius is now smoothing_radius_s (seconds)");
  g.points_per_joint = j.value("points_per_joint", g.points_per_joint);
  g.smoothing_radius_s = j.value("smoothing_radius_s", g.smoothing_radius_s);
  g.contact_shin_fraction = j.value("contact_shin_fraction", g.contact_shin_fraction);
  g.allowed_sink = j.value("allowed_sink_m", 0.0) / mpu;  // metres -> model units
  g.count_tail = count_tail;
  return g;
}

// World matrices of `clip` at `t` on the neutral (bind) locals: what
// retargeting and grounding see (the stored/live pose is never read).
std::vector<rig::Mat4> world_at(const rig::Skeleton& sk, const rig::Clip& clip, double t) {
  std::vector<rig::Transform> locals = sk.neutral_local;
  rig::apply_clip(clip, t, locals);
  return rig::local_to_world(sk, locals);
}

// What one clip request produced.
struct Transfer {
  rig::Clip clip;             // final tracks (rig::transfer_clip)
  std::vector<double> times;  // output keys, seconds
  std::vector<double> lift;   // per key, model units, added to the hips' world y
  double floor_alignment = 0; // model units subtracted from the hips' world y
  int hips = -1;
  std::vector<rig::FootReport> feet;  // limb reconciliation per foot
  std::vector<rig::Vec3> hips_values() const {
    for (const auto& jt : clip.tracks)
      if (jt.joint == hips) return jt.translation.values;
    return {};
  }
};

// One clip request through rig::transfer_clip (SPEC §5-6). `target` is the
// character as the preview holds it (its stored pose may be anything; only
// bind data and `dst_cal` may be read). Empty clip on an error status.
Transfer transfer(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                  const rig::Calibration& dst_cal, const rig::GroundingOptions& g, double rate) {
  rig::TransferOptions to;
  to.sample_rate = rate;
  to.grounding = g;
  rig::TransferResult r = rig::transfer_clip(src.ch, src.clip, src_cal, target, dst_cal, to);
  Transfer out;
  if (!r.status.ok() || r.times.size() < 2) return out;
  out.clip = std::move(r.clip);
  out.times = std::move(r.times);
  out.lift = std::move(r.lift);
  out.floor_alignment = r.floor_alignment;
  out.hips = dst_cal.hips;
  out.feet = std::move(r.feet);
  return out;
}

std::vector<double> hips_heights(const rig::Skeleton& sk, const rig::Clip& clip, int hips,
                                 const std::vector<double>& times, double mpu) {
  std::vector<double> out;
  for (double t : times) out.push_back(world_at(sk, clip, t)[hips](1, 3) * mpu);
  return out;
}

// Lowest body point (tail-dominated skin ignored, rig::place_on_floor) at t.
double body_bottom_at(const rig::Character& c, const rig::Clip& clip, double t) {
  const std::vector<rig::Mat4> w = world_at(c.skeleton, clip, t);
  const std::vector<rig::Vec3> posed = rig::skin_positions(c.mesh, c.skin, c.skeleton, w);
  return rig::place_on_floor(c, posed).body_bottom;
}

// The joint dominating the lowest non-tail-dominated vertex at t (what sets
// the body's bottom), by name.
std::string body_bottom_joint(const rig::Character& c, const rig::Clip& clip, double t) {
  const std::vector<rig::Vec3> posed = rig::skin_positions(c.mesh, c.skin, c.skeleton, world_at(c.skeleton, clip, t));
  const std::vector<bool> tail = rig::tail_joint_mask(c.skeleton);
  int best = -1;
  for (size_t v = 0; v < posed.size(); ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d < 0 || tail[d]) continue;
    if (best < 0 || posed[v].y() < posed[best].y()) best = static_cast<int>(v);
  }
  return best < 0 ? std::string("-") : c.skeleton.names[rig::dominant_joint(c.skin.influences[best])];
}

std::string fmt_time(double t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", t);
  return b;
}

// Sample indices for the table: nearest sample to each fraction of the
// duration, plus the sample of largest extra lift; ascending, unique.
std::vector<size_t> table_rows(const std::vector<double>& times, const std::vector<double>& extra,
                               const std::vector<double>& fractions) {
  std::vector<size_t> rows;
  const double d = times.back();
  for (double f : fractions) {
    size_t best = 0;
    for (size_t k = 1; k < times.size(); ++k)
      if (std::abs(times[k] - f * d) < std::abs(times[best] - f * d)) best = k;
    rows.push_back(best);
  }
  rows.push_back(static_cast<size_t>(std::max_element(extra.begin(), extra.end()) - extra.begin()));
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// ---------------------------------------------------------------------------
// grounding_pelvis_lift: SPEC §5's back flip table. Per source: final hips
// tracks with the tail counted in both minima vs excluded from both, the
// extra lift, and the body's clearance at the end.
Status pelvis_lift(const Scenario& s, ScenarioResult& out) {
  Target t;
  if (Status st = load_target(s, t); !st.ok()) return st;
  const double rate = param(s, "sample_rate_hz", 30.0);
  const std::vector<double> fractions = s.raw.value("table_fractions", std::vector<double>{0.6, 0.8, 0.95, 1.0});
  if (!s.raw.contains("sources") || !s.raw["sources"].is_array()) return bad(s, "\"sources\" (a list) is required");
  const rig::Calibration dst_cal = rig::calibrate(t.fixed.skeleton);
  const rig::Placement bind = rig::place_on_floor(t.fixed);
  const double mpu = t.mpu;
  out.metrics["tail_bones"] = t.tail_bones;
  out.metrics["reference_floor_body_m"] = bind.body_bottom * mpu;
  out.metrics["reference_floor_whole_mesh_m"] = bind.mesh_bottom * mpu;
  out.metrics["hips_bind_height_m"] = t.fixed.skeleton.bind_world[t.hips](1, 3) * mpu;
  for (const json& spec : s.raw["sources"]) {
    Source src;
    if (Status st = load_source(s, spec, t, src); !st.ok()) return st;
    const rig::Calibration src_cal = rig::calibrate(src.ch.skeleton);
    const Transfer counted = transfer(src, src_cal, t.fixed, dst_cal, grounding_from(s, mpu, true), rate);
    const Transfer excluded = transfer(src, src_cal, t.fixed, dst_cal, grounding_from(s, mpu, false), rate);
    if (counted.times.empty() || excluded.times.empty() || counted.times != excluded.times)
      return bad(s, src.label + ": retarget gave no hips motion");
    const std::vector<double>& times = excluded.times;
    const std::vector<double> hc = hips_heights(t.fixed.skeleton, counted.clip, t.hips, times, mpu);
    const std::vector<double> he = hips_heights(t.fixed.skeleton, excluded.clip, t.hips, times, mpu);
    std::vector<double> extra(times.size());
    for (size_t k = 0; k < times.size(); ++k) extra[k] = hc[k] - he[k];
    const std::string pre = src.key.empty() ? "" : src.key + ".";
    json table = json::array();
    for (size_t k : table_rows(times, extra, fractions)) {
      table.push_back({{"time", times[k]}, {"hips_tail_counted", hc[k]}, {"hips_tail_excluded", he[k]}, {"extra_lift", extra[k]}});
      // Numeric copies so the golden pins every table cell.
      const std::string row = pre + "lift_at_" + fmt_time(times[k]) + "s.";
      out.metrics[row + "hips_tail_counted_m"] = hc[k];
      out.metrics[row + "hips_tail_excluded_m"] = he[k];
      out.metrics[row + "extra_lift_m"] = extra[k];
    }
    out.metrics[pre + "lift_table"] = table;
    const double end = times.back();
    const size_t kmax = static_cast<size_t>(std::max_element(extra.begin(), extra.end()) - extra.begin());
    out.metrics[pre + "final_body_clearance"] = (body_bottom_at(t.fixed, excluded.clip, end) - bind.body_bottom) * mpu;
    {
      // Where the body ends: its lowest skin's joint and the pinned soles.
      double sole = std::numeric_limits<double>::infinity();
      for (const rig::FootReport& f : excluded.feet)
        if (!f.clearance_after.empty()) sole = std::min(sole, f.clearance_after.back());
      if (sole < std::numeric_limits<double>::infinity()) out.metrics[pre + "final_sole_clearance_m"] = sole * mpu;
      out.notes.push_back(src.label + ": lowest body skin at the end is on " + body_bottom_joint(t.fixed, excluded.clip, end));
      // The contact phases (detected before the lift; E holds a foot only in them).
      for (const rig::FootReport& f : excluded.feet) {
        std::string ph;
        for (const rig::ContactPhase& p : f.phases)
          ph += (ph.empty() ? "" : ", ") + fmt_time(times[p.first]) + "-" + fmt_time(times[p.last]);
        out.notes.push_back(src.label + ": contact phases of " + t.fixed.skeleton.names[f.leg.foot] + " (s): " +
                            (ph.empty() ? std::string("none") : ph));
      }
    }
    out.metrics[pre + "final_body_clearance_tail_counted_m"] = (body_bottom_at(t.fixed, counted.clip, end) - bind.body_bottom) * mpu;
    out.metrics[pre + "max_extra_lift_m"] = extra[kmax];
    out.metrics[pre + "max_extra_lift_time_s"] = times[kmax];
    out.metrics[pre + "min_extra_lift_m"] = *std::min_element(extra.begin(), extra.end());
    out.metrics[pre + "final_extra_lift_m"] = extra.back();
    out.metrics[pre + "final_lift_tail_excluded_m"] = excluded.lift.back() * mpu;
    // Floor alignment must not see the tail: the same in both runs, so the
    // extra lift is the tail's effect on body grounding alone.
    out.metrics[pre + "floor_alignment_m"] = excluded.floor_alignment * mpu;
    out.metrics[pre + "floor_alignment_counted_minus_excluded_m"] =
        (counted.floor_alignment - excluded.floor_alignment) * mpu;
    out.metrics[pre + "final_lift_tail_counted_m"] = counted.lift.back() * mpu;
    out.metrics[pre + "max_lift_tail_excluded_m"] = *std::max_element(excluded.lift.begin(), excluded.lift.end()) * mpu;
    out.metrics[pre + "max_lift_tail_counted_m"] = *std::max_element(counted.lift.begin(), counted.lift.end()) * mpu;
    out.metrics[pre + "duration_s"] = end;
    out.metrics[pre + "samples"] = static_cast<double>(times.size());
    std::vector<double> lc, le, clear_e, clear_c;
    rig::GroundingOptions raw_opt = grounding_from(s, mpu, false);
    raw_opt.smoothing_radius_s = 0;
    std::vector<double> raw_e = transfer(src, src_cal, t.fixed, dst_cal, raw_opt, rate).lift;
    for (double& x : raw_e) x *= mpu;
    for (size_t k = 0; k < times.size(); ++k) {
      lc.push_back(counted.lift[k] * mpu);
      le.push_back(excluded.lift[k] * mpu);
      clear_e.push_back((body_bottom_at(t.fixed, excluded.clip, times[k]) - bind.body_bottom) * mpu);
      clear_c.push_back((body_bottom_at(t.fixed, counted.clip, times[k]) - bind.body_bottom) * mpu);
    }
    {
      // Deepest body sink over the clip (tail excluded) and what sinks: skin
      // the limb solvers own (feet, near-ankle shins) outside contact phases
      // is not grounded by design.
      const size_t kl = static_cast<size_t>(std::min_element(clear_e.begin(), clear_e.end()) - clear_e.begin());
      out.metrics[pre + "min_body_clearance_m"] = clear_e[kl];
      out.metrics[pre + "min_body_clearance_time_s"] = times[kl];
      out.notes.push_back(src.label + ": deepest body point " + fmt_time(clear_e[kl]) + " m at " + fmt_time(times[kl]) +
                          " s, on " + body_bottom_joint(t.fixed, excluded.clip, times[kl]) + "; at 0 s on " +
                          body_bottom_joint(t.fixed, excluded.clip, 0.0));
    }
    out.series["lift_curves"][src.key.empty() ? "main" : src.key] = {
        {"label", src.label},       {"times", times},          {"hips_tail_counted", hc},
        {"hips_tail_excluded", he}, {"lift_tail_counted", lc}, {"lift_tail_excluded", le},
        {"body_clearance_tail_counted", clear_c}, {"body_clearance_tail_excluded", clear_e},
        {"raw_lift_tail_excluded", raw_e}};
    // Where the source's own feet are, relative to its bind-pose floor (lowest
    // foot/toe joint at bind): tells a source that does not stand on its bind
    // floor from a retarget or grounding error.
    {
      const rig::Skeleton& ss = src.ch.skeleton;
      double bind_low = std::numeric_limits<double>::infinity(), first = bind_low, last = bind_low;
      const auto w0 = world_at(ss, src.clip, 0.0), w1 = world_at(ss, src.clip, src.clip.duration);
      for (int j = 0; j < ss.size(); ++j) {
        const rig::BodyPart p = ss.roles[j].part;
        if (p != rig::BodyPart::kFoot && p != rig::BodyPart::kToe) continue;
        bind_low = std::min(bind_low, ss.bind_world[j](1, 3));
        first = std::min(first, w0[j](1, 3));
        last = std::min(last, w1[j](1, 3));
      }
      out.metrics[pre + "source_feet_above_bind_floor_start_m"] = (first - bind_low) * src.ch.meters_per_unit;
      out.metrics[pre + "source_feet_above_bind_floor_end_m"] = (last - bind_low) * src.ch.meters_per_unit;
      out.metrics[pre + "source_meters_per_unit"] = src.ch.meters_per_unit;
    }
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// grounding_tail_skin: SPEC §8 "tail skin weight can never trigger a pelvis
// lift". Grounding with the tail skin present and the tail excluded must give
// the same hips bits as grounding the same character with its tail vertices
// deleted from the mesh; counting the tail must differ (or the check proves
// nothing).

// A copy without the vertices in `drop` (triangles touching them removed).
rig::Character without_vertices(const rig::Character& c, const std::vector<bool>& drop) {
  rig::Character out = c;
  out.gltf.reset();  // the original document no longer matches the mesh
  std::vector<int> remap(c.mesh.positions.size(), -1);
  out.mesh.positions.clear();
  out.mesh.source_primitive.clear();
  out.mesh.source_index.clear();
  out.skin.influences.clear();
  for (size_t v = 0; v < c.mesh.positions.size(); ++v) {
    if (v < drop.size() && drop[v]) continue;
    remap[v] = static_cast<int>(out.mesh.positions.size());
    out.mesh.positions.push_back(c.mesh.positions[v]);
    if (v < c.mesh.source_primitive.size()) out.mesh.source_primitive.push_back(c.mesh.source_primitive[v]);
    if (v < c.mesh.source_index.size()) out.mesh.source_index.push_back(c.mesh.source_index[v]);
    if (v < c.skin.influences.size()) out.skin.influences.push_back(c.skin.influences[v]);
  }
  out.mesh.triangles.clear();
  for (const auto& tri : c.mesh.triangles) {
    const std::array<int, 3> r = {remap[tri[0]], remap[tri[1]], remap[tri[2]]};
    if (r[0] >= 0 && r[1] >= 0 && r[2] >= 0) out.mesh.triangles.push_back(r);
  }
  return out;
}

struct HipsDiff {
  long keys = 0, mismatched = 0;  // hips translation keys compared / differing in any bit
  double max_abs = 0.0;           // model units
};

HipsDiff compare_hips(const Transfer& a, const Transfer& b) {
  HipsDiff d;
  const std::vector<rig::Vec3> va = a.hips_values(), vb = b.hips_values();
  if (va.size() != vb.size() || a.times != b.times) {
    d.mismatched = d.keys = static_cast<long>(std::max(va.size(), vb.size()));
    d.max_abs = std::numeric_limits<double>::infinity();
    return d;
  }
  for (size_t k = 0; k < va.size(); ++k) {
    ++d.keys;
    if (std::memcmp(va[k].data(), vb[k].data(), sizeof(double) * 3) != 0) ++d.mismatched;
    d.max_abs = std::max(d.max_abs, (va[k] - vb[k]).cwiseAbs().maxCoeff());
  }
  return d;
}

Status tail_skin(const Scenario& s, ScenarioResult& out) {
  Target t;
  if (Status st = load_target(s, t); !st.ok()) return st;
  if (!s.character.contains("fixture") || s.character.contains("seam_drift"))
    return bad(s, "needs a fixture without seam drift (the tail region comes from its ground truth)");
  rig::Character again;
  fixtures::GroundTruth truth;
  std::string err;
  const std::string fixture = s.character["fixture"].get<std::string>();
  fixtures::FixtureParams params = fixtures::default_params(fixture);
  if (Status st = apply_fixture_params(s.character.value("params", json::object()), s.path, params); !st.ok()) return st;
  if (!fixtures::make_fixture(fixture, params, again, &err, &truth)) return bad(s, err);
  const int nv = t.fixed.mesh.vertex_count();
  if (static_cast<int>(truth.appendage_of_vertex.size()) != nv) return bad(s, "ground truth does not match the mesh");
  // Tail region by the fixture's ground truth (independent of the code
  // under test) and tail skin by grounding's own rule (dominant joint a tail
  // bone): both deleted variants must ground exactly like the full mesh.
  std::vector<bool> region(nv, false), skin(nv, false);
  const std::vector<bool> tail_joint = rig::tail_joint_mask(t.fixed.skeleton);
  int n_region = 0, n_skin = 0;
  for (int v = 0; v < nv; ++v) {
    const int a = truth.appendage_of_vertex[v];
    region[v] = a >= 0 && truth.appendages[a].name == "tail";
    const int d = rig::dominant_joint(t.fixed.skin.influences[v]);
    skin[v] = d >= 0 && tail_joint[d];
    n_region += region[v] ? 1 : 0;
    n_skin += skin[v] ? 1 : 0;
  }
  if (n_region == 0) return bad(s, "fixture has no tail region");
  const rig::Character no_region = without_vertices(t.fixed, region);
  const rig::Character no_skin = without_vertices(t.fixed, skin);
  out.metrics["tail_region_vertices"] = n_region;
  out.metrics["tail_skin_vertices"] = n_skin;
  out.metrics["mesh_vertices"] = nv;
  // How far the tail hangs below the body's lowest skin in bind: > 0 makes the
  // "wrong reference floor" form of SPEC §5 visible (tail in f_body).
  double body_low = 1e300, tail_low = 1e300;
  for (int v = 0; v < nv; ++v)
    (region[v] ? tail_low : body_low) = std::min(region[v] ? tail_low : body_low, t.fixed.mesh.positions[v].y());
  out.metrics["bind.tail_below_body_m"] = (body_low - tail_low) * t.mpu;
  const double rate = param(s, "sample_rate_hz", 30.0), mpu = t.mpu;
  const rig::Calibration dst_cal = rig::calibrate(t.fixed.skeleton);
  if (!s.raw.contains("sources") || !s.raw["sources"].is_array()) return bad(s, "\"sources\" (a list) is required");
  // The scenario's grounding, then each of "grounding_variants" ({key, and
  // option overrides}): a variant whose grounding does lift the body shows
  // the deletion checks also hold for a non-zero lift.
  struct Variant {
    std::string key;
    rig::GroundingOptions excl, cnt;
  };
  std::vector<Variant> variants = {{"", grounding_from(s, mpu, false), grounding_from(s, mpu, true)}};
  for (const json& v : s.raw.value("grounding_variants", json::array())) {
    Variant var{v.at("key").get<std::string>() + ".", grounding_from(s, mpu, false), grounding_from(s, mpu, true)};
    for (rig::GroundingOptions* g : {&var.excl, &var.cnt}) {
      g->contact_shin_fraction = v.value("contact_shin_fraction", g->contact_shin_fraction);
      g->smoothing_radius_s = v.value("smoothing_radius_s", g->smoothing_radius_s);
      g->points_per_joint = v.value("points_per_joint", g->points_per_joint);
    }
    variants.push_back(var);
  }
  long mism_region = 0, mism_skin = 0;
  double max_region = 0, max_skin = 0, max_counted = 0;
  for (const json& spec : s.raw["sources"]) for (const Variant& variant : variants) {
    const rig::GroundingOptions &excl = variant.excl, &cnt = variant.cnt;
    Source src;
    if (Status st = load_source(s, spec, t, src); !st.ok()) return st;
    const rig::Calibration src_cal = rig::calibrate(src.ch.skeleton);
    auto run = [&](const rig::Character& c, const rig::GroundingOptions& g) {
      return transfer(src, src_cal, c, dst_cal, g, rate);
    };
    const Transfer full = run(t.fixed, excl);
    if (full.times.empty()) return bad(s, src.label + ": retarget gave no hips motion");
    const HipsDiff dr = compare_hips(full, run(no_region, excl));
    const HipsDiff ds = compare_hips(full, run(no_skin, excl));
    // With the tail skin gone there is nothing left to count.
    const HipsDiff dsc = compare_hips(full, run(no_skin, cnt));
    const Transfer counted = run(t.fixed, cnt);
    const HipsDiff dc = compare_hips(full, counted);
    const std::string pre = variant.key + src.key + ".";
    out.metrics[pre + "hips_keys"] = dr.keys;
    out.metrics[pre + "deleted_tail_region.mismatched_keys"] = dr.mismatched;
    out.metrics[pre + "deleted_tail_region.max_abs_diff_m"] = dr.max_abs * mpu;
    out.metrics[pre + "deleted_tail_skin.mismatched_keys"] = ds.mismatched;
    out.metrics[pre + "deleted_tail_skin.max_abs_diff_m"] = ds.max_abs * mpu;
    out.metrics[pre + "deleted_tail_skin_counted.max_abs_diff_m"] = dsc.max_abs * mpu;
    out.metrics[pre + "tail_counted.max_abs_diff_m"] = dc.max_abs * mpu;
    out.metrics[pre + "tail_counted.max_lift_m"] = *std::max_element(counted.lift.begin(), counted.lift.end()) * mpu;
    out.metrics[pre + "tail_excluded.max_lift_m"] = *std::max_element(full.lift.begin(), full.lift.end()) * mpu;
    mism_region += dr.mismatched;
    mism_skin += ds.mismatched + dsc.mismatched;
    max_region = std::max(max_region, dr.max_abs * mpu);
    max_skin = std::max({max_skin, ds.max_abs * mpu, dsc.max_abs * mpu});
    max_counted = std::max(max_counted, dc.max_abs * mpu);
  }
  out.metrics["deleted_tail_region.mismatched_keys"] = mism_region;
  out.metrics["deleted_tail_region.max_abs_diff_m"] = max_region;
  out.metrics["deleted_tail_skin.mismatched_keys"] = mism_skin;
  out.metrics["deleted_tail_skin.max_abs_diff_m"] = max_skin;
  out.metrics["tail_counted.max_abs_diff_m"] = max_counted;
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// grounding_calibration_isolation (SPEC §6): clip requests against a live
// character whose hips the preview moves and rotates between requests give
// the clean run's tracks bit for bit, leave the live pose untouched, and
// agree when run in parallel threads. A calibration deliberately taken from
// the moved pose must differ (the check can fail).

struct ClipDiff {
  long values = 0, mismatched = 0;  // scalars compared / differing in any bit
  double max_abs = 0.0;             // largest scalar difference (mixed units)
  void add(const ClipDiff& o) {
    values += o.values;
    mismatched += o.mismatched;
    max_abs = std::max(max_abs, o.max_abs);
  }
};

template <class T>
void diff_track(const rig::Track<T>& a, const rig::Track<T>& b, ClipDiff& d) {
  auto scalars = [](const rig::Track<T>& tr) {
    std::vector<double> v(tr.times);
    for (const T& x : tr.values) {
      if constexpr (std::is_same_v<T, rig::Quat>) v.insert(v.end(), x.coeffs().data(), x.coeffs().data() + 4);
      else v.insert(v.end(), x.data(), x.data() + 3);
    }
    return v;
  };
  const std::vector<double> va = scalars(a), vb = scalars(b);
  if (va.size() != vb.size() || a.times.size() != b.times.size()) {
    d.values += static_cast<long>(std::max(va.size(), vb.size()));
    d.mismatched += static_cast<long>(std::max(va.size(), vb.size()));
    d.max_abs = std::numeric_limits<double>::infinity();
    return;
  }
  for (size_t i = 0; i < va.size(); ++i) {
    ++d.values;
    if (std::memcmp(&va[i], &vb[i], sizeof(double)) != 0) ++d.mismatched;
    d.max_abs = std::max(d.max_abs, std::abs(va[i] - vb[i]));
  }
}

ClipDiff diff_clips(const rig::Clip& a, const rig::Clip& b) {
  ClipDiff d;
  if (a.tracks.size() != b.tracks.size() || a.tracks.empty()) {
    d.values = d.mismatched = 1;
    d.max_abs = std::numeric_limits<double>::infinity();
    return d;
  }
  for (size_t j = 0; j < a.tracks.size(); ++j) {
    if (a.tracks[j].joint != b.tracks[j].joint) ++d.mismatched;
    diff_track(a.tracks[j].translation, b.tracks[j].translation, d);
    diff_track(a.tracks[j].rotation, b.tracks[j].rotation, d);
    diff_track(a.tracks[j].scale, b.tracks[j].scale, d);
  }
  return d;
}

// Every double of the skeleton's poses and bind data, for a bitwise check.
std::vector<double> pose_bits(const rig::Skeleton& sk) {
  std::vector<double> v;
  for (const auto* locals : {&sk.stored_local, &sk.neutral_local})
    for (const rig::Transform& x : *locals) {
      v.insert(v.end(), x.translation.data(), x.translation.data() + 3);
      v.insert(v.end(), x.rotation.coeffs().data(), x.rotation.coeffs().data() + 4);
      v.insert(v.end(), x.scale.data(), x.scale.data() + 3);
    }
  for (const rig::Mat4& m : sk.bind_world) v.insert(v.end(), m.data(), m.data() + 16);
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

Status calibration_isolation(const Scenario& s, ScenarioResult& out) {
  Target t;
  if (Status st = load_target(s, t); !st.ok()) return st;
  if (!s.raw.contains("sources") || !s.raw["sources"].is_array() || s.raw["sources"].empty())
    return bad(s, "\"sources\" (a non-empty list of clip requests) is required");
  const double rate = param(s, "sample_rate_hz", 30.0), mpu = t.mpu;
  const rig::GroundingOptions g = grounding_from(s, mpu, false);
  std::vector<Source> sources;
  std::vector<rig::Calibration> src_cals;
  for (const json& spec : s.raw["sources"]) {
    sources.emplace_back();
    if (Status st = load_source(s, spec, t, sources.back()); !st.ok()) return st;
    src_cals.push_back(rig::calibrate(sources.back().ch.skeleton));
  }
  const size_t n = sources.size();
  // Captured once from the bind pose, before any playback.
  const rig::Calibration cal = rig::calibrate(t.fixed.skeleton);

  // Clean run: nothing plays between requests.
  std::vector<Transfer> clean;
  for (size_t i = 0; i < n; ++i) {
    clean.push_back(transfer(sources[i], src_cals[i], t.fixed, cal, g, rate));
    if (clean.back().clip.tracks.empty()) return bad(s, sources[i].label + ": retarget gave no tracks");
  }

  // Live run: before each request the preview plays the previous result and
  // then the hips are moved and rotated further (per request i: (i+1) times
  // the scenario's offset and angle).
  const std::vector<double> mv = s.raw.value("move_hips_m", std::vector<double>{0.3, -0.25, 0.4});
  const double turn = param(s, "rotate_hips_deg", 35.0) * 3.14159265358979323846 / 180.0;
  if (mv.size() != 3) return bad(s, "move_hips_m needs 3 numbers");
  const rig::Vec3 move = rig::Vec3(mv[0], mv[1], mv[2]) / mpu;
  const rig::Quat rot(Eigen::AngleAxisd(turn, rig::Vec3(0.3, 1.0, -0.2).normalized()));
  rig::Character live = t.fixed;
  ClipDiff live_diff, recal_diff;
  long live_changed = 0;
  double moved_m = 0, rotated_deg = 0;
  for (size_t i = 0; i < n; ++i) {
    rig::Skeleton& sk = live.skeleton;
    if (i > 0) rig::apply_clip(clean[i - 1].clip, 0.5 * clean[i - 1].clip.duration, sk.stored_local);
    for (size_t k = 0; k <= i; ++k) {
      sk.stored_local[t.hips].translation += move;
      sk.stored_local[t.hips].rotation = (rot * sk.stored_local[t.hips].rotation).normalized();
    }
    moved_m = std::max(moved_m, (sk.stored_local[t.hips].translation - sk.neutral_local[t.hips].translation).norm() * mpu);
    rotated_deg = std::max(rotated_deg, sk.stored_local[t.hips].rotation.angularDistance(sk.neutral_local[t.hips].rotation) * 180.0 / 3.14159265358979323846);
    const std::vector<double> before = pose_bits(sk);
    const Transfer r = transfer(sources[i], src_cals[i], live, cal, g, rate);
    live_diff.add(diff_clips(r.clip, clean[i].clip));
    // A careless caller recalibrating from the live skeleton still gets the
    // clean tracks: calibrate reads the bind data, never the stored pose.
    const Transfer rc = transfer(sources[i], src_cals[i], live, rig::calibrate(sk), g, rate);
    recal_diff.add(diff_clips(rc.clip, clean[i].clip));
    if (!same_bits(before, pose_bits(sk))) ++live_changed;
  }

  // Parallel: every request twice at once, on the same live character and
  // calibration (shared read-only), each thread with its own output.
  const std::vector<double> before_parallel = pose_bits(live.skeleton);
  std::vector<Transfer> par(2 * n);
  {
    std::vector<std::thread> threads;
    for (size_t i = 0; i < 2 * n; ++i)
      threads.emplace_back([&, i] {
        const size_t k = i % n;
        par[i] = transfer(sources[k], src_cals[k], live, cal, g, rate);
      });
    for (auto& th : threads) th.join();
  }
  ClipDiff par_diff;
  for (size_t i = 0; i < 2 * n; ++i) par_diff.add(diff_clips(par[i].clip, clean[i % n].clip));
  if (!same_bits(before_parallel, pose_bits(live.skeleton))) ++live_changed;

  // Self-check: a calibration taken from the moved live pose (the bug of
  // SPEC §6) must give different tracks.
  rig::Skeleton contaminated = live.skeleton;
  contaminated.neutral_local = live.skeleton.stored_local;
  contaminated.bind_world = rig::local_to_world(contaminated, contaminated.neutral_local);
  for (int j = 0; j < contaminated.size(); ++j) contaminated.inverse_bind[j] = contaminated.bind_world[j].inverse();
  ClipDiff bug_diff;
  for (size_t i = 0; i < n; ++i)
    bug_diff.add(diff_clips(transfer(sources[i], src_cals[i], live, rig::calibrate(contaminated), g, rate).clip,
                            clean[i].clip));

  long clean_values = 0;
  for (const Transfer& c : clean) clean_values += diff_clips(c.clip, c.clip).values;
  out.metrics["requests"] = static_cast<double>(n);
  out.metrics["compared_values"] = static_cast<double>(clean_values);
  out.metrics["live_hips_moved_m"] = moved_m;
  out.metrics["live_hips_rotated_deg"] = rotated_deg;
  out.metrics["live.mismatched_values"] = static_cast<double>(live_diff.mismatched);
  out.metrics["live.max_abs_diff"] = live_diff.max_abs;
  out.metrics["recalibrated_from_live.mismatched_values"] = static_cast<double>(recal_diff.mismatched);
  out.metrics["parallel.threads"] = static_cast<double>(2 * n);
  out.metrics["parallel.mismatched_values"] = static_cast<double>(par_diff.mismatched);
  out.metrics["live_pose_changed"] = static_cast<double>(live_changed);
  out.metrics["bug_calibration_from_live_pose.mismatched_values"] = static_cast<double>(bug_diff.mismatched);
  out.metrics["bug_calibration_from_live_pose.max_abs_diff"] = bug_diff.max_abs;
  return Status::Ok();
}

}  // namespace

rig::Status run_grounding_scenario(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  try {
    if (s.kind == "grounding_pelvis_lift") return pelvis_lift(s, out);
    if (s.kind == "grounding_tail_skin") return tail_skin(s, out);
    if (s.kind == "grounding_calibration_isolation") return calibration_isolation(s, out);
  } catch (const ScenarioRegression&) {
    throw;  // the product failed: harness run reports a regression, not bad parameters
  } catch (const std::exception& e) {
    return bad(s, std::string("scenario parameters: ") + e.what());
  }
  return Status::Error(Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

}  // namespace harness
