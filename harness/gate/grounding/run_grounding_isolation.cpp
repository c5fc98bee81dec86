// grounding_calibration_isolation (run_grounding.cpp): clip requests against
// a live character whose pose the preview moves give the clean tracks.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "rig/model/pose.h"
#include "rig/retarget/retarget.h"
#include "harness/gate/grounding/run_grounding.h"

namespace harness::grounding {

// ---------------------------------------------------------------------------
// grounding_calibration_isolation (SPEC §6): clip requests against a live
// character whose hips the preview moves and rotates between requests give
// the clean run's tracks bit for bit, leave the live pose untouched, and
// agree when run in parallel threads. A calibration deliberately taken from
// the moved pose must differ (the check can fail).

namespace {

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

}  // namespace

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

  // Clean run: nothing plays between requests (the target prepared once:
  // the reference; every live request below prepares its own).
  std::vector<Transfer> clean;
  const rig::TargetSupport clean_support = prepare(t.fixed, cal, g, rate);
  for (size_t i = 0; i < n; ++i) {
    clean.push_back(transfer(sources[i], src_cals[i], t.fixed, cal, clean_support, g, rate));
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

}  // namespace harness::grounding
