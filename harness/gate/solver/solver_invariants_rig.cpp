// Solver invariants about the rig's frames: bind_pose_recovery (a stored pose
// that differs from bind is not baked into the rest) and rotated_end_bone (the
// synthesised end of a chain without Tail_End ignores the last bone's axes).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rig/model/pose.h"
#include "harness/gate/solver/solver_invariants_common.h"

namespace harness::solver_invariants {

// ---------------------------------------------------------------------------
// bind_pose_recovery: a fixture whose stored pose differs from bind (the
// mouse_chained 28 deg on the last joint) against the same rig with the
// stored pose set to bind: identical tail motion and posed tail joints.
Status bind_pose_recovery(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base, p;
  if (Status st = base_params(s, base); !st.ok()) return st;
  rig::Character stored;
  if (Status st = load_scenario_character(s, stored); !st.ok()) return st;
  auto clip_it = std::find_if(stored.clips.begin(), stored.clips.end(), [&](const rig::Clip& c) { return c.name == s.clip; });
  if (clip_it == stored.clips.end()) return bad(s, "character has no clip '" + s.clip + "'");
  const rig::Clip clip = *clip_it;
  rig::Character clean = stored;
  clean.skeleton.stored_local = clean.skeleton.neutral_local;
  p = base;
  p.meters_per_unit = stored.meters_per_unit;
  const double fps = param(s, "fps", 30.0);
  const int loops = param(s, "loops", 2);
  struct Side {
    const rig::Character* ch;
    solver::ChainDesc desc;
    std::vector<std::vector<Eigen::Matrix4d>> tail_world;  // per frame, tail joints
    std::vector<Quaterniond> rest_rot;
  };
  Side sides[2] = {{&stored, {}, {}, {}}, {&clean, {}, {}, {}}};
  for (Side& sd : sides) {
    const rig::Skeleton& sk = sd.ch->skeleton;
    if (auto st = solver::build_chain(chain_input(sk), p, sd.desc); !st.ok())
      fail_regression(s.name, "solver setup: " + st.message);
    const int frames = std::max(1, static_cast<int>(std::lround(clip.duration * fps)));
    const double dt = clip.duration / frames;
    ChainDriver drv(sd.desc, p);
    std::vector<Quaterniond> rot(static_cast<size_t>(sd.desc.size()));
    for (int k = 0; k <= frames * loops; ++k) {
      std::vector<rig::Transform> locals = sk.stored_local;
      rig::apply_clip(clip, (k % frames) * dt, locals);
      const auto w0 = rig::local_to_world(sk, locals);
      Affine3d h;
      h.matrix() = w0[sd.desc.hips];
      if (k == 0) {
        drv.reset(h);
        drv.step(0.0, h, rot);
        sd.rest_rot = rot;
      } else {
        drv.step(dt, h, rot);
      }
      for (size_t i = 0; i < rot.size(); ++i) locals[static_cast<size_t>(sd.desc.links[i].joint)].rotation = rot[i];
      const auto w = rig::local_to_world(sk, locals);
      std::vector<Eigen::Matrix4d> tw;
      for (const auto& l : sd.desc.links) tw.push_back(w[l.joint]);
      sd.tail_world.push_back(tw);
    }
  }
  const rig::Skeleton& sk = stored.skeleton;
  const int last = sides[0].desc.links.back().joint;
  double stored_deg = 0;
  for (const auto& l : sides[0].desc.links)
    stored_deg = std::max(stored_deg, sk.stored_local[l.joint].rotation.angularDistance(sk.neutral_local[l.joint].rotation) / kDeg);
  double pos_diff = 0, rot_diff = 0, rest_diff = 0;
  for (size_t f = 0; f < sides[0].tail_world.size(); ++f)
    for (size_t i = 0; i < sides[0].tail_world[f].size(); ++i) {
      const Eigen::Matrix4d& a = sides[0].tail_world[f][i];
      const Eigen::Matrix4d& b = sides[1].tail_world[f][i];
      pos_diff = std::max(pos_diff, (a.block<3, 1>(0, 3) - b.block<3, 1>(0, 3)).norm() * stored.meters_per_unit);
      rot_diff = std::max(rot_diff, (a.block<3, 3>(0, 0) - b.block<3, 3>(0, 0)).cwiseAbs().maxCoeff());
    }
  for (size_t i = 0; i < sides[0].rest_rot.size(); ++i)
    rest_diff = std::max(rest_diff, sides[0].rest_rot[i].angularDistance(sides[1].rest_rot[i]) / kDeg);
  // The settled rest of the last joint against its neutral (bind) rotation:
  // the carry arc moves it, the stored 28 deg must not be baked in.
  const size_t li = sides[0].desc.links.size() - 1;
  out.metrics["stored_pose_max_deg"] = stored_deg;
  out.metrics["last_joint.stored_deg"] =
      sk.stored_local[last].rotation.angularDistance(sk.neutral_local[last].rotation) / kDeg;
  out.metrics["last_joint.rest_vs_stored_deg"] = sides[0].rest_rot[li].angularDistance(sk.stored_local[last].rotation) / kDeg;
  out.metrics["last_joint.rest_vs_neutral_deg"] = sides[0].rest_rot[li].angularDistance(sk.neutral_local[last].rotation) / kDeg;
  out.metrics["rest_rotation_diff_deg"] = rest_diff;
  out.metrics["max_tail_position_diff_m"] = pos_diff;
  out.metrics["max_tail_rotation_diff"] = rot_diff;
  out.metrics["tail_bones"] = sides[0].desc.size();
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// rotated_end_bone: no Tail_End, the last bone's bind frame rotated away from
// its parent's: the synthesised end continues the incoming tangent, and the
// motion equals the same chain with an unrotated last bone.
Status rotated_end_bone(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams p;
  if (Status st = base_params(s, p); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {2, 4, 8});
  const double fps = param(s, "fps", 60.0), duration = param(s, "duration_s", 3.0);
  const double H = param(s, "model_height_m", 1.9);
  const HipSwing motion = swing_from(s);
  double worst_tan = 0, worst_len = 0, worst_motion = 0, min_rot = 1e30;
  for (int n : chains) {
    SynthSpec sp = synth_from(s, n);
    sp.with_end = false;
    SynthSpec plain = sp;
    sp.end_twist = true;
    const SynthRig rig = make_rig(sp), rig_plain = make_rig(plain);
    solver::ChainDesc desc, desc_plain;
    if (Status st = build(s, rig, p, desc); !st.ok()) return st;
    if (Status st = build(s, rig_plain, p, desc_plain); !st.ok()) return st;
    // Bind-space check of the synthesised end segment.
    const int last = desc.links.back().joint, prev = desc.links[desc.links.size() - 2].joint;
    const Eigen::Matrix4d wl = rig.inverse_bind[static_cast<size_t>(last)].inverse();
    const Eigen::Matrix4d wp = rig.inverse_bind[static_cast<size_t>(prev)].inverse();
    const Vector3d incoming = (wl.block<3, 1>(0, 3) - wp.block<3, 1>(0, 3));
    const Vector3d end_dir = (wl.block<3, 3>(0, 0) * desc.links.back().bind_dir_local).normalized();
    const double tan_err = std::acos(std::clamp(end_dir.dot(incoming.normalized()), -1.0, 1.0)) / kDeg;
    const double len_err = std::abs(desc.links.back().length / incoming.norm() - 1.0);
    const double frame_rot = Quaterniond(wl.block<3, 3>(0, 0)).angularDistance(Quaterniond(wp.block<3, 3>(0, 0))) / kDeg;
    const Run a = run_motion(desc, p, motion, fps, duration);
    const Run b = run_motion(desc_plain, p, motion, fps, duration);
    double diff = 0;
    for (size_t f = 0; f < a.points.size(); ++f)
      for (size_t i = 0; i < a.points[f].size(); ++i) {
        const double e = (a.points[f][i] - b.points[f][i]).norm();
        diff = std::isfinite(e) ? std::max(diff, e) : std::numeric_limits<double>::infinity();
      }
    const std::string pre = "bones_" + std::to_string(n) + ".";
    out.metrics[pre + "end_frame_rotation_deg"] = frame_rot;
    out.metrics[pre + "end_tangent_error_deg"] = tan_err;
    out.metrics[pre + "end_length_error_rel"] = len_err;
    out.metrics[pre + "motion_diff_rel_H"] = diff / H;
    out.metrics[pre + "tip_excursion_rel_H"] = a.tip_excursion / H;
    out.metrics[pre + "nan_count"] = a.nan_count;
    worst_tan = std::max(worst_tan, tan_err);
    worst_len = std::max(worst_len, len_err);
    worst_motion = std::max(worst_motion, diff / H);
    min_rot = std::min(min_rot, frame_rot);
  }
  out.metrics["max_end_tangent_error_deg"] = worst_tan;
  out.metrics["max_end_length_error_rel"] = worst_len;
  out.metrics["max_motion_diff_rel_H"] = worst_motion;
  out.metrics["min_end_frame_rotation_deg"] = min_rot;
  return Status::Ok();
}

}  // namespace harness::solver_invariants
