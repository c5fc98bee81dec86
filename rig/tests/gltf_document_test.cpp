// The document repairs every written glTF goes through (gltf_document.h),
// on animation samplers real exporters write.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "rig/io/gltf/gltf_document.h"

namespace rig::gltf_doc {
namespace {

// A document with one node carrying a two-target morph, animated by a
// `weights` channel: each key holds one scalar per morph target (Blender
// writes this for every animated shape key).
tinygltf::Model morph_weights_document(const std::vector<float>& times, const std::vector<float>& weights,
                                       const std::string& interpolation) {
  tinygltf::Model m;
  m.buffers.emplace_back();
  Writer w{m};
  tinygltf::Node node;
  node.name = "Face";
  m.nodes.push_back(node);
  tinygltf::AnimationSampler s;
  s.input = w.add_accessor(times, static_cast<int>(times.size()), TINYGLTF_COMPONENT_TYPE_FLOAT,
                           TINYGLTF_TYPE_SCALAR, -1, true);
  s.output = w.add_accessor(weights, static_cast<int>(weights.size()), TINYGLTF_COMPONENT_TYPE_FLOAT,
                            TINYGLTF_TYPE_SCALAR, -1, false);
  s.interpolation = interpolation;
  tinygltf::AnimationChannel ch;
  ch.sampler = 0;
  ch.target_node = 0;
  ch.target_path = "weights";
  tinygltf::Animation a;
  a.name = "KeyAction";
  a.samplers.push_back(s);
  a.channels.push_back(ch);
  m.animations.push_back(a);
  return m;
}

std::vector<float> floats(const tinygltf::Model& m, int accessor) {
  const tinygltf::Accessor& a = m.accessors[accessor];
  const tinygltf::BufferView& v = m.bufferViews[a.bufferView];
  const auto* p = reinterpret_cast<const float*>(m.buffers[v.buffer].data.data() + v.byteOffset + a.byteOffset);
  return std::vector<float>(p, p + a.count);
}

// Before, the output count (keys x targets) was checked against keys x 1
// and every write of such a file failed: "output does not match input".
TEST(RepairSamplers, MorphWeightsKeysHoldOneValuePerTarget) {
  tinygltf::Model m = morph_weights_document({0.0f, 0.5f, 1.0f}, {0, 1, 0.5f, 0.5f, 1, 0}, "LINEAR");
  std::vector<std::string> notes;
  const Status st = repair_samplers(m, notes);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(floats(m, m.animations[0].samplers[0].output), (std::vector<float>{0, 1, 0.5f, 0.5f, 1, 0}));

  // A repeated time is repaired per key: both targets' values of the later key.
  tinygltf::Model r = morph_weights_document({0.0f, 0.5f, 0.5f, 1.0f}, {0, 1, 0.2f, 0.8f, 0.5f, 0.5f, 1, 0}, "LINEAR");
  ASSERT_TRUE(repair_samplers(r, notes).ok());
  const tinygltf::AnimationSampler& s = r.animations[0].samplers[0];
  EXPECT_EQ(floats(r, s.input), (std::vector<float>{0.0f, 0.5f, 1.0f}));
  EXPECT_EQ(floats(r, s.output), (std::vector<float>{0, 1, 0.5f, 0.5f, 1, 0}));

  // Cubic-spline keys: in-tangents, values, out-tangents, per target.
  tinygltf::Model c = morph_weights_document({0.0f, 1.0f}, std::vector<float>(12, 0.25f), "CUBICSPLINE");
  ASSERT_TRUE(repair_samplers(c, notes).ok());

  // A count that is no whole number of keys is still refused.
  tinygltf::Model bad = morph_weights_document({0.0f, 1.0f}, {0, 1, 0.5f}, "LINEAR");
  EXPECT_FALSE(repair_samplers(bad, notes).ok());
}

// glTF sizes a sampler's output only through the channels that use it
// (translation, rotation, scale: their components; weights: the morph
// targets). A sampler no channel uses, or one a channel tinygltf does not
// keep uses (KHR_animation_pointer), is valid with any output: every write
// of such a file failed with "output does not match input" (issue 45).
TEST(RepairSamplers, SamplersNoChannelSizesAreKept) {
  // Unused, 5 values on 2 keys: no whole number of keys, kept as it is.
  tinygltf::Model m = morph_weights_document({0.0f, 1.0f}, {0, 1, 0.5f, 0.5f, 1}, "LINEAR");
  m.animations[0].channels.clear();
  std::vector<std::string> notes;
  Status st = repair_samplers(m, notes);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(floats(m, m.animations[0].samplers[0].output),
            (std::vector<float>{0, 1, 0.5f, 0.5f, 1}));
  EXPECT_TRUE(notes.empty());

  // Unused with a repeated time: its keys are its output split evenly (two
  // values each here), the later of the two kept; the VEC2 type stays.
  tinygltf::Model r =
      morph_weights_document({0.0f, 0.5f, 0.5f}, {0, 1, 0.2f, 0.8f, 0.4f, 0.6f}, "LINEAR");
  r.animations[0].channels.clear();
  r.accessors[r.animations[0].samplers[0].output].type = TINYGLTF_TYPE_VEC2;
  r.accessors[r.animations[0].samplers[0].output].count = 3;
  st = repair_samplers(r, notes);
  ASSERT_TRUE(st.ok()) << st.message;
  const tinygltf::AnimationSampler& s = r.animations[0].samplers[0];
  EXPECT_EQ(floats(r, s.input), (std::vector<float>{0.0f, 0.5f}));
  EXPECT_EQ(r.accessors[s.output].type, TINYGLTF_TYPE_VEC2);
  EXPECT_EQ(r.accessors[s.output].count, 2u);
  const tinygltf::Accessor& out = r.accessors[s.output];
  const auto* p = reinterpret_cast<const float*>(r.buffers[0].data.data() +
                                                 r.bufferViews[out.bufferView].byteOffset);
  EXPECT_EQ(std::vector<float>(p, p + 4), (std::vector<float>{0, 1, 0.4f, 0.6f}));

  // A repeated time on an output that is no whole number of keys: which key
  // to drop is unknown (the validator rejects repeated times): refused.
  tinygltf::Model bad = morph_weights_document({0.0f, 0.0f}, {0, 1, 0.5f}, "LINEAR");
  bad.animations[0].channels.clear();
  EXPECT_FALSE(repair_samplers(bad, notes).ok());

  // A rotation channel's sampler is still sized by glTF: 3 values for VEC4
  // keys is refused, as the validator does.
  tinygltf::Model rot =
      morph_weights_document({0.0f, 1.0f}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, "LINEAR");
  rot.animations[0].channels[0].target_path = "rotation";
  rot.accessors[rot.animations[0].samplers[0].output].type = TINYGLTF_TYPE_VEC4;
  rot.accessors[rot.animations[0].samplers[0].output].count = 3;
  EXPECT_FALSE(repair_samplers(rot, notes).ok());
}

// glTF allows only TRS on a node a channel targets. A file that stores its
// joints as matrices (COLLADA2GLTF) got channels on them from retarget and
// bake: the validator rejected every such write
// (ANIMATION_CHANNEL_TARGET_NODE_MATRIX).
TEST(RepairAnimatedMatrices, AnAnimatedNodeGetsTheSameTransformAsTrs) {
  tinygltf::Model m = morph_weights_document({0.0f, 1.0f}, {0, 1, 1, 0}, "LINEAR");
  m.animations[0].channels[0].target_path = "rotation";
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  Eigen::Matrix4d mat = Eigen::Matrix4d::Identity();
  mat.block<3, 3>(0, 0) = q.toRotationMatrix() * Eigen::Vector3d(2.0, -0.5, 1.5).asDiagonal();
  mat.block<3, 1>(0, 3) = Eigen::Vector3d(0.1, 0.2, -0.3);
  m.nodes[0].matrix.assign(mat.data(), mat.data() + 16);
  tinygltf::Node still;
  still.matrix = m.nodes[0].matrix;
  m.nodes.push_back(still);  // not animated: its matrix stays
  std::vector<std::string> notes;
  repair_animated_matrices(m, notes);
  const tinygltf::Node& n = m.nodes[0];
  ASSERT_TRUE(n.matrix.empty());
  ASSERT_EQ(n.translation.size(), 3u);
  ASSERT_EQ(n.rotation.size(), 4u);
  ASSERT_EQ(n.scale.size(), 3u);
  const Eigen::Quaterniond r(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]);
  Eigen::Matrix4d back = Eigen::Matrix4d::Identity();
  back.block<3, 3>(0, 0) = r.toRotationMatrix() * Eigen::Vector3d(n.scale[0], n.scale[1], n.scale[2]).asDiagonal();
  back.block<3, 1>(0, 3) = Eigen::Vector3d(n.translation[0], n.translation[1], n.translation[2]);
  EXPECT_LE((back - mat).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(m.nodes[1].matrix.size(), 16u);
  EXPECT_EQ(notes.size(), 1u);
}

// Images a .gltf points at, as its loader leaves them: bytes from the file
// (or none, when the file is missing), no buffer view yet.
TEST(RepairImages, MimeTypesComeFromTheBytesAndMissingImagesBecomeAPlaceholder) {
  tinygltf::Model m;
  m.buffers.emplace_back();
  tinygltf::Image jpeg;  // an upper-case extension: was written as image/png
  jpeg.uri = "textures/Skin.JPG";
  jpeg.image = {0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'};
  m.images.push_back(jpeg);
  tinygltf::Image webp;  // EXT_texture_webp, as Blender 4 writes it
  webp.uri = "textures/skin";
  webp.image = {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', ' '};
  m.images.push_back(webp);
  tinygltf::Image missing;  // was written as a dangling uri
  missing.uri = "textures/not_there.png";
  m.images.push_back(missing);
  ASSERT_TRUE(prune_and_repack(m).ok());
  std::vector<std::string> notes;
  repair_unreadable_images(m, notes);
  EXPECT_EQ(m.images[0].mimeType, "image/jpeg");
  EXPECT_EQ(m.images[1].mimeType, "image/webp");
  EXPECT_EQ(m.images[2].mimeType, "image/png");
  for (const tinygltf::Image& img : m.images) {
    EXPECT_TRUE(img.uri.empty());
    ASSERT_GE(img.bufferView, 0);
    ASSERT_LT(img.bufferView, static_cast<int>(m.bufferViews.size()));
  }
  const tinygltf::BufferView& grey = m.bufferViews[m.images[2].bufferView];
  ASSERT_GE(grey.byteLength, 8u);
  EXPECT_EQ(m.buffers[0].data[grey.byteOffset + 1], 'P');  // a PNG signature
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("not_there.png"), std::string::npos) << notes[0];
}

// An infinite perspective camera (no zfar) was written with zfar 0.
TEST(RepairCameras, AnInfiniteFarPlaneIsWrittenFarButFinite) {
  tinygltf::Model m;
  tinygltf::Camera cam;
  cam.type = "perspective";
  cam.perspective.yfov = 0.8;
  cam.perspective.znear = 0.1;
  m.cameras.push_back(cam);
  cam.perspective.zfar = 100.0;
  m.cameras.push_back(cam);
  std::vector<std::string> notes;
  repair_infinite_cameras(m, notes);
  EXPECT_GT(m.cameras[0].perspective.zfar, 1e5);
  EXPECT_EQ(m.cameras[1].perspective.zfar, 100.0);
  EXPECT_EQ(notes.size(), 1u);
}

// An exporter that leaves out min/max (required on POSITION and on key
// times) had them missing in our writes too: the validator rejected them.
TEST(RepairBounds, PositionsAndKeyTimesGetTheirMinAndMax) {
  tinygltf::Model m = morph_weights_document({0.0f, 0.5f, 2.0f}, {0, 1, 1, 0, 0.5f, 0.5f}, "LINEAR");
  Writer w{m};
  const int pos = w.add_accessor(std::vector<float>{1, 2, 3, -1, 5, 0.5f}, 2, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                 TINYGLTF_TYPE_VEC3, -1, false);
  tinygltf::Primitive prim;
  prim.attributes["POSITION"] = pos;
  tinygltf::Mesh mesh;
  mesh.primitives.push_back(prim);
  m.meshes.push_back(mesh);
  tinygltf::Accessor& times = m.accessors[m.animations[0].samplers[0].input];
  times.minValues.clear();
  times.maxValues.clear();
  std::vector<std::string> notes;
  repair_missing_bounds(m, notes);
  EXPECT_EQ(m.accessors[pos].minValues, (std::vector<double>{-1, 2, 0.5}));
  EXPECT_EQ(m.accessors[pos].maxValues, (std::vector<double>{1, 5, 3}));
  const tinygltf::Accessor& t = m.accessors[m.animations[0].samplers[0].input];
  EXPECT_EQ(t.minValues, (std::vector<double>{0.0}));
  EXPECT_EQ(t.maxValues, (std::vector<double>{2.0}));
  EXPECT_EQ(notes.size(), 1u);
}

// EXT_mesh_gpu_instancing keeps its accessors through pruning, re-indexed:
// its TRANSLATION pointed past the pruned accessor list (a dangling index
// the validator does not check, which engines crash or fail on).
TEST(PruneAndRepack, InstancingAccessorsAreKeptAndReindexed) {
  tinygltf::Model m;
  m.buffers.emplace_back();
  Writer w{m};
  w.add_accessor(std::vector<float>{1, 2, 3}, 1, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, -1, false);  // unused
  const int offsets = w.add_accessor(std::vector<float>{0, 0, 0, 5, 0, 0}, 2, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                     TINYGLTF_TYPE_VEC3, -1, false);
  tinygltf::Node node;
  tinygltf::Value::Object attributes{{"TRANSLATION", tinygltf::Value(offsets)}};
  tinygltf::Value::Object ext{{"attributes", tinygltf::Value(attributes)}};
  node.extensions["EXT_mesh_gpu_instancing"] = tinygltf::Value(ext);
  m.nodes.push_back(node);
  ASSERT_TRUE(prune_and_repack(m).ok());
  ASSERT_EQ(m.accessors.size(), 1u);
  const tinygltf::Value& a = m.nodes[0].extensions["EXT_mesh_gpu_instancing"].Get("attributes").Get("TRANSLATION");
  EXPECT_EQ(a.GetNumberAsInt(), 0);
  EXPECT_EQ(m.accessors[0].count, 2u);
}

// A vec3 float accessor of `count` elements, element i = (i, -i, 0.5 i).
tinygltf::Model vec3_document(const size_t count) {
  tinygltf::Model m;
  m.buffers.emplace_back();
  Writer w{m};
  std::vector<float> values;
  for (size_t i = 0; i < count; ++i)
    values.insert(values.end(), {float(i), -float(i), 0.5f * float(i)});
  w.add_accessor(values, static_cast<int>(count), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, -1, false);
  return m;
}

// Reading in blocks (issue 47: not a whole accessor as doubles) gives the
// whole read's values, block after block.
TEST(AccessorBlocks, TheBlocksHoldTheWholeReadsValues) {
  const tinygltf::Model m = vec3_document(2 * kAccessorBlock + 5);
  std::vector<double> whole, joined;
  int comps = 0;
  std::string err;
  ASSERT_TRUE(read_accessor(m, 0, whole, comps, err)) << err;
  int blocks = 0;
  ASSERT_TRUE(read_accessor_blocks(m, 0, comps, err, [&](size_t first, const std::vector<double>& v) {
    EXPECT_EQ(first * 3, joined.size());
    joined.insert(joined.end(), v.begin(), v.end());
    ++blocks;
    return true;
  })) << err;
  EXPECT_EQ(comps, 3);
  EXPECT_EQ(blocks, 3);
  EXPECT_EQ(joined, whole);
}

// A bad value in a later block fails the read with the whole read's message
// even when the caller stopped using blocks earlier (it found a bad vertex of
// its own): the accessor's error is still the one reported.
TEST(AccessorBlocks, ALaterBadValueIsReportedAfterTheCallerStopped) {
  tinygltf::Model m = vec3_document(2 * kAccessorBlock + 5);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(m.buffers[0].data.data() + (2 * kAccessorBlock + 1) * 12 + 4, &nan, 4);
  std::vector<double> whole;
  int comps = 0;
  std::string whole_err, err;
  ASSERT_FALSE(read_accessor(m, 0, whole, comps, whole_err));
  int used = 0;
  EXPECT_FALSE(read_accessor_blocks(m, 0, comps, err, [&](size_t, const std::vector<double>&) {
    ++used;
    return false;
  }));
  EXPECT_EQ(used, 1);
  EXPECT_EQ(err, whole_err);
  EXPECT_NE(err.find("element " + std::to_string(2 * kAccessorBlock + 1)), std::string::npos) << err;
}

}  // namespace
}  // namespace rig::gltf_doc
