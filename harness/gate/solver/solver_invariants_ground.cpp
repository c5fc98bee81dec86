// Solver invariants at the floor: contact_never_moves_body (the tail never
// changes a non-tail joint) and ground (particles stay above the floor on
// fixture clips; a synthetic tail settles on it and lifts off again).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "rig/model/pose.h"
#include "harness/gate/solver/solver_invariants_common.h"

namespace harness::solver_invariants {

namespace {

// ---------------------------------------------------------------------------
// ground: fixture clips with the tail reaching the floor, at the default and
// a raised floor; every particle (internal and displayed) at or above F + rho.
struct GroundStats {
  double min_margin = 1e30;            // min (y - (F + rho)) of the displayed points, metres
  double min_margin_internal = 1e30;   // same for the internal particles
  double min_head_margin = 1e30;       // min (y - (F + rho)) of every link head (the root included)
  double max_len_err = 0;
  double max_display_offset = 0;       // max |displayed point - internal particle|, metres
  int nan = 0, contact_frames = 0;
};

void ground_frame(const solver::ChainDesc& desc, const solver::ChainParams& p, const solver::ChainState& st,
                  const Vector3d& root, GroundStats& g) {
  const double F = p.floor_height + p.floor_clearance;
  bool contact = false;
  for (int i = 0; i < desc.size(); ++i) {
    const size_t u = static_cast<size_t>(i);
    if (!st.pos[u].allFinite() || !st.points[u + 1].allFinite()) {
      ++g.nan;
      continue;
    }
    g.min_margin = std::min(g.min_margin, st.points[u + 1].y() - F);
    g.min_margin_internal = std::min(g.min_margin_internal, st.pos[u].y() - F);
    g.max_display_offset = std::max(g.max_display_offset, (st.points[u + 1] - st.pos[u]).norm());
    g.min_head_margin = std::min(g.min_head_margin, (i == 0 ? root : st.points[u]).y() - F);
    const double dl = (st.points[u + 1] - (i == 0 ? root : st.points[u])).norm();
    g.max_len_err = std::max(g.max_len_err, std::abs(dl / desc.links[u].length - 1.0));
    contact = contact || st.contact[u] != 0;
  }
  if (contact) ++g.contact_frames;
}

}  // namespace

// contact_never_moves_body: posing with and without the solver gives the
// same world matrix, bit for bit, for every joint outside the tail.
Status contact_never_moves_body(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<std::string> clips =
      s.raw.contains("clips") ? s.raw["clips"].get<std::vector<std::string>>() : std::vector<std::string>{s.clip};
  const double fps = param(s, "fps", 30.0);
  const double floor_lift = param(s, "floor_raise_m", 0.0);
  for (const std::string& clip : clips) {
    solver::ChainParams p;
    FixtureChain fc;
    if (Status st = load_fixture_chain(s, clip, base, fc, p); !st.ok()) return st;
    p.floor_height += floor_lift;
    const rig::Skeleton& sk = fc.ch.skeleton;
    std::vector<char> tail(static_cast<size_t>(sk.size()), 0);
    for (const auto& l : fc.desc.links) tail[static_cast<size_t>(l.joint)] = 1;
    // Every descendant of a tail bone (Tail_End, helpers) belongs to the tail.
    for (int j = 0; j < sk.size(); ++j)
      if (sk.parents[j] >= 0 && tail[static_cast<size_t>(sk.parents[j])]) tail[static_cast<size_t>(j)] = 1;
    const int frames = std::max(1, static_cast<int>(std::lround(fc.clip.duration * fps)));
    const double dt = fc.clip.duration / frames;
    ChainDriver drv(fc.desc, p);
    solver::ChainState& st = drv.st;
    std::vector<Quaterniond> rot(static_cast<size_t>(fc.desc.size()));
    long mismatched = 0, compared = 0;
    int contact_frames = 0;
    double tail_rot = 0;
    for (int k = 0; k <= frames; ++k) {
      const double t = k * dt;
      std::vector<rig::Transform> locals = sk.stored_local;
      rig::apply_clip(fc.clip, t, locals);
      const auto without = rig::local_to_world(sk, locals);
      Affine3d h;
      h.matrix() = without[fc.desc.hips];
      if (k == 0) drv.reset(h);
      drv.step(k == 0 ? 0.0 : dt, h, rot);
      for (size_t i = 0; i < rot.size(); ++i) {
        auto& tr = locals[static_cast<size_t>(fc.desc.links[i].joint)];
        tail_rot = std::max(tail_rot, tr.rotation.angularDistance(rot[i]) / kDeg);
        tr.rotation = rot[i];
      }
      const auto with = rig::local_to_world(sk, locals);
      for (int j = 0; j < sk.size(); ++j) {
        if (tail[static_cast<size_t>(j)]) continue;
        ++compared;
        if (std::memcmp(without[j].data(), with[j].data(), sizeof(double) * 16) != 0) ++mismatched;
      }
      if (std::any_of(st.contact.begin(), st.contact.end(), [](std::uint8_t c) { return c != 0; })) ++contact_frames;
    }
    int non_tail = 0;
    for (char c : tail) non_tail += c ? 0 : 1;
    const std::string pre = clip + ".";
    out.metrics[pre + "frames"] = frames + 1;
    out.metrics[pre + "non_tail_joints"] = non_tail;
    out.metrics[pre + "compared_matrices"] = compared;
    out.metrics[pre + "mismatched_matrices"] = mismatched;
    out.metrics[pre + "contact_frames"] = contact_frames;
    out.metrics[pre + "max_tail_rotation_deg"] = tail_rot;
  }
  return Status::Ok();
}

Status ground(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<std::string> clips = s.raw.value("clips", std::vector<std::string>{"crouch_backward", "crawl_idle"});
  const std::vector<double> floors = s.raw.value("floors_m", std::vector<double>{0.0, 0.2});
  const double fps = param(s, "fps", 60.0);
  const int loops = param(s, "loops", 2);
  double worst_margin = 1e30, worst_len = 0;
  int nans = 0;
  for (const std::string& clip : clips) {
    solver::ChainParams p0;
    FixtureChain fc;
    if (Status st = load_fixture_chain(s, clip, base, fc, p0); !st.ok()) return st;
    for (double floor : floors) {
      solver::ChainParams p = p0;
      p.floor_height = floor;
      const int frames = std::max(1, static_cast<int>(std::lround(fc.clip.duration * fps)));
      const double dt = fc.clip.duration / frames;
      ChainDriver drv(fc.desc, p);
      solver::ChainState& st = drv.st;
      std::vector<Quaterniond> rot(static_cast<size_t>(fc.desc.size()));
      GroundStats g;
      double min_hips = 1e30;
      for (int k = 0; k <= frames * loops; ++k) {
        const Affine3d h = hips_of(fc, (k % frames) * dt);
        if (k == 0) drv.reset(h);
        drv.step(k == 0 ? 0.0 : dt, h, rot);
        ground_frame(fc.desc, p, st, solver::root_head_world(fc.desc, h), g);
        min_hips = std::min(min_hips, h.translation().y() * fc.mpu);
      }
      char fl[32];
      std::snprintf(fl, sizeof fl, "floor_%+.2f", floor);
      const std::string pre = clip + "." + fl + ".";
      out.metrics[pre + "min_margin_m"] = g.min_margin;
      out.metrics[pre + "min_margin_internal_m"] = g.min_margin_internal;
      out.metrics[pre + "min_head_margin_m"] = g.min_head_margin;
      out.metrics[pre + "max_display_offset_m"] = g.max_display_offset;
      out.metrics[pre + "max_length_error_rel"] = g.max_len_err;
      out.metrics[pre + "contact_frames"] = g.contact_frames;
      out.metrics[pre + "frames"] = frames * loops + 1;
      out.metrics[pre + "nan_count"] = g.nan;
      out.metrics[clip + ".min_hips_height_m"] = min_hips;
      worst_margin = std::min(worst_margin, g.min_margin);
      worst_len = std::max(worst_len, g.max_len_err);
      nans += g.nan;
    }
  }
  out.metrics["min_margin_m"] = worst_margin;
  out.metrics["max_length_error_rel"] = worst_len;
  out.metrics["nan_count"] = nans;

  // Settle and lift-off: synthetic tail, hips lowered until the tail lies on
  // the floor, held, raised again; contact must appear, then release.
  {
    solver::ChainParams p = base;
    SynthSpec sp = synth_from(s, param(s, "settle_bones", 8));
    const double h0 = sp.hips_height, low = param(s, "settle_low_hips_m", 0.3);
    const double move = param(s, "settle_move_s", 1.0), hold = param(s, "settle_hold_s", 2.0);
    solver::ChainDesc desc;
    if (Status st = build(s, make_rig(sp), p, desc); !st.ok()) return st;
    auto hips_y = [&](double t) {
      auto ease = [](double u) { return 0.5 * (1.0 - std::cos(kPi * std::clamp(u, 0.0, 1.0))); };
      if (t < move) return h0 + (low - h0) * ease(t / move);
      if (t < move + hold) return low;
      return low + (h0 - low) * ease((t - move - hold) / move);
    };
    const double total = 2 * move + 2 * hold, rise_start = move + hold, rise_end = 2 * move + hold;
    ChainDriver drv(desc, p);
    solver::ChainState& st = drv.st;
    std::vector<Quaterniond> rot(static_cast<size_t>(desc.size()));
    GroundStats g;
    double max_speed = 0, max_accel = 0, release_t = -1, last_contact_t = -1, held_speed = 0;
    int max_contacts_low = 0;
    std::vector<double> speeds;
    std::vector<int> contact_counts;
    std::vector<Vector3d> prev, prev2;
    const int frames = static_cast<int>(std::lround(total * fps));
    for (int k = 0; k <= frames; ++k) {
      const double t = k / fps;
      const Affine3d h = hips_pose(Vector3d(0, hips_y(t), 0), 0.0);
      if (k == 0) drv.reset(h);
      drv.step(k == 0 ? 0.0 : 1.0 / fps, h, rot);
      ground_frame(desc, p, st, solver::root_head_world(desc, h), g);
      int contacts = 0;
      for (auto c : st.contact) contacts += c ? 1 : 0;
      if (t >= move && t < rise_start) max_contacts_low = std::max(max_contacts_low, contacts);
      if (contacts > 0) last_contact_t = t;
      if (contacts == 0 && t >= rise_start && release_t < 0) release_t = t - rise_start;
      std::vector<Vector3d> cur(st.points.begin() + 1, st.points.end());
      if (!prev.empty())
        for (size_t i = 0; i < cur.size(); ++i) {
          max_speed = std::max(max_speed, (cur[i] - prev[i]).norm() * fps);
          if (t >= move + 0.5 * hold && t < rise_start) held_speed = std::max(held_speed, (cur[i] - prev[i]).norm() * fps);
          if (!prev2.empty()) max_accel = std::max(max_accel, (cur[i] - 2 * prev[i] + prev2[i]).norm() * fps * fps);
        }
      if (!prev.empty()) {
        double sp_max = 0;
        for (size_t i = 0; i < cur.size(); ++i) sp_max = std::max(sp_max, (cur[i] - prev[i]).norm() * fps);
        speeds.push_back(sp_max);
        contact_counts.push_back(contacts);
      }
      prev2 = prev;
      prev = cur;
    }
    out.metrics["settle.min_margin_m"] = g.min_margin;
    out.metrics["settle.max_length_error_rel"] = g.max_len_err;
    out.metrics["settle.nan_count"] = g.nan;
    out.metrics["settle.max_contacts_while_low"] = max_contacts_low;
    out.metrics["settle.release_after_rise_s"] = release_t;
    out.metrics["settle.last_contact_after_rise_end_s"] = last_contact_t < 0 ? -1.0 : last_contact_t - rise_end;
    out.metrics["settle.max_particle_speed_mps"] = max_speed;
    out.metrics["settle.max_particle_accel_mps2"] = max_accel;
    out.metrics["settle.max_speed_late_hold_mps"] = held_speed;
    out.series["settle.max_particle_speed_mps"] = speeds;
    out.series["settle.contacts"] = contact_counts;
  }
  return Status::Ok();
}

}  // namespace harness::solver_invariants
