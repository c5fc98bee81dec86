// grounding_tail_skin (run_grounding.cpp): grounding with the tail skin
// present and excluded gives the same hips bits as with it deleted.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "fixtures/fixtures.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/retarget.h"
#include "harness/gate/fixture_cache.h"
#include "harness/gate/grounding/run_grounding.h"

namespace harness::grounding {

// ---------------------------------------------------------------------------
// grounding_tail_skin: SPEC §8 "tail skin weight can never trigger a pelvis
// lift". Grounding with the tail skin present and the tail excluded must give
// the same hips bits as grounding the same character with its tail vertices
// deleted from the mesh; counting the tail must differ (or the check proves
// nothing).

namespace {

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

}  // namespace

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
  if (!make_fixture_cached(s.fixtures, fixture, s.character.value("params", json::object()).dump(), params, again, &err,
                           &truth))
    return bad(s, err);
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
  // Each variant's five (character, grounding) targets, prepared once for
  // every source.
  // (One support serves both groundings of a character when they differ
  // only in what grounding itself reads: rig::support_serves.)
  using Support = std::shared_ptr<const rig::TargetSupport>;
  struct Prepared {
    Support full, no_region, no_skin, no_skin_counted, counted;
  };
  const auto prepared_for = [&](const rig::Character& c, const rig::GroundingOptions& g) {
    return std::make_shared<const rig::TargetSupport>(prepare(c, dst_cal, g, rate));
  };
  std::vector<Prepared> prepared;
  for (const Variant& v : variants) {
    Prepared p{prepared_for(t.fixed, v.excl), prepared_for(no_region, v.excl), prepared_for(no_skin, v.excl), {}, {}};
    const bool one = rig::support_serves(v.excl, v.cnt);
    p.no_skin_counted = one ? p.no_skin : prepared_for(no_skin, v.cnt);
    p.counted = one ? p.full : prepared_for(t.fixed, v.cnt);
    prepared.push_back(std::move(p));
  }
  long mism_region = 0, mism_skin = 0;
  double max_region = 0, max_skin = 0, max_counted = 0;
  for (const json& spec : s.raw["sources"]) {
    // Each source read once for every variant.
    Source src;
    if (Status st = load_source(s, spec, t, src); !st.ok()) return st;
    const rig::Calibration src_cal = rig::calibrate(src.ch.skeleton);
    for (size_t vi = 0; vi < variants.size(); ++vi) {
      const Variant& variant = variants[vi];
      const Prepared& p = prepared[vi];
      const rig::GroundingOptions &excl = variant.excl, &cnt = variant.cnt;
      auto run = [&](const rig::Character& c, const rig::TargetSupport& support, const rig::GroundingOptions& g) {
        return transfer(src, src_cal, c, dst_cal, support, g, rate);
      };
      // Each character's two groundings from one posed clip (the steps
      // before grounding read neither).
      const rig::GroundingOptions both[] = {excl, cnt};
      const rig::TargetSupport* on_full[] = {p.full.get(), p.counted.get()};
      const rig::TargetSupport* on_no_skin[] = {p.no_skin.get(), p.no_skin_counted.get()};
      const std::vector<Transfer> full_counted = transfers(src, src_cal, t.fixed, dst_cal, on_full, both, rate);
      const Transfer& full = full_counted[0];
      if (full.times.empty()) return bad(s, src.label + ": retarget gave no hips motion");
      const HipsDiff dr = compare_hips(full, run(no_region, *p.no_region, excl));
      const std::vector<Transfer> no_skin_runs = transfers(src, src_cal, no_skin, dst_cal, on_no_skin, both, rate);
      const HipsDiff ds = compare_hips(full, no_skin_runs[0]);
      // With the tail skin gone there is nothing left to count.
      const HipsDiff dsc = compare_hips(full, no_skin_runs[1]);
      const Transfer& counted = full_counted[1];
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
  }
  out.metrics["deleted_tail_region.mismatched_keys"] = mism_region;
  out.metrics["deleted_tail_region.max_abs_diff_m"] = max_region;
  out.metrics["deleted_tail_skin.mismatched_keys"] = mism_skin;
  out.metrics["deleted_tail_skin.max_abs_diff_m"] = max_skin;
  out.metrics["tail_counted.max_abs_diff_m"] = max_counted;
  return Status::Ok();
}

}  // namespace harness::grounding
