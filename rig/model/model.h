// The character model as plain data: skeleton, mesh, skin, clips.
// Everything a file loader produces and every other library consumes.
// Spaces: "bind space" is the scene (world) space of the character in its bind
// pose: mesh positions and joint bind transforms are both given there, so
// skinning with the bind pose returns the positions unchanged. (A glTF file's
// mesh space can differ from it by an exporter's Armature transform; the
// loader folds that in and the writer takes it out again.)
// Units: whatever the file uses; `meters_per_unit` says how to get metres.
#pragma once

#include <Eigen/Geometry>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "rig/model/joint_capsule.h"
#include "rig/model/role.h"

namespace rig {

using Vec3 = Eigen::Vector3d;
using Quat = Eigen::Quaterniond;
using Mat4 = Eigen::Matrix4d;

// Translation, rotation, scale, applied as T * R * S (glTF node order).
struct Transform {
  Vec3 translation = Vec3::Zero();
  Quat rotation = Quat::Identity();
  Vec3 scale = Vec3::Ones();

  Mat4 matrix() const;
  // Decomposes an affine matrix without shear; negative determinant goes to
  // a negative x scale.
  static Transform from_matrix(const Mat4& m);
};

// Joints in topological order: parents[i] < i for every non-root joint.
struct Skeleton {
  std::vector<std::string> names;
  std::vector<int> parents;  // -1 for a root joint
  std::vector<Role> roles;   // filled by assign_roles()

  // Bind world transform of each joint in bind space.
  std::vector<Mat4> bind_world;
  // bind_world^-1: takes bind-space positions into each joint's frame.
  std::vector<Mat4> inverse_bind;
  // Neutral local transforms reconstructed from the inverse bind matrices:
  // L_i = W_parent^-1 W_i (for roots W_parent is root_parent_world). Evaluating
  // these reproduces bind_world exactly, whatever pose the file stored.
  std::vector<Transform> neutral_local;
  // The local transforms the file stored on the joint nodes (its "loaded
  // pose"); may differ from neutral_local (SPEC §4). Clips without a channel
  // for a joint hold this value, as glTF viewers do.
  std::vector<Transform> stored_local;
  // World transform of the (non-joint) node chain above root joints, e.g. an
  // `Armature` node scaled 0.01. Identity when roots sit at scene level.
  std::vector<Mat4> root_parent_world;  // one per joint; used for roots only

  int size() const { return static_cast<int>(names.size()); }
  int find(const std::string& name) const;  // -1 if absent
  std::vector<int> children(int joint) const;
};

struct Influence {
  int joint = 0;
  double weight = 0.0;
  bool operator==(const Influence&) const = default;
};

// All skinned primitives of the file concatenated into one vertex array.
struct Mesh {
  std::vector<Vec3> positions;                  // bind space, per vertex
  std::vector<std::array<int, 3>> triangles;    // indices into positions
  std::vector<int> source_primitive;            // per vertex: index into primitives
  std::vector<int> source_index;                // per vertex: index inside that primitive
  struct Primitive {
    int mesh = 0;        // glTF mesh index (or Assimp mesh index)
    int primitive = 0;   // primitive index inside the glTF mesh
    int first_vertex = 0;
    int vertex_count = 0;
    std::string name;
  };
  std::vector<Primitive> primitives;

  int vertex_count() const { return static_cast<int>(positions.size()); }
};

// Per vertex, any number of influences, weights normalised to sum 1 on read.
// A vertex with no influence keeps an empty list.
struct Skin {
  std::vector<std::vector<Influence>> influences;
};

enum class Interpolation { kLinear, kStep, kCubicSpline };

template <typename T>
struct Track {
  std::vector<double> times;  // seconds, ascending
  std::vector<T> values;      // for cubic spline: in-tangent, value, out-tangent per key
  Interpolation interpolation = Interpolation::kLinear;
  bool empty() const { return times.empty(); }
};

struct JointTracks {
  int joint = -1;  // index into Skeleton
  Track<Vec3> translation;
  Track<Quat> rotation;
  Track<Vec3> scale;
};

struct Clip {
  std::string name;
  double duration = 0.0;  // seconds
  std::vector<JointTracks> tracks;
};

enum class FileFormat { kGlb, kGltf, kFbx, kBvh, kDae, kOther, kFixture };
const char* format_name(FileFormat f);

struct GltfSource;  // the original glTF document, kept to write edits in place

struct Character {
  std::string source_path;
  FileFormat format = FileFormat::kOther;
  double meters_per_unit = 1.0;  // declared by the file (FBX), else guessed from the model height
  bool unit_declared = false;    // meters_per_unit is the file's own (FBX UnitScaleFactor)
  Skeleton skeleton;
  Mesh mesh;
  Skin skin;
  std::vector<Clip> clips;
  // What a tail must stay out of (issue 46): `fix` fits the legs' capsules,
  // a glTF file stores them on its joint nodes (gltf_colliders.h). Bind
  // space, model units; empty: none known.
  std::vector<JointCapsule> colliders;
  // Set by the glTF loader; rig::save edits this document instead of building
  // a new one, so materials, textures and extensions survive.
  std::shared_ptr<const GltfSource> gltf;

  // True when this file has a skinned mesh (a character, not a clip source).
  bool has_skin() const { return !mesh.positions.empty() && !skin.influences.empty(); }
};

}  // namespace rig
