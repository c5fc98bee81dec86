#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>

#include <tiny_gltf.h>

#include "rig/io/edit.h"
#include "rig/io/file_weights.h"
#include "rig/io/io.h"
#include "rig/model/pose.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

std::string asset(const std::string& rel) { return std::string(TAILRIG_ASSETS) + "/" + rel; }

std::string temp_path(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("tailrig_rig_tests_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

#define REQUIRE_ASSET(path) \
  if (!fs::exists(path)) GTEST_SKIP() << "asset missing: " << path << " (set TAILRIG_ASSETS)"

Mat4 translate(Vec3 t) {
  Mat4 m = Mat4::Identity();
  m.block<3, 1>(0, 3) = t;
  return m;
}

// A two-triangle strip skinned to a three-joint chain, with one clip.
Character tiny_character() {
  Character c;
  Skeleton& sk = c.skeleton;
  sk.names = {"Hips", "Tail_1", "Tail_2"};
  sk.parents = {-1, 0, 1};
  for (int i = 0; i < 3; ++i) {
    sk.bind_world.push_back(translate({0, 1.0 - 0.25 * i, -0.1 * i}));
    sk.inverse_bind.push_back(sk.bind_world.back().inverse());
    sk.root_parent_world.push_back(Mat4::Identity());
    Mat4 parent = i == 0 ? Mat4::Identity() : sk.bind_world[i - 1];
    sk.neutral_local.push_back(Transform::from_matrix(parent.inverse() * sk.bind_world[i]));
  }
  sk.stored_local = sk.neutral_local;
  sk.roles.resize(3);
  c.mesh.positions = {{-0.05, 1, 0}, {0.05, 1, 0}, {-0.05, 0.75, -0.1}, {0.05, 0.75, -0.1}, {0, 0.5, -0.2}};
  c.mesh.triangles = {{0, 2, 1}, {1, 2, 3}, {2, 4, 3}};
  c.mesh.source_primitive.assign(5, 0);
  c.mesh.source_index = {0, 1, 2, 3, 4};
  c.mesh.primitives = {{0, 0, 0, 5, "strip"}};
  c.skin.influences = {{{0, 1.0}}, {{0, 1.0}}, {{0, 0.5}, {1, 0.5}}, {{1, 0.25}, {2, 0.75}}, {{2, 1.0}}};
  Clip clip;
  clip.name = "wag";
  clip.duration = 1.0;
  JointTracks jt;
  jt.joint = 1;
  jt.rotation = {{0.0, 0.5, 1.0},
                 {Quat::Identity(), Quat(Eigen::AngleAxisd(0.5, Vec3::UnitY())), Quat::Identity()},
                 Interpolation::kLinear};
  clip.tracks.push_back(jt);
  c.clips.push_back(clip);
  return c;
}

void expect_same_character(const Character& a, const Character& b, double tol) {
  ASSERT_EQ(a.skeleton.names, b.skeleton.names);
  ASSERT_EQ(a.skeleton.parents, b.skeleton.parents);
  ASSERT_EQ(a.mesh.vertex_count(), b.mesh.vertex_count());
  ASSERT_EQ(a.mesh.triangles, b.mesh.triangles);
  for (int v = 0; v < a.mesh.vertex_count(); ++v) {
    ASSERT_LE((a.mesh.positions[v] - b.mesh.positions[v]).norm(), tol) << "vertex " << v;
    ASSERT_EQ(a.skin.influences[v].size(), b.skin.influences[v].size()) << "vertex " << v;
    for (size_t k = 0; k < a.skin.influences[v].size(); ++k) {
      ASSERT_EQ(a.skin.influences[v][k].joint, b.skin.influences[v][k].joint);
      ASSERT_NEAR(a.skin.influences[v][k].weight, b.skin.influences[v][k].weight, 1e-6);
    }
  }
  for (int j = 0; j < a.skeleton.size(); ++j)
    ASSERT_LE((a.skeleton.inverse_bind[j] - b.skeleton.inverse_bind[j]).cwiseAbs().maxCoeff(),
              tol * std::max(1.0, a.skeleton.inverse_bind[j].cwiseAbs().maxCoeff()))
        << "joint " << a.skeleton.names[j];
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (size_t ci = 0; ci < a.clips.size(); ++ci) {
    EXPECT_EQ(a.clips[ci].name, b.clips[ci].name);
    EXPECT_NEAR(a.clips[ci].duration, b.clips[ci].duration, 1e-6);
    for (int s = 0; s <= 8; ++s) {
      const double t = a.clips[ci].duration * s / 8;
      auto wa = pose_at(a.skeleton, a.clips[ci], t);
      auto wb = pose_at(b.skeleton, b.clips[ci], t);
      for (int j = 0; j < a.skeleton.size(); ++j)
        ASSERT_LE((wa[j] - wb[j]).cwiseAbs().maxCoeff(), tol * std::max(1.0, wa[j].cwiseAbs().maxCoeff()))
            << "clip " << a.clips[ci].name << " t=" << t << " joint " << a.skeleton.names[j];
    }
  }
}

TEST(GltfRoundTrip, NewDocument) {
  Character c = tiny_character();
  const std::string path = temp_path("tiny.glb");
  ASSERT_TRUE(save_glb(c, path).ok());
  Character back;
  Status s = load(path, back);
  ASSERT_TRUE(s.ok()) << s.message;
  expect_same_character(c, back, 1e-6);
}

// save_glb_bytes is what save_glb writes, byte for byte, and load_glb_bytes
// reads it as load reads the file: a new document and one edited in place.
TEST(GltfRoundTrip, InMemoryIsTheFile) {
  std::vector<Character> characters = {tiny_character()};
  const std::string fox = asset("characters/Fox.glb");
  if (fs::exists(fox)) {
    ASSERT_TRUE(load(fox, characters.emplace_back()).ok());
  }
  for (size_t k = 0; k < characters.size(); ++k) {
    const std::string path = temp_path("in_memory_" + std::to_string(k) + ".glb");
    ASSERT_TRUE(save_glb(characters[k], path).ok());
    std::ifstream f(path, std::ios::binary);
    const std::string file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::string bytes;
    ASSERT_TRUE(save_glb_bytes(characters[k], bytes).ok());
    EXPECT_TRUE(bytes == file) << k << ": " << bytes.size() << " bytes in memory, " << file.size() << " in the file";
    Character from_file, from_memory;
    ASSERT_TRUE(load(path, from_file).ok());
    const Status s = load_glb_bytes(bytes, "memory.glb", from_memory);
    ASSERT_TRUE(s.ok()) << s.message;
    expect_same_character(from_file, from_memory, 0.0);
    EXPECT_EQ(from_memory.meters_per_unit, from_file.meters_per_unit);
    const auto wf = weights_in_file(from_file), wm = weights_in_file(from_memory);
    ASSERT_EQ(wf.size(), wm.size());
    for (size_t v = 0; v < wf.size(); ++v) {
      ASSERT_EQ(wf[v].size(), wm[v].size()) << "vertex " << v;
      for (size_t i = 0; i < wf[v].size(); ++i)
        EXPECT_TRUE(wf[v][i].joint == wm[v][i].joint && wf[v][i].weight == wm[v][i].weight) << "vertex " << v;
    }
  }
  Character c;
  const Status bad = load_glb_bytes("glTF not really", "garbage.glb", c);
  EXPECT_EQ(bad.code, Status::Code::kBadData);
  EXPECT_EQ(bad.message.find('\n'), std::string::npos) << bad.message;
}

// The stored (loaded) pose is not the bind pose: neutral locals must come
// from the inverse bind matrices, the stored pose must survive as it was.
TEST(GltfRead, NeutralPoseFromInverseBindNotStoredPose) {
  Character c = tiny_character();
  const Quat bent(Eigen::AngleAxisd(28.0 * std::numbers::pi / 180, Vec3::UnitX()));
  c.skeleton.stored_local[2].rotation = bent;
  const std::string path = temp_path("bent.glb");
  ASSERT_TRUE(save_glb(c, path).ok());
  Character back;
  ASSERT_TRUE(load(path, back).ok());
  EXPECT_NEAR(back.skeleton.stored_local[2].rotation.angularDistance(bent), 0.0, 1e-6);
  EXPECT_NEAR(back.skeleton.neutral_local[2].rotation.angularDistance(Quat::Identity()), 0.0, 1e-6);
  auto w = local_to_world(back.skeleton, back.skeleton.neutral_local);
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(w[j].isApprox(c.skeleton.bind_world[j], 1e-6));
}

TEST(GltfRoundTrip, KhronosFoxUnchanged) {
  const std::string in = asset("characters/Fox.glb");
  REQUIRE_ASSET(in);
  Character a;
  Status s = load(in, a);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(a.skeleton.size(), 24);
  EXPECT_EQ(a.clips.size(), 3u);
  const std::string out = temp_path("fox_roundtrip.glb");
  s = save_glb(a, out);
  ASSERT_TRUE(s.ok()) << s.message;
  Character b;
  s = load(out, b);
  ASSERT_TRUE(s.ok()) << s.message;
  expect_same_character(a, b, 1e-6);
}

TEST(RemoveJoints, RefusesOpenSetsAndWeightedJoints) {
  Character c = tiny_character();
  EXPECT_FALSE(remove_joints(c, std::vector<int>{1}).ok());  // Tail_2 would lose its parent
  EXPECT_FALSE(remove_joints(c, std::vector<int>{2}).ok());  // Tail_2 carries weight
  EXPECT_FALSE(remove_joints(c, std::vector<int>{7}).ok());
  EXPECT_EQ(c.skeleton.size(), 3);  // refused edits change nothing
}

TEST(RemoveJoints, RemapsInfluencesParentsAndTracks) {
  Character c = tiny_character();
  c.skin.influences[3] = {{1, 1.0}};
  c.skin.influences[4] = {{1, 1.0}, {2, 0.0}};
  ASSERT_TRUE(remove_joints(c, std::vector<int>{2}).ok());
  EXPECT_EQ(c.skeleton.names, (std::vector<std::string>{"Hips", "Tail_1"}));
  EXPECT_EQ(c.skeleton.parents, (std::vector<int>{-1, 0}));
  EXPECT_EQ(c.skeleton.inverse_bind.size(), 2u);
  ASSERT_EQ(c.skin.influences[4].size(), 1u);
  EXPECT_EQ(c.skin.influences[4][0].joint, 1);
  ASSERT_EQ(c.clips[0].tracks.size(), 1u);
  EXPECT_EQ(c.clips[0].tracks[0].joint, 1);
}

// The Fox without its tail bones (weights given to the parent first), written
// in place: the tail nodes leave the skin, everything else reads back equal.
TEST(RemoveJoints, KhronosFoxWithoutTailRoundTrips) {
  const std::string in = asset("characters/Fox.glb");
  REQUIRE_ASSET(in);
  Character a;
  ASSERT_TRUE(load(in, a).ok());
  std::vector<char> tail(a.skeleton.size(), 0);
  std::vector<int> gone;
  for (int j = 0; j < a.skeleton.size(); ++j) {
    const int p = a.skeleton.parents[j];
    tail[j] = a.skeleton.names[j].find("Tail") != std::string::npos || (p >= 0 && tail[p]);
    if (tail[j]) gone.push_back(j);
  }
  ASSERT_EQ(gone.size(), 3u);
  const int body = a.skeleton.parents[gone[0]];
  for (auto& list : a.skin.influences)
    for (auto& inf : list)
      if (tail[inf.joint]) inf.joint = body;
  ASSERT_TRUE(remove_joints(a, gone).ok());
  EXPECT_EQ(a.skeleton.size(), 21);
  const std::string out = temp_path("fox_no_tail.glb");
  Status s = save_glb(a, out);
  ASSERT_TRUE(s.ok()) << s.message;
  Character b;
  s = load(out, b);
  ASSERT_TRUE(s.ok()) << s.message;
  // Influences merged onto one joint read back as separate entries: compare sums per joint.
  for (auto* c : {&a, &b})
    for (auto& list : c->skin.influences) {
      std::map<int, double> merged;
      for (const auto& inf : list) merged[inf.joint] += inf.weight;
      list.clear();
      for (const auto& [j, w] : merged)
        if (w > 0.0) list.push_back({j, w});
    }
  expect_same_character(a, b, 1e-6);
}

// The root joint's stored pose is a posed frame (an exporter that saved the
// current frame: a Mixamo hips tilted mid-walk). The rest mesh and the bind
// come from the inverse bind matrices and the mesh node, not from that
// frame: before, the whole character read 15 deg tilted (a tilted Wolf lost
// its hind legs' roles and its tail).
TEST(GltfRead, PosedRootDoesNotTiltTheBind) {
  Character c = tiny_character();
  const Quat tilt(Eigen::AngleAxisd(15.0 * std::numbers::pi / 180, Vec3::UnitX()));
  c.skeleton.stored_local[0].rotation = tilt;
  c.skeleton.stored_local[0].translation += Vec3(0.0, 0.05, 0.02);
  const std::string path = temp_path("posed_root.glb");
  ASSERT_TRUE(save_glb(c, path).ok());
  Character back;
  ASSERT_TRUE(load(path, back).ok());
  ASSERT_EQ(back.mesh.positions.size(), c.mesh.positions.size());
  for (size_t v = 0; v < c.mesh.positions.size(); ++v)
    EXPECT_TRUE(back.mesh.positions[v].isApprox(c.mesh.positions[v], 1e-6)) << "vertex " << v;
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(back.skeleton.bind_world[j].isApprox(c.skeleton.bind_world[j], 1e-6));
  EXPECT_NEAR(back.skeleton.stored_local[0].rotation.angularDistance(tilt), 0.0, 1e-6);
}

// Primitives the reader skips (points, lines, strips) keep their vertex
// data; their JOINTS follow the written skin's order. Removing Tail_2 (as
// strip-tail does) shifted their indices out of range: ~1000 validator
// errors on a T-Rex with a skinned lines primitive.
TEST(GltfWrite, UnreadPrimitivesKeepTheirBones) {
  Character c = tiny_character();
  const std::string plain = temp_path("unread_plain.glb"), with_points = temp_path("unread_points.glb"),
                    out = temp_path("unread_out.glb");
  ASSERT_TRUE(save_glb(c, plain).ok());
  tinygltf::Model m;
  tinygltf::TinyGLTF gltf;
  std::string err, warn;
  ASSERT_TRUE(gltf.LoadBinaryFromFile(&m, &err, &warn, plain)) << err;
  ASSERT_EQ(m.skins.size(), 1u);
  auto index_of = [&](const tinygltf::Model& doc, const std::string& name) {
    const auto& joints = doc.skins[0].joints;
    for (size_t i = 0; i < joints.size(); ++i)
      if (doc.nodes[joints[i]].name == name) return static_cast<int>(i);
    return -1;
  };
  // Two points: one on Tail_2, one on Hips.
  auto add = [&](const std::vector<unsigned char>& bytes, int type, int comp, int count) {
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = m.buffers[0].data.size();
    v.byteLength = bytes.size();
    m.buffers[0].data.insert(m.buffers[0].data.end(), bytes.begin(), bytes.end());
    while (m.buffers[0].data.size() % 4) m.buffers[0].data.push_back(0);
    m.bufferViews.push_back(v);
    tinygltf::Accessor a;
    a.bufferView = static_cast<int>(m.bufferViews.size()) - 1;
    a.type = type;
    a.componentType = comp;
    a.count = count;
    m.accessors.push_back(a);
    return static_cast<int>(m.accessors.size()) - 1;
  };
  const float pos[6] = {0, 0.5f, -0.2f, 0, 1, 0};
  const float wts[8] = {1, 0, 0, 0, 1, 0, 0, 0};
  const unsigned char jts[8] = {static_cast<unsigned char>(index_of(m, "Tail_2")), 0, 0, 0,
                                static_cast<unsigned char>(index_of(m, "Hips")), 0, 0, 0};
  tinygltf::Primitive points;
  points.mode = TINYGLTF_MODE_POINTS;
  points.attributes["POSITION"] = add(std::vector<unsigned char>(reinterpret_cast<const unsigned char*>(pos),
                                                                 reinterpret_cast<const unsigned char*>(pos) + 24),
                                      TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT, 2);
  m.accessors.back().minValues = {0, 0.5, -0.2};
  m.accessors.back().maxValues = {0, 1, 0};
  points.attributes["WEIGHTS_0"] = add(std::vector<unsigned char>(reinterpret_cast<const unsigned char*>(wts),
                                                                  reinterpret_cast<const unsigned char*>(wts) + 32),
                                       TINYGLTF_TYPE_VEC4, TINYGLTF_COMPONENT_TYPE_FLOAT, 2);
  points.attributes["JOINTS_0"] = add(std::vector<unsigned char>(jts, jts + 8), TINYGLTF_TYPE_VEC4,
                                      TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, 2);
  m.meshes[0].primitives.push_back(points);
  ASSERT_TRUE(gltf.WriteGltfSceneToFile(&m, with_points, false, false, false, true));

  Character read;
  ASSERT_TRUE(load(with_points, read).ok());
  ASSERT_EQ(read.mesh.vertex_count(), c.mesh.vertex_count());  // the points are not read
  const int tail2 = read.skeleton.find("Tail_2"), tail1 = read.skeleton.find("Tail_1");
  ASSERT_GE(tail2, 0);
  for (auto& in : read.skin.influences)
    for (Influence& i : in)
      if (i.joint == tail2) i.joint = tail1;
  ASSERT_TRUE(remove_joints(read, std::vector<int>{tail2}).ok());
  ASSERT_TRUE(save_glb(read, out).ok());

  tinygltf::Model back;
  ASSERT_TRUE(gltf.LoadBinaryFromFile(&back, &err, &warn, out)) << err;
  const tinygltf::Primitive& p = back.meshes[0].primitives.back();
  ASSERT_EQ(p.mode, TINYGLTF_MODE_POINTS);
  const tinygltf::Accessor& ja = back.accessors[p.attributes.at("JOINTS_0")];
  const tinygltf::BufferView& jv = back.bufferViews[ja.bufferView];
  ASSERT_EQ(ja.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);
  const unsigned char* j = back.buffers[0].data.data() + jv.byteOffset + ja.byteOffset;
  const auto& joints = back.skins[0].joints;
  ASSERT_LT(j[0], joints.size());
  ASSERT_LT(j[4], joints.size());
  EXPECT_EQ(back.nodes[joints[j[0]]].name, "Tail_1");  // Tail_2 removed: its parent
  EXPECT_EQ(back.nodes[joints[j[4]]].name, "Hips");
}

// Quaternius files keep an Armature scale between mesh space and the scene.
TEST(GltfRoundTrip, TrexArmatureScaleSurvives) {
  const std::string in = asset("characters/Trex.glb");
  REQUIRE_ASSET(in);
  Character a, b;
  ASSERT_TRUE(load(in, a).ok());
  EXPECT_GT(a.mesh.positions.size(), 1000u);
  const std::string out = temp_path("trex_roundtrip.glb");
  ASSERT_TRUE(save_glb(a, out).ok());
  ASSERT_TRUE(load(out, b).ok());
  expect_same_character(a, b, 1e-5);
  // Skinning the first clip's first frame must not change the scale of the
  // mesh: bind space and clip poses agree.
  auto pose = pose_at(a.skeleton, a.clips[0], 0.0);
  auto skinned = skin_positions(a.mesh, a.skin, a.skeleton, pose);
  double lo = 1e300, hi = -1e300, blo = 1e300, bhi = -1e300;
  for (size_t v = 0; v < skinned.size(); ++v) {
    lo = std::min(lo, skinned[v].y()), hi = std::max(hi, skinned[v].y());
    blo = std::min(blo, a.mesh.positions[v].y()), bhi = std::max(bhi, a.mesh.positions[v].y());
  }
  EXPECT_NEAR((hi - lo) / (bhi - blo), 1.0, 0.35);
}

// A GLB with animations and no skin reads back as a clip source.
TEST(GltfRoundTrip, ClipSourceKeepsJointsAndTracks) {
  Character c = tiny_character();
  c.mesh = Mesh{};
  c.skin = Skin{};
  const std::string path = temp_path("clips_only.glb");
  ASSERT_TRUE(save_glb(c, path).ok());
  Character back;
  Status s = load(path, back);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_FALSE(back.has_skin());
  ASSERT_GE(back.skeleton.size(), 2);
  EXPECT_EQ(back.skeleton.names[0], "Hips");
  EXPECT_EQ(back.skeleton.names[1], "Tail_1");
  ASSERT_EQ(back.clips.size(), 1u);
  ASSERT_EQ(back.clips[0].tracks.size(), 1u);
  EXPECT_EQ(back.clips[0].tracks[0].joint, 1);
  EXPECT_NEAR(back.clips[0].duration, 1.0, 1e-6);
}

TEST(Load, MissingFileIsNotFound) {
  Character c;
  Status s = load("/nonexistent/dir/x.glb", c);
  EXPECT_EQ(s.code, Status::Code::kNotFound);
  EXPECT_EQ(s.message.find('\n'), std::string::npos);
}

TEST(Load, GarbageAndTruncatedFilesFailCleanly) {
  const std::string garbage = temp_path("garbage.glb");
  std::ofstream(garbage, std::ios::binary) << "this is not a glb at all";
  Character c;
  Status s = load(garbage, c);
  EXPECT_EQ(s.code, Status::Code::kBadData);
  EXPECT_EQ(s.message.find('\n'), std::string::npos);
  for (const std::string ext : {".fbx", ".bvh", ".gltf", ".dae"}) {
    const std::string g = temp_path("garbage" + ext);
    std::ofstream(g, std::ios::binary) << "{ not json \x01\x02\x03";
    EXPECT_FALSE(load(g, c).ok()) << ext;
  }
  // Every truncation of a real GLB: an error or a valid load, never a crash.
  Character tiny = tiny_character();
  const std::string full = temp_path("full.glb");
  ASSERT_TRUE(save_glb(tiny, full).ok());
  std::ifstream f(full, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), {});
  const std::string cut = temp_path("cut.glb");
  for (size_t n = 0; n < bytes.size(); n += std::max<size_t>(1, bytes.size() / 97)) {
    std::ofstream(cut, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(n));
    Character t;
    Status st = load(cut, t);
    EXPECT_FALSE(st.ok()) << "truncated at " << n;
  }
}

TEST(Load, BvhIsAClipSource) {
  const std::string in = asset("clips/walk.bvh");
  REQUIRE_ASSET(in);
  Character c;
  Status s = load(in, c);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_FALSE(c.has_skin());
  ASSERT_EQ(c.clips.size(), 1u);
  EXPECT_NEAR(c.clips[0].duration, 1.09, 0.05);
  int hips = -1;
  for (int j = 0; j < c.skeleton.size(); ++j)
    if (c.skeleton.roles[j].part == BodyPart::kHips) hips = j;
  ASSERT_GE(hips, 0);
}

// A meshopt-compressed file (gltfpack -c) has a fallback buffer without
// bytes: it is named as unsupported compression, not as a broken buffer.
TEST(Load, CompressedGltfIsNamedUnsupported) {
  const std::string path = temp_path("meshopt.gltf");
  std::ofstream(path) << R"({"asset":{"version":"2.0"},"extensionsUsed":["EXT_meshopt_compression"],)"
                      << R"("extensionsRequired":["EXT_meshopt_compression"],"buffers":[{"byteLength":4096}]})";
  Character c;
  const Status s = load(path, c);
  EXPECT_EQ(s.code, Status::Code::kUnsupported);
  EXPECT_NE(s.message.find("EXT_meshopt_compression"), std::string::npos) << s.message;
  EXPECT_EQ(s.message.find('\n'), std::string::npos);
}

// FBX says its unit in GlobalSettings (UnitScaleFactor, centimetres per
// unit; Assimp keeps it as a float): it is taken, not guessed from the height.
TEST(Load, FbxUnitIsDeclaredByTheFile) {
  const std::string in = asset("clips/cmu_07_01_walk.fbx");
  REQUIRE_ASSET(in);
  Character c;
  ASSERT_TRUE(load(in, c).ok());
  EXPECT_TRUE(c.unit_declared);
  EXPECT_DOUBLE_EQ(c.meters_per_unit, 0.01);
  Character bvh;
  REQUIRE_ASSET(asset("clips/walk.bvh"));
  ASSERT_TRUE(load(asset("clips/walk.bvh"), bvh).ok());
  EXPECT_FALSE(bvh.unit_declared);  // BVH has no unit: guessed
}

}  // namespace
}  // namespace rig

namespace rig {
namespace {

// Issue 45, class 8: weights an exporter normalised in float32 (valid: the
// float sum is within the validator's tolerance of 1) come back from a read
// and write bit for bit, although the reader renormalises them in double.
TEST(GltfRoundTrip, ValidWeightsAreWrittenAsTheFileHoldsThem) {
  Character c = tiny_character();
  // Decimals as float32 (0.02f + 0.39f + 0.59f is 1 in float32, 1 - 4.1e-8
  // in double): about one vertex in twenty of a float file is like this.
  const float raw[][3] = {{0.02f, 0.39f, 0.59f}, {0.03f, 0.13f, 0.84f}, {0.02f, 0.45f, 0.53f},
                          {0.03f, 0.19f, 0.78f}, {0.1f, 0.2f, 0.7f}};
  for (int v = 0; v < 5; ++v) {
    c.skin.influences[v].clear();
    for (int j = 0; j < 3; ++j) c.skin.influences[v].push_back({j, static_cast<double>(raw[v][j])});
  }
  const std::string first = temp_path("float_weights.glb"), second = temp_path("float_weights_again.glb");
  ASSERT_TRUE(save_glb(c, first).ok());
  Character a;
  ASSERT_TRUE(load(first, a).ok());
  const auto held = weights_in_file(a);
  ASSERT_EQ(held.size(), 5u);
  // The test means something only if reading changed some float bits.
  int settled_differently = 0;
  for (int v = 0; v < 5; ++v)
    for (size_t k = 0; k < held[v].size(); ++k)
      settled_differently += static_cast<float>(held[v][k].weight) != static_cast<float>(a.skin.influences[v][k].weight);
  ASSERT_GT(settled_differently, 0) << "no weight changed on read: pick other weights";
  EXPECT_EQ(weights_changed_on_write(a).total(), 0);
  ASSERT_TRUE(save_glb(a, second).ok());
  Character b;
  ASSERT_TRUE(load(second, b).ok());
  const auto again = weights_in_file(b);
  ASSERT_EQ(again.size(), held.size());
  for (int v = 0; v < 5; ++v) {
    ASSERT_EQ(again[v].size(), held[v].size()) << "vertex " << v;
    for (size_t k = 0; k < held[v].size(); ++k) {
      EXPECT_EQ(again[v][k].joint, held[v][k].joint);
      EXPECT_EQ(static_cast<float>(again[v][k].weight), static_cast<float>(held[v][k].weight)) << "vertex " << v;
    }
  }
}

// Weights the validator refuses (a sum of 0.98, a joint named twice) are
// written settled, and weights_changed_on_write names each such vertex.
TEST(GltfRoundTrip, InvalidWeightsAreRenormalisedAndCounted) {
  Character c = tiny_character();
  c.skin.influences[2] = {{0, 0.49}, {1, 0.49}};
  c.skin.influences[3] = {{1, 0.25}, {2, 0.5}, {1, 0.25}};
  const std::string first = temp_path("bad_weights.glb"), second = temp_path("bad_weights_fixed.glb");
  ASSERT_TRUE(save_glb(c, first).ok());
  Character a;
  const Status read = load(first, a);
  ASSERT_TRUE(read.ok()) << read.message;
  bool noted = false;
  for (const std::string& n : read.notes) noted |= n.find("2 vertices' weights") != std::string::npos;
  EXPECT_TRUE(noted) << "the reader notes the weights it cannot keep";
  const WeightWriteChanges w = weights_changed_on_write(a);
  EXPECT_EQ(w.renormalised, 1);
  EXPECT_EQ(w.merged, 1);
  EXPECT_NEAR(w.worst_sum_error, 0.02, 1e-6);
  EXPECT_NE(weight_changes_text(w).find("1 vertex renormalised to sum 1"), std::string::npos) << weight_changes_text(w);
  ASSERT_TRUE(save_glb(a, second).ok());
  Character b;
  ASSERT_TRUE(load(second, b).ok());
  const auto written = weights_in_file(b);
  for (int v : {2, 3}) {
    double sum = 0;
    for (const Influence& i : written[v]) sum += i.weight;
    EXPECT_NEAR(sum, 1.0, 1e-6) << "vertex " << v;
  }
  EXPECT_EQ(written[3].size(), 2u) << "joint 1 once";
  EXPECT_EQ(weights_changed_on_write(b).total(), 0);
}

}  // namespace
}  // namespace rig
