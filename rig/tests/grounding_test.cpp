// Body grounding that ignores the tail (SPEC §5): support sampling, the
// lift, its smoothing, and which foot skin the limb solver owns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rig/anatomy/roles.h"
#include "rig/anatomy/name_tokens.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

using test::mixamo_biped;

Vec3 pos(const Mat4& m) { return m.block<3, 1>(0, 3); }

// Mixamo biped plus a two-bone tail whose skin hangs 0.1 below the soles.
// Each joint gets four vertices around it, weight 1 to that joint (tail
// vertices also carry a little hips weight so the hips is not dominant).
Character tailed_biped(bool with_tail_skin) {
  Skeleton sk = mixamo_biped();
  auto add = [&](const std::string& name, int parent, Vec3 p) {
    sk.names.push_back(name);
    sk.parents.push_back(parent);
    Transform t;
    t.translation = p;
    sk.bind_world.push_back(t.matrix());
    sk.inverse_bind.push_back(sk.bind_world.back().inverse());
    sk.root_parent_world.push_back(Mat4::Identity());
    sk.neutral_local.push_back(Transform::from_matrix(sk.bind_world[parent].inverse() * t.matrix()));
    sk.stored_local.push_back(sk.neutral_local.back());
  };
  add("mixamorig:Tail", 0, {0, 0.9, -0.1});
  add("mixamorig:Tail1", 9, {0, 0.2, -0.5});
  assign_roles(sk);
  Character c;
  c.skeleton = sk;
  for (int j = 0; j < sk.size(); ++j) {
    const bool tail = j >= 9;
    if (tail && !with_tail_skin) continue;
    const Vec3 centre = j == 10 ? Vec3(0, -0.05, -0.5) : pos(sk.bind_world[j]);
    for (int k = 0; k < 6; ++k) {
      const double dy = (k % 3 - 1) * 0.05;  // -0.05, 0, 0.05
      c.mesh.positions.push_back(centre + Vec3(k < 3 ? 0.02 : -0.02, dy, 0));
      if (tail) {
        c.skin.influences.push_back({{j, 0.8}, {0, 0.2}});
      } else {
        c.skin.influences.push_back({{j, 1.0}});
      }
    }
  }
  return c;
}

// Hips dips 0.2 at 0.5 s (tail would touch the floor, body clear) and 0.6 at
// 1.5 s (the shins go 0.15 below the floor).
Clip dipping_hips() {
  Clip clip;
  clip.duration = 2.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 0.5, 1.0, 1.5, 2.0},
                      {Vec3(0, 1, 0), Vec3(0, 0.8, 0), Vec3(0, 1, 0), Vec3(0, 0.4, 0), Vec3(0, 1, 0)}};
  clip.tracks = {hips};
  return clip;
}

std::vector<double> frame_times(double duration, double rate) {
  std::vector<double> t;
  for (int k = 0; k <= static_cast<int>(std::round(duration * rate)); ++k) t.push_back(k / rate);
  return t;
}

TEST(Grounding, TailTokens) {
  EXPECT_TRUE(name_has_token("mixamorig:Tail1", "tail"));
  EXPECT_TRUE(name_has_token("TailBase", "Tail"));
  EXPECT_TRUE(name_has_token("tail_02", "tail"));
  EXPECT_TRUE(name_has_token("Bone.Tail.001", "tail"));
  EXPECT_FALSE(name_has_token("Retail", "tail"));
  EXPECT_FALSE(name_has_token("Tails", "tail"));
  const Character c = tailed_biped(true);
  const std::vector<bool> mask = tail_joint_mask(c.skeleton);
  for (int j = 0; j < c.skeleton.size(); ++j) EXPECT_EQ(mask[j], j >= 9) << c.skeleton.names[j];
  const std::vector<int> given = {3};
  const std::vector<bool> explicit_mask = tail_joint_mask(c.skeleton, given);
  for (int j = 0; j < c.skeleton.size(); ++j) EXPECT_EQ(explicit_mask[j], j == 3);
}

TEST(Grounding, SupportSampledPerDominantJoint) {
  const Character c = tailed_biped(true);
  GroundingOptions opt;
  opt.points_per_joint = 2;
  opt.foot_extremes = false;
  const SupportPoints s = sample_support(c, opt);
  ASSERT_EQ(s.vertices.size(), 2u * c.skeleton.size());
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    const int j = s.dominant[i];
    // The two lowest of each joint's six vertices sit 0.05 below its centre.
    const double centre = j == 10 ? -0.05 : c.skeleton.bind_world[j](1, 3);
    EXPECT_NEAR(c.mesh.positions[s.vertices[i]].y(), centre - 0.05, 1e-12);
    EXPECT_EQ(s.tail[i], j >= 9);
    EXPECT_EQ(s.contact[i], j == 5 || j == 8);
  }
  // With foot_extremes the foot joints (5, 8) add their two top vertices
  // (extreme along +y); the two middle ones (x = +-0.02, y = 0) lie between
  // a bottom and a top vertex, never further along any direction, so four;
  // the other joints stay at two.
  opt.foot_extremes = true;
  const SupportPoints e = sample_support(c, opt);
  std::vector<int> per_joint(c.skeleton.size(), 0);
  for (int j : e.dominant) ++per_joint[j];
  for (int j = 0; j < c.skeleton.size(); ++j) EXPECT_EQ(per_joint[j], j == 5 || j == 8 ? 4 : 2) << j;
}

TEST(Grounding, TailNeverLiftsPelvis) {
  const Character c = tailed_biped(true);
  const Clip clip = dipping_hips();
  const std::vector<double> times = frame_times(2.0, 30.0);
  GroundingOptions excluded;
  GroundingOptions counted;
  counted.count_tail = true;
  const auto raw_ex = ground_lift_raw(c, clip, times, excluded);
  const auto raw_in = ground_lift_raw(c, clip, times, counted);
  const auto lift_ex = ground_lift(c, clip, times, excluded);
  const auto lift_in = ground_lift(c, clip, times, counted);
  // At the first dip (t = 0.5, frame 15): tail counted asks for the whole dip.
  EXPECT_NEAR(raw_in[15], 0.2, 1e-12);
  EXPECT_EQ(raw_ex[15], 0.0);
  for (size_t f = 0; f < times.size(); ++f) {
    if (times[f] <= 1.2) {
      EXPECT_EQ(lift_ex[f], 0.0) << times[f];
    }
    EXPECT_GE(lift_ex[f], raw_ex[f]);
    EXPECT_GE(lift_in[f], raw_in[f]);
  }
  EXPECT_GT(lift_in[15], 0.15);
  // At the deep dip (t = 1.5, frame 45) the shins are 0.15 under the floor.
  EXPECT_NEAR(raw_ex[45], 0.15, 1e-12);
  EXPECT_NEAR(raw_in[45], 0.6, 1e-12);
}

TEST(Grounding, TailSkinPresentOrDeletedGivesIdenticalLift) {
  const Character with = tailed_biped(true), without = tailed_biped(false);
  ASSERT_LT(without.mesh.vertex_count(), with.mesh.vertex_count());
  const Clip clip = dipping_hips();
  const std::vector<double> times = frame_times(2.0, 30.0);
  const GroundingOptions opt;
  const auto a = ground_lift(with, clip, times, opt);
  const auto b = ground_lift(without, clip, times, opt);
  EXPECT_EQ(a, b);
  double peak = 0;
  for (double v : a) peak = std::max(peak, v);
  EXPECT_GT(peak, 0.1);
}

// A humanoid rigger's output: the tail skin weighted to the hips, no tail
// bone to tell it by. Listed as tail_vertices it leaves S \ T exactly as if
// it were not there; unlisted (or counted) it lifts the pelvis.
TEST(Grounding, ListedTailVerticesWithoutTailBones) {
  Character rigged = tailed_biped(true);
  const Character without = tailed_biped(false);
  std::vector<int> tail_vertices;
  for (int v = 0; v < rigged.mesh.vertex_count(); ++v)
    if (rigged.skin.influences[v][0].joint >= 9) {
      tail_vertices.push_back(v);
      rigged.skin.influences[v] = {{0, 1.0}};
    }
  ASSERT_EQ(tail_vertices.size(), 12u);
  const Clip clip = dipping_hips();
  const std::vector<double> times = frame_times(2.0, 30.0);
  GroundingOptions opt;
  const auto body_only = ground_lift(without, clip, times, opt);
  EXPECT_NE(ground_lift(rigged, clip, times, opt), body_only);  // the hips' tail skin lifts
  opt.tail_vertices = tail_vertices;
  EXPECT_EQ(ground_lift(rigged, clip, times, opt), body_only);
  const SupportPoints s = sample_support(rigged, opt);
  EXPECT_EQ(std::count(s.tail.begin(), s.tail.end(), true), 12);
  opt.count_tail = true;
  EXPECT_NE(ground_lift(rigged, clip, times, opt), body_only);
}

TEST(Grounding, SmoothingNeverBelowRawAndKeepsZeros) {
  const std::vector<double> raw = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
  const auto s = smooth_lift(raw, 2);
  for (size_t i = 0; i < raw.size(); ++i) EXPECT_GE(s[i], raw[i]);
  EXPECT_EQ(s[0], 0.0);
  EXPECT_EQ(s[10], 0.0);
  EXPECT_EQ(s[5], 1.0);
  EXPECT_EQ(smooth_lift(raw, 0), raw);
}

TEST(Grounding, SmoothingRadiusIsATime) {
  EXPECT_EQ(smoothing_samples(frame_times(1.0, 30.0), 0.04), 1);
  EXPECT_EQ(smoothing_samples(frame_times(1.0, 120.0), 0.04), 5);
  EXPECT_EQ(smoothing_samples(frame_times(1.0, 30.0), 0.0), 0);
  EXPECT_EQ(smoothing_samples(std::vector<double>{0.5}, 0.04), 0);
  // A near-zero key spacing never gives more samples than the clip has.
  EXPECT_EQ(smoothing_samples(std::vector<double>{0.0, 1e-300, 2e-300}, 0.04), 3);
  EXPECT_EQ(smooth_lift(std::vector<double>{0.0, 1.0, 0.0}, 1 << 30), std::vector<double>(3, 1.0));
  // The same clip sampled at 30 and 120 Hz: the lift spreads over the same
  // time around the deep dip (first non-zero within one 30 Hz step).
  const Character c = tailed_biped(true);
  const Clip clip = dipping_hips();
  GroundingOptions opt;
  opt.smoothing_radius_s = 0.1;
  auto first_lifted = [&](double rate) {
    const std::vector<double> t = frame_times(2.0, rate);
    const std::vector<double> lift = ground_lift(c, clip, t, opt);
    for (size_t k = 0; k < t.size(); ++k)
      if (lift[k] > 0) return t[k];
    return -1.0;
  };
  const double at30 = first_lifted(30.0), at120 = first_lifted(120.0);
  EXPECT_GT(at30, 1.0);
  EXPECT_NEAR(at30, at120, 1.0 / 30.0 + 1e-9);
  // Raw onset is 1.375 s (the hips' drop passes the knee skin's 0.45); max
  // filter then average reach back two radii.
  EXPECT_NEAR(at120, 1.375 - 0.2, 2.0 / 120.0 + 1e-9);
}

// Legs of the Mixamo biped (length 0.9; ankle at y 0.05) with four
// shin-dominated vertices just under the ankle and four at the knee; the
// soles sit on y = 0, every other joint has four vertices at the joint.
Character shin_skinned_biped() {
  Character c;
  c.skeleton = mixamo_biped();
  const Skeleton& sk = c.skeleton;
  auto put = [&](int joint, const Vec3& centre) {
    for (int k = 0; k < 4; ++k) {
      c.mesh.positions.push_back(centre + Vec3(k % 2 ? 0.02 : -0.02, 0, k / 2 ? 0.02 : -0.02));
      c.skin.influences.push_back({{joint, 1.0}});
    }
  };
  for (int j = 0; j < sk.size(); ++j) {
    const Vec3 p = pos(sk.bind_world[j]);
    const BodyPart part = sk.roles[j].part;
    if (part == BodyPart::kFoot) {
      put(j, Vec3(p.x(), 0.0, p.z()));
    } else if (part == BodyPart::kShin) {
      put(j, p);                                  // knee
      put(j, Vec3(p.x(), 0.03, p.z()));           // 0.02 under the ankle
    } else {
      put(j, p);
    }
  }
  return c;
}

// Hips lowered by `drop` for the whole clip (stance feet sunk, as floor
// alignment leaves them before the leg IK lifts them).
Clip lowered_hips(double drop) {
  Clip clip;
  clip.duration = 1.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 1.0}, {Vec3(0, 1 - drop, 0), Vec3(0, 1 - drop, 0)}};
  clip.tracks = {hips};
  return clip;
}

TEST(Grounding, SkinNearTheAnkleBelongsToTheLimbSolver) {
  const Character c = shin_skinned_biped();
  GroundingOptions opt;
  opt.points_per_joint = 8;
  const SupportPoints s = sample_support(c, opt);
  int near = 0, knee = 0;
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    const double y = c.mesh.positions[s.vertices[i]].y();
    if (c.skeleton.roles[s.dominant[i]].part != BodyPart::kShin) continue;
    if (y < 0.1) {
      EXPECT_TRUE(s.contact[i]) << "near the ankle: limb contact";
      ++near;
    } else {
      EXPECT_FALSE(s.contact[i]) << "at the knee: body support";
      ++knee;
    }
  }
  EXPECT_EQ(near, 8);
  EXPECT_EQ(knee, 8);

  const std::vector<double> times = frame_times(1.0, 30.0);
  GroundingOptions feet_only = opt;
  feet_only.contact_shin_fraction = 0.0;
  // Sunk 0.05: the near-ankle shin skin is 0.02 under the floor. Only when it
  // is left in the body set does it lift the pelvis.
  for (double v : ground_lift_raw(c, lowered_hips(0.05), times, opt)) EXPECT_EQ(v, 0.0);
  for (double v : ground_lift_raw(c, lowered_hips(0.05), times, feet_only)) EXPECT_NEAR(v, 0.02, 1e-12);
  // A real crouch (knees 0.1 under the floor) still lifts.
  for (double v : ground_lift_raw(c, lowered_hips(0.6), times, opt)) EXPECT_NEAR(v, 0.1, 1e-12);
}

TEST(Grounding, FootOutOfContactLiftsTheBody) {
  // Hips 0.05 low: both soles 0.05 under the floor, the near-ankle shin skin
  // 0.02 under it, the knees well above. E(t) holds a leg's foot/ankle
  // points only while that leg is in contact.
  const Character c = shin_skinned_biped();
  ASSERT_EQ(find_legs(c.skeleton).size(), 2u);
  const std::vector<double> times = frame_times(1.0, 30.0);
  const size_t n = times.size(), half = n / 2;
  GroundingOptions opt;
  opt.points_per_joint = 8;
  const SupportPoints s = sample_support(c, opt);
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    EXPECT_EQ(s.leg[i] >= 0, static_cast<bool>(s.contact[i]));
    if (s.contact[i]) {
      EXPECT_EQ(c.skeleton.roles[s.dominant[i]].side, s.leg[i] == 0 ? Side::kLeft : Side::kRight);
    }
  }
  // Left foot in contact for the first half, out for the second; right foot
  // always in contact.
  std::vector<bool> left(n, false), right(n, true);
  for (size_t k = 0; k < half; ++k) left[k] = true;
  opt.leg_contact = {left, right};
  const std::vector<double> raw = ground_lift_raw(c, lowered_hips(0.05), times, opt);
  for (size_t k = 0; k < n; ++k) {
    if (k < half) {
      EXPECT_EQ(raw[k], 0.0) << "left foot in contact: the limb solver's, no lift";
    } else {
      EXPECT_NEAR(raw[k], 0.05, 1e-12) << "left foot out of contact: it lifts the body onto the floor";
    }
  }
  // The same sink with both feet in contact: nothing lifts.
  opt.leg_contact = {std::vector<bool>(n, true), std::vector<bool>(n, true)};
  for (double v : ground_lift_raw(c, lowered_hips(0.05), times, opt)) EXPECT_EQ(v, 0.0);
  // Both out of contact (also: a mask too short counts as out of contact).
  opt.leg_contact = {std::vector<bool>(n, false), std::vector<bool>(1, true)};
  const std::vector<double> out = ground_lift_raw(c, lowered_hips(0.05), times, opt);
  for (size_t k = 1; k < n; ++k) EXPECT_NEAR(out[k], 0.05, 1e-12);
  // Smoothed: never below the raw lift, so the sole ends on or above the floor.
  opt.leg_contact = {left, right};
  const std::vector<double> smooth = ground_lift(c, lowered_hips(0.05), times, opt);
  for (size_t k = 0; k < n; ++k) EXPECT_GE(smooth[k], raw[k]);
}

}  // namespace
}  // namespace rig
