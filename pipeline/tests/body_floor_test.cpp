// The whole body above the floor through the product's retarget (issue 45
// class 7): a cartwheel built on the canonical skeleton onto the tailless
// fixture. Its hands are the body's lowest point upside down, where
// grounding's support points (each joint's lowest bind vertices) are not
// the lowest: the retarget used to exit 0 with the hand skin under the
// floor. Now pipeline::retarget_character keeps every body vertex within
// 1 % of H of the floor, and `harness retarget` refuses (exit 1, one line,
// nothing written) a clip whose body it cannot keep within 2 %.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "fixtures/fixtures.h"
#include "harness/cli/command.h"
#include "pipeline/retarget_character.h"
#include "rig/io/io.h"
#include "rig/model/pose.h"

namespace harness {
namespace {

namespace fs = std::filesystem;
using rig::Quat;
using rig::Vec3;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tailrig_body_floor_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

int joint(const rig::Skeleton& sk, const std::string& name) {
  const auto it = std::find(sk.names.begin(), sk.names.end(), "mixamorig:" + name);
  return it == sk.names.end() ? -1 : static_cast<int>(it - sk.names.begin());
}

double ramp(double t, double t0, double t1) {
  const double x = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
  return x * x * (3.0 - 2.0 * x);
}

Quat rz(double deg) { return Quat(Eigen::AngleAxisd(deg * M_PI / 180.0, Vec3::UnitZ())); }

// A cartwheel on the canonical skeleton (deltas in bind-world-aligned axes
// as the fixture clips author them: X the character's left, Y up, Z
// forward): the arms rise overhead, the body turns once about the forward
// axis, and the hips stand as high as keeps the lowest hand or foot joint
// at the feet's standing height. A hand joint is the wrist: upside down the
// palm and fingers beyond it are on (here: in) the floor, as a cartwheel's
// hands are. 2 s at 30 Hz.
rig::Clip cartwheel(const rig::Skeleton& sk) {
  const int hips = joint(sk, "Hips"), larm = joint(sk, "LeftArm"), rarm = joint(sk, "RightArm");
  const std::vector<int> ends = {joint(sk, "LeftHand"), joint(sk, "RightHand"), joint(sk, "LeftToeBase"),
                                 joint(sk, "RightToeBase"), joint(sk, "LeftFoot"), joint(sk, "RightFoot")};
  EXPECT_EQ(hips, 0);
  for (int j : ends) EXPECT_GE(j, 0);
  double standing = INFINITY;
  for (int j : ends) standing = std::min(standing, sk.bind_world[j](1, 3));
  auto bind_rotation = [&](int j) {
    const Eigen::Matrix3d m = sk.bind_world[j].block<3, 3>(0, 0);
    return Quat(Eigen::Matrix3d(m / m.col(0).norm())).normalized();
  };
  auto local = [&](int j, const Quat& d) {
    const Quat q = bind_rotation(j);
    return Quat(sk.neutral_local[j].rotation * (q.conjugate() * d * q)).normalized();
  };
  const Eigen::Matrix3d up_in_parent = sk.root_parent_world[hips].block<3, 3>(0, 0).inverse();
  rig::Clip clip;
  clip.name = "cartwheel";
  clip.duration = 2.0;
  std::vector<rig::JointTracks> tracks(3);
  tracks[0].joint = hips, tracks[1].joint = larm, tracks[2].joint = rarm;
  for (int k = 0; k <= 60; ++k) {
    const double t = k / 30.0;
    const double raise = 90.0 * ramp(t, 0.1, 0.5) * (1.0 - ramp(t, 1.5, 1.9));
    const double turn = 360.0 * ramp(t, 0.4, 1.6);
    std::vector<rig::Transform> locals = sk.neutral_local;
    locals[hips].rotation = local(hips, rz(turn));
    locals[larm].rotation = local(larm, rz(raise));
    locals[rarm].rotation = local(rarm, rz(-raise));
    const std::vector<rig::Mat4> world = rig::local_to_world(sk, locals);
    double low = INFINITY;
    for (int j : ends) low = std::min(low, world[j](1, 3));
    locals[hips].translation += up_in_parent * Vec3(0.0, standing - low, 0.0);
    for (rig::JointTracks& tr : tracks) {
      tr.rotation.times.push_back(t);
      tr.rotation.values.push_back(locals[tr.joint].rotation);
    }
    tracks[0].translation.times.push_back(t);
    tracks[0].translation.values.push_back(locals[hips].translation);
  }
  // Every other joint keyed at its bind pose, as a clip file keys it (a
  // skin-less source's skeleton is read from its animated nodes).
  for (int j = 0; j < sk.size(); ++j) {
    if (j == hips || j == larm || j == rarm) continue;
    rig::JointTracks still;
    still.joint = j;
    still.rotation.times = {0.0, clip.duration};
    still.rotation.values = {sk.neutral_local[j].rotation, sk.neutral_local[j].rotation};
    tracks.push_back(still);
  }
  clip.tracks = tracks;
  return clip;
}

struct Inputs {
  rig::Character target, source;
  const rig::Clip* clip = nullptr;
};

Inputs inputs() {
  Inputs in;
  std::string error;
  EXPECT_TRUE(fixtures::make_fixture("tailless", fixtures::default_params("tailless"), in.target, &error)) << error;
  EXPECT_TRUE(fixtures::make_clip_source(fixtures::default_params("tailless"), in.source, &error)) << error;
  in.source.clips = {cartwheel(in.source.skeleton)};
  in.clip = &in.source.clips.front();
  return in;
}

// Fails before issue 45: the cartwheel's hands went 2.8 % of H under the
// floor and the retarget said nothing.
TEST(BodyFloor, ACartwheelKeepsTheHandsOnTheFloor) {
  Inputs in = inputs();
  const rig::Calibration source_cal = rig::calibrate(in.source.skeleton);
  // The retarget as it was: no whole-body step.
  pipeline::PreparedTarget as_it_was = pipeline::prepare_retarget_target(in.target, pipeline::RetargetOptions{});
  as_it_was.transfer.body_above_floor = false;
  const rig::TransferResult before =
      pipeline::retarget_clip(in.source, *in.clip, source_cal, in.target, as_it_was);
  ASSERT_TRUE(before.status.ok()) << before.status.message;
  const double before_rel = pipeline::body_under_floor_rel_h(before);
  EXPECT_GT(before_rel, pipeline::kBodyUnderFloorMaxRelH)
      << "the cartwheel no longer puts the body under the floor: "
      << pipeline::body_under_floor_where(before, in.target.skeleton, in.target.meters_per_unit);
  EXPECT_FALSE(pipeline::check_body_above_floor(before, in.target).ok());

  rig::Character target = in.target;
  pipeline::RetargetOutcome outcome;
  const rig::Status s =
      pipeline::retarget_character(target, in.source, *in.clip, pipeline::RetargetOptions{}, "", outcome);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_TRUE(outcome.unplaced.empty()) << outcome.unplaced;
  const rig::TransferResult& r = outcome.transfer;
  const double rel = pipeline::body_under_floor_rel_h(r);
  EXPECT_LE(rel, 0.01 + 1e-9) << pipeline::body_under_floor_where(r, target.skeleton, target.meters_per_unit);
  EXPECT_GT(r.diagnostics.max_body_floor_lift, 0.0);
  ASSERT_EQ(target.clips.size(), in.target.clips.size() + 1);
  EXPECT_EQ(target.clips.back().name, "cartwheel");
  std::printf("cartwheel onto tailless: body under the floor %.4f x H before, %.4f after; lifted up to %.3f m\n",
              before_rel, rel, r.diagnostics.max_body_floor_lift * target.meters_per_unit);
}

// Runs `harness retarget ARGS...` through the command's own CLI node.
int run_retarget(std::vector<std::string> args) {
  CLI::App app{"harness"};
  const Command c = add_retarget_command(app);
  std::vector<std::string> argv{"harness", "retarget"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<const char*> raw;
  for (const std::string& a : argv) raw.push_back(a.c_str());
  app.parse(static_cast<int>(raw.size()), raw.data());
  return c.run();
}

// Without grounding (--no-ground: no whole-body lift either) the cartwheel
// cannot be placed: exit 1, one line naming the key, the depth in % of H
// and the bone, and no file.
TEST(BodyFloor, TheCommandRefusesABodyItCannotKeepAboveTheFloor) {
  Inputs in = inputs();
  const fs::path clips = scratch("cartwheel.glb"), out = scratch("out.glb"), placed = scratch("placed.glb");
  ASSERT_TRUE(rig::save_glb(in.source, clips.string()).ok());
  fs::remove(out);
  testing::internal::CaptureStderr();
  const int code = run_retarget({"tailless", clips.string(), "--out", out.string(), "--no-ground"});
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 1) << err;
  EXPECT_FALSE(fs::exists(out)) << "a clip that cannot be placed was written";
  EXPECT_NE(err.find("cannot be placed"), std::string::npos) << err;
  EXPECT_NE(err.find("% of H"), std::string::npos) << err;
  EXPECT_NE(err.find("at key"), std::string::npos) << err;
  EXPECT_NE(err.find("skin"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  // With grounding the same clip is placed.
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_retarget({"tailless", clips.string(), "--out", placed.string()}), 0);
  const std::string line = testing::internal::GetCapturedStdout();
  EXPECT_NE(line.find("body lifted out of the floor"), std::string::npos) << line;
  EXPECT_NE(line.find("lowest body point:"), std::string::npos) << line;
  EXPECT_TRUE(fs::exists(placed));
}

}  // namespace
}  // namespace harness
