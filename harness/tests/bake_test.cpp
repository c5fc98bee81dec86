// Baked files read by Assimp (issue 12): the same bones with the same bind
// matrices as our reader, and one rotation key per baked key on every tail
// bone in every clip. Also the bake library's contract on the fox fixture.
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "pipeline/bake_clips.h"
#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/io/io.h"
#include "rig/model/pose.h"

namespace harness {
namespace {

rig::Character chained_fox() {
  rig::Character fox;
  fixtures::FixtureParams p = fixtures::default_params("fox");
  p.density = 0.5;
  EXPECT_TRUE(fixtures::make_fixture("fox", p, fox));
  detect::FixResult fixed;
  EXPECT_TRUE(detect::fix(fox, detect::Mode::kChain, detect::Params{}, fixed).ok());
  EXPECT_EQ(fixed.chains, 1);
  return fixed.character;
}

TEST(Bake, AssimpReadsBonesBindMatricesAndKeys) {
  rig::Character ch = chained_fox();
  pipeline::BakeClipsOptions o;
  pipeline::BakeClipsReport rep;
  ASSERT_TRUE(pipeline::bake_clips(ch, o, rep).ok());
  ASSERT_EQ(rep.clips.size(), ch.clips.size());
  const std::string path = (std::filesystem::temp_directory_path() / "tailrig_bake_assimp.glb").string();
  const rig::Status saved = rig::save_glb(ch, path);
  ASSERT_TRUE(saved.ok()) << saved.message;
  // Compared with what we wrote (the in-memory model; fixtures have no
  // mesh-to-world transform, so file IBM = inverse_bind).
  const rig::Character& back = ch;

  Assimp::Importer imp;
  const aiScene* scene = imp.ReadFile(path, 0);
  ASSERT_NE(scene, nullptr) << imp.GetErrorString();
  // Bones: name -> offset matrix, over every mesh.
  std::map<std::string, aiMatrix4x4> bones;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m)
    for (unsigned b = 0; b < scene->mMeshes[m]->mNumBones; ++b)
      bones[scene->mMeshes[m]->mBones[b]->mName.C_Str()] = scene->mMeshes[m]->mBones[b]->mOffsetMatrix;
  int compared = 0;
  for (int j = 0; j < back.skeleton.size(); ++j) {
    auto it = bones.find(back.skeleton.names[j]);
    if (it == bones.end()) continue;  // a joint no vertex uses may have no aiBone
    const aiMatrix4x4& a = it->second;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) EXPECT_NEAR(a[r][c], back.skeleton.inverse_bind[j](r, c), 1e-5) << back.skeleton.names[j];
    ++compared;
  }
  for (const std::string& b : rep.bones) EXPECT_TRUE(bones.count(b)) << "Assimp has no bone " << b;
  EXPECT_GE(compared, 22 + static_cast<int>(rep.bones.size()));

  ASSERT_EQ(scene->mNumAnimations, ch.clips.size());
  for (const pipeline::ClipBakeReport& r : rep.clips) {
    const aiAnimation* anim = nullptr;
    for (unsigned a = 0; a < scene->mNumAnimations; ++a)
      if (r.name == scene->mAnimations[a]->mName.C_Str()) anim = scene->mAnimations[a];
    ASSERT_NE(anim, nullptr) << r.name;
    for (const std::string& b : rep.bones) {
      const aiNodeAnim* na = nullptr;
      for (unsigned c = 0; c < anim->mNumChannels; ++c)
        if (b == anim->mChannels[c]->mNodeName.C_Str()) na = anim->mChannels[c];
      ASSERT_NE(na, nullptr) << r.name << ": no channel for " << b;
      EXPECT_EQ(static_cast<int>(na->mNumRotationKeys), r.keys) << r.name << " " << b;
    }
  }
  std::filesystem::remove(path);
}

// Looping fixture clips close (<= 0.5 deg per bone) after warm-up, the
// non-looping back flip starts from the settled carry pose, every clip's tail
// moves, and body tracks are untouched.
// A clip keyed from 2 s on (an exporter that kept its frame range) is baked
// over its keyed span: the same tail keys, 2 s later, and a closed loop.
// Before, the tail was keyed from 0 and its loop closed between 0 and the
// end, 9 deg off at the body's first key.
TEST(Bake, AClipKeyedFromLaterIsBakedOverItsKeys) {
  rig::Character ch = chained_fox();
  ch.clips.erase(std::remove_if(ch.clips.begin(), ch.clips.end(), [](const rig::Clip& k) { return k.name != "walk"; }),
                 ch.clips.end());
  ASSERT_EQ(ch.clips.size(), 1u);
  rig::Character late = ch;
  late.clips[0].duration += 2.0;
  for (rig::JointTracks& jt : late.clips[0].tracks)
    for (std::vector<double>* times : {&jt.rotation.times, &jt.translation.times, &jt.scale.times})
      for (double& t : *times) t += 2.0;
  pipeline::BakeClipsReport a, b;
  ASSERT_TRUE(pipeline::bake_clips(ch, pipeline::BakeClipsOptions{}, a).ok());
  ASSERT_TRUE(pipeline::bake_clips(late, pipeline::BakeClipsOptions{}, b).ok());
  ASSERT_EQ(b.clips.size(), 1u);
  EXPECT_TRUE(b.clips[0].looping);
  EXPECT_EQ(a.clips[0].keys, b.clips[0].keys);
  EXPECT_NEAR(a.clips[0].seam_max_deg, b.clips[0].seam_max_deg, 1e-6);
  const int tail1 = ch.skeleton.find("Tail_1");
  ASSERT_GE(tail1, 0);
  for (const rig::JointTracks& jt : late.clips[0].tracks)
    if (jt.joint == tail1) {
      ASSERT_FALSE(jt.rotation.times.empty());
      EXPECT_NEAR(jt.rotation.times.front(), 2.0, 1e-9);
    }
}

// A cycle exported without its closing frame (the walk's last key dropped:
// its first pose is one key step past its last) loops over one more step:
// the tail keys are its closed twin's (up to rounding), without the
// closing one. Baked once from the carry pose, as before, its tail started
// at rest and jumped at every loop. A clip that ends elsewhere stays once.
TEST(Bake, ACycleWithoutItsClosingKeyLoopsAsItsClosedTwin) {
  rig::Character closed = chained_fox();
  closed.clips.erase(std::remove_if(closed.clips.begin(), closed.clips.end(),
                                    [](const rig::Clip& k) { return k.name != "walk" && k.name != "back_flip"; }),
                     closed.clips.end());
  ASSERT_EQ(closed.clips.size(), 2u);
  rig::Character open = closed;
  for (rig::Clip& clip : open.clips) {
    double last = 0.0;
    for (rig::JointTracks& jt : clip.tracks)
      for (auto* tr : {&jt.rotation}) {
        ASSERT_GE(tr->times.size(), 3u);
        tr->times.pop_back();
        tr->values.pop_back();
        last = std::max(last, tr->times.back());
      }
    for (rig::JointTracks& jt : clip.tracks)
      if (jt.translation.times.size() > 1) {
        jt.translation.times.pop_back();
        jt.translation.values.pop_back();
      }
    clip.duration = last;
  }
  pipeline::BakeClipsReport a, b;
  ASSERT_TRUE(pipeline::bake_clips(closed, pipeline::BakeClipsOptions{}, a).ok());
  ASSERT_TRUE(pipeline::bake_clips(open, pipeline::BakeClipsOptions{}, b).ok());
  ASSERT_EQ(b.clips.size(), 2u);
  const pipeline::ClipBakeReport& walk = b.clips[0].name == "walk" ? b.clips[0] : b.clips[1];
  const pipeline::ClipBakeReport& flip = b.clips[0].name == "walk" ? b.clips[1] : b.clips[0];
  const pipeline::ClipBakeReport& twin = a.clips[0].name == "walk" ? a.clips[0] : a.clips[1];
  EXPECT_TRUE(twin.looping);
  EXPECT_FALSE(twin.loop_open);
  EXPECT_TRUE(walk.looping);
  EXPECT_TRUE(walk.loop_open);
  EXPECT_TRUE(walk.converged);
  EXPECT_EQ(walk.keys, twin.keys - 1);
  EXPECT_FALSE(flip.looping) << "a flip landing elsewhere is not a cycle";
  EXPECT_FALSE(flip.loop_open);
  const int tail1 = closed.skeleton.find("Tail_1");
  ASSERT_GE(tail1, 0);
  auto tail_track = [&](const rig::Character& ch) {
    for (const rig::Clip& clip : ch.clips)
      if (clip.name == "walk")
        for (const rig::JointTracks& jt : clip.tracks)
          if (jt.joint == tail1) return jt.rotation;
    return rig::Track<rig::Quat>{};
  };
  const rig::Track<rig::Quat> tc = tail_track(closed), to = tail_track(open);
  ASSERT_EQ(to.values.size() + 1, tc.values.size());
  // The same sample times and hips up to rounding (k * span / M over another
  // span and M), so the same keys up to that rounding (measured: 1e-15 rad).
  double worst = 0.0;
  for (size_t k = 0; k < to.values.size(); ++k) {
    EXPECT_NEAR(to.times[k], tc.times[k], 1e-12) << k;
    worst = std::max(worst, to.values[k].angularDistance(tc.values[k]));
  }
  EXPECT_LT(worst, 1e-9) << "rad";
  std::printf("open cycle vs its closed twin: Tail_1 keys within %.3g rad\n", worst);
  // The last open key is not the first: the loop closes one step later.
  EXPECT_GT(to.values.back().angularDistance(to.values.front()), 1e-6);
}

TEST(Bake, FoxClipsCloseAndMove) {
  rig::Character ch = chained_fox();
  const rig::Character before = ch;
  pipeline::BakeClipsReport rep;
  ASSERT_TRUE(pipeline::bake_clips(ch, pipeline::BakeClipsOptions{}, rep).ok());
  for (const pipeline::ClipBakeReport& r : rep.clips) {
    EXPECT_EQ(r.looping, fixtures::clip_loops(r.name)) << r.name;
    if (r.looping) {
      EXPECT_TRUE(r.converged) << r.name;
      EXPECT_LE(r.seam_max_deg, 0.5) << r.name;
    }
    // A dead tail's loop closes trivially. The bake sizes the spring to this
    // 0.71 m tail (spring_size.h: 4.2 Hz at the tip), so in the idle it
    // follows the breathing body closely: 0.34 % of H (1.9 % with the
    // defaults' 0.45 Hz); the other clips move it 1.6-15 % of H.
    EXPECT_GT(r.tip_range_rel_H, 0.002) << r.name << ": the baked tail does not move";
  }
  for (size_t c = 0; c < ch.clips.size(); ++c)
    for (const rig::JointTracks& jt : before.clips[c].tracks) {
      bool same = false;
      for (const rig::JointTracks& now : ch.clips[c].tracks)
        if (now.joint == jt.joint)
          same = now.rotation.times == jt.rotation.times && now.translation.times == jt.translation.times;
      EXPECT_TRUE(same) << ch.clips[c].name << ": body track of joint " << jt.joint << " changed";
    }
  rig::Character none = ch;
  pipeline::BakeClipsOptions bad;
  bad.clips = {"no_such_clip"};
  EXPECT_FALSE(pipeline::bake_clips(none, bad, rep).ok());
}

}  // namespace
}  // namespace harness
