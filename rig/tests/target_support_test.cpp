// The target's support points, floor and soles prepared once per character
// (issue 14: no whole-mesh rescans per clip) give the same transfer, bit for
// bit, as preparing them inside every transfer_clip.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/io/io.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/retarget/retarget.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

std::string asset(const std::string& rel) { return std::string(TAILRIG_ASSETS) + "/" + rel; }

#define LOAD_OR_SKIP(path, out)                                                            \
  do {                                                                                     \
    if (!fs::exists(path)) GTEST_SKIP() << "asset missing: " << path << " (set TAILRIG_ASSETS)"; \
    ASSERT_TRUE(load(path, out).ok()) << path;                                             \
  } while (0)

void expect_same_clip(const Clip& a, const Clip& b) {
  ASSERT_EQ(a.tracks.size(), b.tracks.size());
  for (size_t i = 0; i < a.tracks.size(); ++i) {
    EXPECT_EQ(a.tracks[i].joint, b.tracks[i].joint);
    EXPECT_EQ(a.tracks[i].translation.values, b.tracks[i].translation.values);
    ASSERT_EQ(a.tracks[i].rotation.values.size(), b.tracks[i].rotation.values.size());
    for (size_t k = 0; k < a.tracks[i].rotation.values.size(); ++k)
      EXPECT_EQ(a.tracks[i].rotation.values[k].coeffs(), b.tracks[i].rotation.values[k].coeffs());
  }
}

TEST(SkinGroups, MatchOnePassOverTheMesh) {
  Character c;
  LOAD_OR_SKIP(asset("characters/Witch.glb"), c);
  const SkinGroups g = group_by_dominant_joint(c);
  ASSERT_EQ(g.start.size(), static_cast<size_t>(c.skeleton.size()) + 1);
  for (int j = 0; j < c.skeleton.size(); ++j) {
    std::vector<int> want;
    for (int v = 0; v < c.mesh.vertex_count(); ++v)
      if (dominant_joint(c.skin.influences[v]) == j) want.push_back(v);
    const std::span<const int> got = g.of(j);
    EXPECT_EQ(std::vector<int>(got.begin(), got.end()), want) << c.skeleton.names[j];
  }
  EXPECT_TRUE(g.of(-1).empty());
  EXPECT_TRUE(g.of(c.skeleton.size()).empty());
}

TEST(SkinGroups, EmptyCharacterHasEmptyGroups) {
  const Character c;
  const SkinGroups g = group_by_dominant_joint(c);
  EXPECT_EQ(g.start.size(), 1u);
  EXPECT_TRUE(g.vertices.empty());
  EXPECT_TRUE(g.of(0).empty());
}

TEST(TargetSupport, PreparedOnceGivesTheSameTransfer) {
  Character target, source;
  LOAD_OR_SKIP(asset("characters/Trex.glb"), target);  // legs off the hips, feet under root
  LOAD_OR_SKIP(asset("clips/walk.bvh"), source);
  ASSERT_FALSE(source.clips.empty());
  const Calibration src_cal = calibrate(source.skeleton), dst_cal = calibrate(target.skeleton);
  TransferOptions to;
  const TargetSupport prepared = prepare_target_support(target, dst_cal, to);
  EXPECT_EQ(prepared.soles.size(), find_legs(target.skeleton).size());
  EXPECT_FALSE(prepared.support.vertices.empty());
  for (bool limbs : {true, false}) {
    to.reconcile_limbs = limbs;
    const TransferResult once = transfer_clip(source, source.clips.front(), src_cal, target, dst_cal, prepared, to);
    const TransferResult each = transfer_clip(source, source.clips.front(), src_cal, target, dst_cal, to);
    ASSERT_TRUE(once.status.ok()) << once.status.message;
    ASSERT_TRUE(each.status.ok()) << each.status.message;
    EXPECT_EQ(once.floor_y, each.floor_y);
    EXPECT_EQ(once.floor_alignment, each.floor_alignment);
    EXPECT_EQ(once.lift, each.lift);
    EXPECT_GT(once.times.size(), 30u);
    if (limbs) {
      EXPECT_GT(once.diagnostics.stance_keys, 0);  // the feet were pinned from the prepared soles
    }
    expect_same_clip(once.clip, each.clip);
  }
}

TEST(TargetSupport, PreparedForAnotherCharacterIsRefused) {
  Character target, other, source;
  LOAD_OR_SKIP(asset("characters/Trex.glb"), target);
  LOAD_OR_SKIP(asset("characters/Witch.glb"), other);
  LOAD_OR_SKIP(asset("clips/walk.bvh"), source);
  const Calibration src_cal = calibrate(source.skeleton), dst_cal = calibrate(target.skeleton);
  const TargetSupport wrong = prepare_target_support(other, calibrate(other.skeleton));
  const TransferResult r = transfer_clip(source, source.clips.front(), src_cal, target, dst_cal, wrong);
  EXPECT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message.find("prepared for another character"), std::string::npos) << r.status.message;
  EXPECT_TRUE(r.clip.tracks.empty());
}

// Groundings that differ only in what grounding itself reads (count_tail,
// allowed_sink, smoothing) are served by one support: prepared for each,
// the supports are the same; a sampling option makes another.
TEST(TargetSupport, ServesGroundingsThatOnlyGroundDifferently) {
  Character target;
  LOAD_OR_SKIP(asset("characters/Trex.glb"), target);
  const Calibration cal = calibrate(target.skeleton);
  TransferOptions base, other = base;
  other.grounding.count_tail = true;
  other.grounding.allowed_sink = 0.05;
  other.grounding.smoothing_radius_s = 0.0;
  EXPECT_TRUE(support_serves(base.grounding, other.grounding));
  const TargetSupport a = prepare_target_support(target, cal, base), b = prepare_target_support(target, cal, other);
  EXPECT_EQ(a.floor_y, b.floor_y);
  EXPECT_EQ(a.support.vertices, b.support.vertices);
  EXPECT_EQ(a.support.tail, b.support.tail);
  EXPECT_EQ(a.support.contact, b.support.contact);
  EXPECT_EQ(a.body, b.body);
  EXPECT_EQ(a.whole_body.vertices, b.whole_body.vertices);
  EXPECT_EQ(a.whole_body.contact, b.whole_body.contact);
  ASSERT_EQ(a.soles.size(), b.soles.size());
  for (size_t li = 0; li < a.soles.size(); ++li) {
    ASSERT_EQ(a.soles[li].size(), b.soles[li].size());
    for (size_t i = 0; i < a.soles[li].size(); ++i) EXPECT_EQ(a.soles[li][i].bind_position, b.soles[li][i].bind_position);
  }
  TransferOptions sparse = base;
  sparse.grounding.points_per_joint = 1;
  EXPECT_FALSE(support_serves(base.grounding, sparse.grounding));
  EXPECT_NE(prepare_target_support(target, cal, sparse).support.vertices, a.support.vertices);
}

// transfer_clip_groundings gives, per grounding, what transfer_clip gives
// (its steps before grounding run once).
TEST(TargetSupport, GroundingsOfOneClipAsTransferredOneByOne) {
  Character target, source;
  LOAD_OR_SKIP(asset("characters/Trex.glb"), target);
  LOAD_OR_SKIP(asset("clips/backflip.bvh"), source);
  ASSERT_FALSE(source.clips.empty());
  const Calibration src_cal = calibrate(source.skeleton), dst_cal = calibrate(target.skeleton);
  TransferOptions to;
  std::vector<GroundingOptions> groundings(3, to.grounding);
  groundings[1].count_tail = true;
  groundings[2].smoothing_radius_s = 0.0;
  std::vector<TargetSupport> supports;
  for (const GroundingOptions& g : groundings) {
    TransferOptions o = to;
    o.grounding = g;
    supports.push_back(prepare_target_support(target, dst_cal, o));
  }
  const TargetSupport* prepared[] = {&supports[0], &supports[1], &supports[2]};
  const std::vector<TransferResult> all =
      transfer_clip_groundings(source, source.clips.front(), src_cal, target, dst_cal, prepared, groundings, to);
  ASSERT_EQ(all.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    TransferOptions o = to;
    o.grounding = groundings[i];
    const TransferResult one = transfer_clip(source, source.clips.front(), src_cal, target, dst_cal, supports[i], o);
    ASSERT_TRUE(one.status.ok()) << one.status.message;
    ASSERT_TRUE(all[i].status.ok()) << all[i].status.message;
    EXPECT_EQ(all[i].times, one.times);
    EXPECT_EQ(all[i].lift, one.lift);
    EXPECT_EQ(all[i].body_floor_lift, one.body_floor_lift);
    EXPECT_EQ(all[i].floor_alignment, one.floor_alignment);
    EXPECT_EQ(all[i].diagnostics.max_elbow_cut, one.diagnostics.max_elbow_cut);
    EXPECT_EQ(all[i].under_floor.max_depth, one.under_floor.max_depth);
    expect_same_clip(all[i].clip, one.clip);
  }
}

}  // namespace
}  // namespace rig
