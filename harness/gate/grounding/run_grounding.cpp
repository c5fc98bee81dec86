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
//
// The scenario bodies live in run_grounding_{lift,tail_skin,isolation}.cpp;
// the target, sources and clip request they share in run_grounding.h and
// here.
#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "detect/find_appendages.h"
#include "rig/anatomy/roles.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/contact/grounding.h"
#include "harness/gate/fixture_cache.h"
#include "harness/gate/grounding/run_grounding.h"
#include "harness/gate/runners.h"
#include "rig/io/io.h"

namespace harness::grounding {
namespace {

void ensure_roles(rig::Skeleton& sk) {
  if (static_cast<int>(sk.roles.size()) != sk.size()) rig::assign_roles(sk);
}

}  // namespace

Status bad(const Scenario& s, const std::string& m) { return Status::Error(Status::Code::kBadData, s.path + ": " + m); }

Status load_target(const Scenario& s, Target& t) {
  if (Status st = load_scenario_character(s, t.raw); !st.ok()) return st;
  // A fixture as built (its roles assigned) is detected once per run
  // (FixtureCache::chained).
  const std::string key =
      static_cast<int>(t.raw.skeleton.roles.size()) == t.raw.skeleton.size() ? plain_fixture_key(s.character) : "";
  ensure_roles(t.raw.skeleton);
  detect::FixResult fr;
  const Status st = s.fixtures && !key.empty() ? s.fixtures->chained(key, t.raw, fr)
                                               : detect::fix(t.raw, detect::Mode::kChain, detect::Params{}, fr);
  if (!st.ok()) fail_regression(s.name, "detect --chain: " + st.message);
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
  if (Status st = load_cached(s.fixtures, path, out.ch); !st.ok()) return bad(s, "loading " + path + ": " + st.message);
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

rig::TransferOptions transfer_options(const rig::GroundingOptions& g, double rate) {
  rig::TransferOptions to;
  to.sample_rate = rate;
  to.grounding = g;
  // SPEC §5-6 measure the retarget pipeline's grounding: a fixture's clips
  // stand for library clips on its own skeleton, retargeted as the article's
  // were, not copied as authored.
  to.copy_own_rig_clips = false;
  return to;
}

rig::TargetSupport prepare(const rig::Character& target, const rig::Calibration& dst_cal,
                           const rig::GroundingOptions& g, double rate) {
  return rig::prepare_target_support(target, dst_cal, transfer_options(g, rate));
}

Transfer transfer(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                  const rig::Calibration& dst_cal, const rig::GroundingOptions& g, double rate) {
  return transfer(src, src_cal, target, dst_cal, prepare(target, dst_cal, g, rate), g, rate);
}

namespace {

Transfer from_result(rig::TransferResult r, int hips) {
  Transfer out;
  if (!r.status.ok() || r.times.size() < 2) return out;
  out.clip = std::move(r.clip);
  out.times = std::move(r.times);
  out.lift = std::move(r.lift);
  out.floor_alignment = r.floor_alignment;
  out.hips = hips;
  out.feet = std::move(r.feet);
  return out;
}

}  // namespace

Transfer transfer(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                  const rig::Calibration& dst_cal, const rig::TargetSupport& prepared, const rig::GroundingOptions& g,
                  double rate) {
  return from_result(rig::transfer_clip(src.ch, src.clip, src_cal, target, dst_cal, prepared, transfer_options(g, rate)),
                     dst_cal.hips);
}

std::vector<Transfer> transfers(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                                const rig::Calibration& dst_cal, std::span<const rig::TargetSupport* const> prepared,
                                std::span<const rig::GroundingOptions> g, double rate) {
  std::vector<Transfer> out;
  if (g.empty()) return out;
  for (rig::TransferResult& r : rig::transfer_clip_groundings(src.ch, src.clip, src_cal, target, dst_cal, prepared, g,
                                                              transfer_options(g[0], rate)))
    out.push_back(from_result(std::move(r), dst_cal.hips));
  return out;
}

}  // namespace harness::grounding

namespace harness {

rig::Status run_grounding_scenario(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  using namespace grounding;
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
