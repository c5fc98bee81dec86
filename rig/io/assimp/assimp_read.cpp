#include "rig/io/assimp/assimp_read.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "rig/anatomy/roles.h"
#include "rig/io/read_checks.h"
#include "rig/anatomy/up_from_legs.h"
#include "rig/io/io.h"

namespace rig {
namespace {

Mat4 to_mat4(const aiMatrix4x4& a) {
  Mat4 m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m(r, c) = a[r][c];
  return m;
}

bool matrix_ok(const Mat4& m) { return m.allFinite() && m.cwiseAbs().maxCoeff() <= kMaxCoordinate; }
bool value_ok(double v) { return std::isfinite(v) && std::abs(v) <= kMaxCoordinate; }

// True when every key of the channel holds the node's own transform (an
// exporter's constant track for an armature object), so it animates nothing.
bool channel_holds_rest(const aiNodeAnim* ch, const aiMatrix4x4& rest) {
  aiVector3D scale, position;
  aiQuaternion rotation;
  rest.Decompose(scale, rotation, position);
  auto near = [](const aiVector3D& a, const aiVector3D& b) {
    const double tol = 1e-6 * std::max(1.0, static_cast<double>(b.Length()));
    return (a - b).Length() <= tol;
  };
  for (unsigned k = 0; k < ch->mNumPositionKeys; ++k)
    if (!near(ch->mPositionKeys[k].mValue, position)) return false;
  for (unsigned k = 0; k < ch->mNumScalingKeys; ++k)
    if (!near(ch->mScalingKeys[k].mValue, scale)) return false;
  for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) {
    const aiQuaternion& q = ch->mRotationKeys[k].mValue;
    const double dot = q.w * rotation.w + q.x * rotation.x + q.y * rotation.y + q.z * rotation.z;
    const double norms = std::sqrt(static_cast<double>(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) *
                                   (rotation.x * rotation.x + rotation.y * rotation.y + rotation.z * rotation.z +
                                    rotation.w * rotation.w));
    if (!(std::abs(dot) >= (1.0 - 1e-6) * norms)) return false;  // float keys: within 0.1 deg
  }
  return true;
}

// FBX declares its axes (GlobalSettings UpAxis, FrontAxis, CoordAxis and
// their signs); Assimp reports them but does not apply them, so a Z-up file
// (Blender's axis_up='Z', 3ds Max) lay on its back. The turn onto Y up,
// applied above the root node: rows are the file's axes that become X, Y, Z.
// Identity for a Y-up file, nothing without the settings; only a proper
// rotation (a front sign that would mirror the file is flipped: which way the
// character faces is read from its body, rig/facing.h).
std::optional<Mat4> declared_axes_to_y_up(const aiScene* scene) {
  Mat4 m = Mat4::Identity();
  if (!scene->mMetaData) return std::nullopt;
  int32_t up = 1, up_sign = 1, front = 2, front_sign = 1, coord = 0, coord_sign = 1;
  const aiMetadata* md = scene->mMetaData;
  if (!md->Get("UpAxis", up) || !md->Get("FrontAxis", front) || !md->Get("CoordAxis", coord)) return std::nullopt;
  md->Get("UpAxisSign", up_sign);
  md->Get("FrontAxisSign", front_sign);
  md->Get("CoordAxisSign", coord_sign);
  auto ok = [](int32_t axis, int32_t sign) { return axis >= 0 && axis <= 2 && (sign == 1 || sign == -1); };
  if (!ok(up, up_sign) || !ok(front, front_sign) || !ok(coord, coord_sign) || up == front || up == coord ||
      front == coord)
    return m;
  Eigen::Matrix3d r = Eigen::Matrix3d::Zero();
  r(0, coord) = coord_sign;
  r(1, up) = up_sign;
  r(2, front) = front_sign;
  if (r.determinant() < 0) r.row(2) = -r.row(2);
  m.block<3, 3>(0, 0) = r;
  return m;
}


Status bad(const std::string& path, const std::string& what) {
  return Status::Error(Status::Code::kBadData, path + ": " + what);
}

// The scene's nodes in depth-first order (parents first), placed in the Y-up frame.
struct SceneNodes {
  std::vector<const aiNode*> nodes;
  std::vector<int> parent;  // -1 at the scene root
  std::vector<Mat4> world;
  Mat4 axes = Mat4::Identity();  // the turn onto Y up, applied above the root node
  std::map<std::string, int> node_by_name;  // the first node of each name
};

// Step: the node table in depth-first order (parents first), without recursion, and names.
Status list_nodes(const std::string& path, const aiScene* scene, SceneNodes& table) {
  std::vector<const aiNode*>& nodes = table.nodes;
  std::vector<int>& parent = table.parent;
  struct Item {
    const aiNode* node;
    int parent, depth;
  };
  std::vector<Item> stack{{scene->mRootNode, -1, 0}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    if (!it.node) continue;
    if (it.depth > kMaxNodeDepth)
      return bad(path, "nodes nested deeper than " + std::to_string(kMaxNodeDepth) + " levels");
    if (nodes.size() >= static_cast<size_t>(kMaxJoints) * 10)
      return bad(path, "more than " + std::to_string(kMaxJoints * 10) + " nodes");
    const int id = static_cast<int>(nodes.size());
    nodes.push_back(it.node);
    parent.push_back(it.parent);
    for (unsigned c = it.node->mNumChildren; c-- > 0;) stack.push_back({it.node->mChildren[c], id, it.depth + 1});
  }
  for (size_t i = 0; i < nodes.size(); ++i) table.node_by_name.emplace(nodes[i]->mName.C_Str(), static_cast<int>(i));
  return Status::Ok();
}

// Step: world matrices, turned onto Y up by the declared axes or else by the legs.
Status place_nodes(const std::string& path, const FileFormat format, const aiScene* scene, SceneNodes& table,
                   std::vector<std::string>& notes) {
  const std::vector<const aiNode*>& nodes = table.nodes;
  std::vector<Mat4>& world = table.world;
  Mat4& axes = table.axes;
  world.resize(nodes.size());
  const std::optional<Mat4> declared = declared_axes_to_y_up(scene);
  axes = declared.value_or(Mat4::Identity());
  for (size_t i = 0; i < nodes.size(); ++i) {
    world[i] = (table.parent[i] >= 0 ? world[table.parent[i]] : axes) * to_mat4(nodes[i]->mTransformation);
    if (!matrix_ok(world[i]))
      return bad(path,
                 "node '" + std::string(nodes[i]->mName.C_Str()) + "' has a NaN, infinite or implausible transform");
  }
  // COLLADA always has an up axis (<up_axis>, Y_UP when absent) and Assimp
  // applies it at the root itself; BVH never has one, FBX may lack its
  // settings: for those the legs tell which way is down.
  if (!declared && format != FileFormat::kDae) {
    std::vector<std::string> names;
    std::vector<Vec3> positions;
    for (size_t i = 0; i < nodes.size(); ++i) {
      names.emplace_back(nodes[i]->mName.C_Str());
      positions.emplace_back(world[i].block<3, 1>(0, 3));
    }
    if (const auto turn = turn_legs_down(names, table.parent, positions)) {
      Mat4 t = Mat4::Identity();
      t.block<3, 3>(0, 0) = turn->rotation;
      axes = t * axes;
      for (Mat4& w : world) w = t * w;
      notes.push_back(path + ": declares no up axis and its " + (turn->by_name ? "named" : "unnamed") +
                      " legs hang along " + turn->legs_along + ": turned onto Y up");
    }
  }
  return Status::Ok();
}

// Per mesh of the scene: the first node that instances it, or -1.
std::vector<int> mesh_nodes(const aiScene* scene, const std::vector<const aiNode*>& nodes) {
  std::vector<int> mesh_node(scene->mNumMeshes, -1);
  for (size_t i = 0; i < nodes.size(); ++i)
    for (unsigned k = 0; k < nodes[i]->mNumMeshes; ++k) {
      const unsigned mi = nodes[i]->mMeshes[k];
      if (mi < scene->mNumMeshes && mesh_node[mi] < 0) mesh_node[mi] = static_cast<int>(i);
    }
  return mesh_node;
}

// Step: the joint nodes, bones (with their inverse binds in scene space) and animated nodes.
Status find_joints(const std::string& path, const aiScene* scene, const SceneNodes& table,
                   const std::vector<int>& mesh_node, std::set<int>& joints, std::map<int, Mat4>& offset_world) {
  const std::vector<int>& parent = table.parent;
  const std::map<std::string, int>& node_by_name = table.node_by_name;
  // Bone nodes and animated nodes, closed under ancestors (below the scene
  // root unless that is itself a joint).
  std::set<int> marked;
  for (unsigned mi = 0; mi < scene->mNumMeshes; ++mi) {
    const aiMesh* mesh = scene->mMeshes[mi];
    if (!mesh->HasBones() || mesh_node[mi] < 0) continue;
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
      auto it = node_by_name.find(mesh->mBones[b]->mName.C_Str());
      if (it == node_by_name.end()) continue;
      marked.insert(it->second);
      if (!offset_world.count(it->second)) {
        const Mat4 ow = to_mat4(mesh->mBones[b]->mOffsetMatrix) * table.world[mesh_node[mi]].inverse();
        if (!matrix_ok(ow) || std::abs(ow.determinant()) < 1e-30 || !matrix_ok(Mat4(ow.inverse())))
          return bad(path, "bone '" + std::string(mesh->mBones[b]->mName.C_Str()) +
                               "': singular or implausible inverse bind (offset) matrix");
        offset_world[it->second] = ow;
      }
    }
  }
  for (unsigned a = 0; a < scene->mNumAnimations; ++a)
    for (unsigned c = 0; c < scene->mAnimations[a]->mNumChannels; ++c) {
      auto it = node_by_name.find(scene->mAnimations[a]->mChannels[c]->mNodeName.C_Str());
      if (it != node_by_name.end()) marked.insert(it->second);
    }
  for (int j : marked)
    for (int n = j; n >= 0 && !joints.count(n); n = parent[n]) {
      if (n == 0 && !marked.count(0)) break;
      joints.insert(n);
    }
  if (joints.size() > static_cast<size_t>(kMaxJoints))
    return bad(path, "more than " + std::to_string(kMaxJoints) + " joints");
  return Status::Ok();
}

// Step: top joints that are no bone and animate nothing taken out of the joints.
void fold_armature_objects(const aiScene* scene, const SceneNodes& table, const std::map<int, Mat4>& offset_world,
                           std::set<int>& joints) {
  // Such a joint (an armature object: Blender's FBX export puts the unit
  // scale 100 on it) is one of the nodes above the roots, not a joint: a
  // joint's bind scale is a bone's scaled rest, which Blender's glTF importer
  // cannot show (the rest mesh comes out 100x too small). Its children become
  // the roots.
  const std::vector<int>& parent = table.parent;
  std::vector<char> animates(table.nodes.size(), 0);
  for (unsigned a = 0; a < scene->mNumAnimations; ++a)
    for (unsigned c = 0; c < scene->mAnimations[a]->mNumChannels; ++c) {
      const aiNodeAnim* ch = scene->mAnimations[a]->mChannels[c];
      auto it = table.node_by_name.find(ch->mNodeName.C_Str());
      if (it != table.node_by_name.end() && !channel_holds_rest(ch, table.nodes[it->second]->mTransformation))
        animates[it->second] = 1;
    }
  for (bool folded = true; folded;) {  // joints are closed under ancestors: a child joint's parent is a joint
    folded = false;
    std::set<int> with_child_joint;
    for (int j : joints)
      if (parent[j] >= 0) with_child_joint.insert(parent[j]);
    for (int n : joints) {
      const bool top = parent[n] < 0 || !joints.count(parent[n]);
      if (top && with_child_joint.count(n) && !offset_world.count(n) && !animates[n]) {
        joints.erase(n);
        folded = true;
        break;
      }
    }
  }
}

// Step: the skeleton from the joint nodes, parents first; returns node -> joint in `joint_of_node`.
Status build_skeleton(const std::string& path, const SceneNodes& table, const std::set<int>& joints,
                      const std::map<int, Mat4>& offset_world, Skeleton& sk, std::map<int, int>& joint_of_node) {
  const std::vector<const aiNode*>& nodes = table.nodes;
  const std::vector<int>& parent = table.parent;
  const std::vector<Mat4>& world = table.world;
  for (int n : joints) {  // std::set iterates ascending node ids = parents first
    const int idx = sk.size();
    joint_of_node[n] = idx;
    sk.names.push_back(nodes[n]->mName.length ? nodes[n]->mName.C_Str() : "node_" + std::to_string(n));
    int p = parent[n];
    while (p >= 0 && !joint_of_node.count(p)) p = parent[p];
    sk.parents.push_back(p >= 0 ? joint_of_node[p] : -1);
    const Mat4 bind = offset_world.count(n) ? Mat4(offset_world.at(n).inverse()) : world[n];
    if (!matrix_ok(bind) || std::abs(bind.determinant()) < 1e-30)
      return bad(path, "joint '" + std::string(nodes[n]->mName.C_Str()) + "': singular or implausible bind transform");
    sk.bind_world.push_back(bind);
    sk.inverse_bind.push_back(bind.inverse());
    const Mat4 parent_world = p >= 0 ? world[p] : (parent[n] >= 0 ? world[parent[n]] : table.axes);
    sk.root_parent_world.push_back(p >= 0 ? Mat4::Identity() : parent_world);
    sk.stored_local.push_back(Transform::from_matrix(parent_world.inverse() * world[n]));
  }
  for (int i = 0; i < sk.size(); ++i) {
    const int p = sk.parents[i];
    const Mat4 pw = p >= 0 ? sk.bind_world[p] : sk.root_parent_world[i];
    sk.neutral_local.push_back(Transform::from_matrix(pw.inverse() * sk.bind_world[i]));
  }
  return Status::Ok();
}

// One skinned triangle mesh `mi` placed by its node's world `mw`: vertices, triangles, weights into out.
Status read_mesh(const std::string& path, const aiScene* scene, const unsigned mi, const Mat4& mw,
                 const std::map<std::string, int>& node_by_name, const std::map<int, int>& joint_of_node,
                 Character& out) {
  const aiMesh* mesh = scene->mMeshes[mi];
  if (out.mesh.positions.size() + mesh->mNumVertices > kMaxVertices)
    return bad(path, "more than " + std::to_string(kMaxVertices) + " skinned vertices");
  Mesh::Primitive prim{static_cast<int>(mi), 0, out.mesh.vertex_count(),
                       static_cast<int>(mesh->mNumVertices), mesh->mName.C_Str()};
  const int base = prim.first_vertex;
  for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
    const aiVector3D& p = mesh->mVertices[v];
    const Eigen::Vector4d w = mw * Eigen::Vector4d(p.x, p.y, p.z, 1.0);
    if (!value_ok(w.x()) || !value_ok(w.y()) || !value_ok(w.z()))
      return bad(path, "mesh '" + std::string(mesh->mName.C_Str()) + "' vertex " + std::to_string(v) +
                           " is NaN, infinite or implausibly far");
    out.mesh.positions.emplace_back(w.head<3>());
    out.mesh.source_primitive.push_back(static_cast<int>(out.mesh.primitives.size()));
    out.mesh.source_index.push_back(static_cast<int>(v));
  }
  for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
    const aiFace& face = mesh->mFaces[f];
    if (face.mNumIndices != 3) continue;
    std::array<int, 3> t;
    bool ok = true;
    for (int k = 0; k < 3; ++k) {
      ok &= face.mIndices[k] < mesh->mNumVertices;
      t[k] = base + static_cast<int>(face.mIndices[k]);
    }
    if (ok) out.mesh.triangles.push_back(t);
  }
  out.skin.influences.resize(out.mesh.positions.size());
  for (unsigned b = 0; b < mesh->mNumBones; ++b) {
    const aiBone* bone = mesh->mBones[b];
    auto it = node_by_name.find(bone->mName.C_Str());
    if (it == node_by_name.end()) continue;
    const int j = joint_of_node.at(it->second);
    for (unsigned k = 0; k < bone->mNumWeights; ++k) {
      const aiVertexWeight& vw = bone->mWeights[k];
      if (vw.mVertexId < mesh->mNumVertices && vw.mWeight > 0 && std::isfinite(vw.mWeight))
        out.skin.influences[base + vw.mVertexId].push_back({j, vw.mWeight});
    }
  }
  out.mesh.primitives.push_back(prim);
  return Status::Ok();
}

// Step: mesh and skin from the skinned triangle meshes only, in scene space.
Status read_skinned_meshes(const std::string& path, const aiScene* scene, const SceneNodes& table,
                           const std::vector<int>& mesh_node, const std::map<int, int>& joint_of_node,
                           Character& out) {
  for (unsigned mi = 0; mi < scene->mNumMeshes; ++mi) {
    const aiMesh* mesh = scene->mMeshes[mi];
    if (!mesh->HasBones() || mesh_node[mi] < 0 || !(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
      continue;
    const Mat4& mw = table.world[mesh_node[mi]];
    if (Status s = read_mesh(path, scene, mi, mw, table.node_by_name, joint_of_node, out); !s.ok()) return s;
  }
  return Status::Ok();
}

// Step: unweighted vertices given to their nearest joint, weights summing to 1; returns how many had none.
int settle_weights(const Skeleton& sk, const Mesh& mesh, Skin& skin) {
  // A vertex with no weight goes to its nearest joint (glTF needs weights
  // summing to 1).
  int unweighted = 0;
  for (size_t v = 0; v < skin.influences.size() && sk.size() > 0; ++v) {
    if (!skin.influences[v].empty()) continue;
    int best = 0;
    double best_d = INFINITY;
    for (int j = 0; j < sk.size(); ++j) {
      const double d = (sk.bind_world[j].block<3, 1>(0, 3) - mesh.positions[v]).squaredNorm();
      if (d < best_d) best_d = d, best = j;
    }
    skin.influences[v].push_back({best, 1.0});
    ++unweighted;
  }
  for (auto& infl : skin.influences) {
    std::sort(infl.begin(), infl.end(), [](const Influence& a, const Influence& b) { return a.joint < b.joint; });
    double sum = 0;
    for (const auto& in : infl) sum += in.weight;
    if (sum > 0)
      for (auto& in : infl) in.weight /= sum;
  }
  return unweighted;
}

// One channel of a clip at `tps` ticks per second into the tracks of joint `joint`; counts zero rotation keys.
Status read_channel(const std::string& path, const aiNodeAnim* ch, const double tps, const std::string& clip_name,
                    const int joint, JointTracks& jt, int& zero_keys) {
  jt.joint = joint;
  const std::string where = "animation '" + clip_name + "' joint '" + ch->mNodeName.C_Str() + "'";
  if (ch->mNumPositionKeys > kMaxFrames || ch->mNumRotationKeys > kMaxFrames || ch->mNumScalingKeys > kMaxFrames)
    return bad(path, where + ": more than " + std::to_string(kMaxFrames) + " keys");
  auto key_ok = [&](double t, std::initializer_list<double> vs) {
    bool ok = std::isfinite(t / tps) && std::abs(t / tps) <= kMaxClipSeconds;
    for (double v : vs) ok = ok && value_ok(v);
    return ok;
  };
  for (unsigned k = 0; k < ch->mNumPositionKeys; ++k) {
    const auto& key = ch->mPositionKeys[k];
    if (!key_ok(key.mTime, {key.mValue.x, key.mValue.y, key.mValue.z}))
      return bad(path, where + " translation key " + std::to_string(k) + " is NaN, infinite or implausible");
    jt.translation.times.push_back(key.mTime / tps);
    jt.translation.values.emplace_back(key.mValue.x, key.mValue.y, key.mValue.z);
  }
  for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) {
    const auto& key = ch->mRotationKeys[k];
    if (!key_ok(key.mTime, {key.mValue.w, key.mValue.x, key.mValue.y, key.mValue.z}))
      return bad(path, where + " rotation key " + std::to_string(k) + " is NaN, infinite or implausible");
    jt.rotation.times.push_back(key.mTime / tps);
    const Quat q(key.mValue.w, key.mValue.x, key.mValue.y, key.mValue.z);
    if (q.norm() > 1e-6) {
      jt.rotation.values.push_back(q.normalized());
    } else {
      jt.rotation.values.push_back(jt.rotation.values.empty() ? Quat::Identity() : jt.rotation.values.back());
      ++zero_keys;
    }
  }
  for (unsigned k = 0; k < ch->mNumScalingKeys; ++k) {
    const auto& key = ch->mScalingKeys[k];
    if (!key_ok(key.mTime, {key.mValue.x, key.mValue.y, key.mValue.z}))
      return bad(path, where + " scale key " + std::to_string(k) + " is NaN, infinite or implausible");
    jt.scale.times.push_back(key.mTime / tps);
    jt.scale.values.emplace_back(key.mValue.x, key.mValue.y, key.mValue.z);
  }
  for (auto* tr : {&jt.translation.times, &jt.rotation.times, &jt.scale.times})
    if (!std::is_sorted(tr->begin(), tr->end()))
      return Status::Error(Status::Code::kBadData, path + ": animation keys are not in time order");
  return Status::Ok();
}

// Step: clips in seconds (= ticks / ticks-per-second), with notes of keys dropped or replaced.
Status read_clips(const std::string& path, const aiScene* scene, const std::map<std::string, int>& node_by_name,
                  const std::map<int, int>& joint_of_node, std::vector<Clip>& clips, std::vector<std::string>& notes) {
  int zero_keys = 0;
  for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
    const aiAnimation* anim = scene->mAnimations[a];
    const double tps = anim->mTicksPerSecond > 0 && std::isfinite(anim->mTicksPerSecond) ? anim->mTicksPerSecond : 25.0;
    Clip clip;
    clip.name = anim->mName.length ? anim->mName.C_Str() : "clip_" + std::to_string(a);
    clip.duration = anim->mDuration / tps;
    if (!std::isfinite(clip.duration) || clip.duration < 0 || clip.duration > kMaxClipSeconds)
      return bad(path, "animation '" + clip.name + "': duration is not 0.." + std::to_string(kMaxClipSeconds) + " s");
    for (unsigned c = 0; c < anim->mNumChannels; ++c) {
      const aiNodeAnim* ch = anim->mChannels[c];
      auto it = node_by_name.find(ch->mNodeName.C_Str());
      if (it == node_by_name.end() || !joint_of_node.count(it->second)) continue;
      JointTracks jt;
      if (Status s = read_channel(path, ch, tps, clip.name, joint_of_node.at(it->second), jt, zero_keys); !s.ok())
        return s;
      clip.tracks.push_back(std::move(jt));
    }
    if (const int dropped = make_key_times_increasing(clip))
      notes.push_back(path + ": animation '" + clip.name + "': " + std::to_string(dropped) +
                      " keys at a repeated time dropped");
    clips.push_back(std::move(clip));
  }
  if (zero_keys)
    notes.push_back(path + ": " + std::to_string(zero_keys) + " zero rotation keys replaced by the previous key (or identity)");
  return Status::Ok();
}

// Metres per unit the file declares, or 0 when unknown (load() then guesses from the height).
double declared_meters_per_unit(const aiScene* scene) {
  // FBX declares its unit (UnitScaleFactor is centimetres per unit). Assimp
  // stores it as a float, and aiMetadata::Get only answers for the stored
  // type: a double read never finds it.
  double unit_scale = 0;
  if (scene->mMetaData) {
    float as_float = 0;
    if (scene->mMetaData->Get("UnitScaleFactor", as_float)) unit_scale = as_float;
    else scene->mMetaData->Get("UnitScaleFactor", unit_scale);
  }
  return std::isfinite(unit_scale) && unit_scale > 0 && unit_scale < 1e6 ? unit_scale * 0.01 : 0;
}

}  // namespace

Status load_assimp(const std::string& path, FileFormat format, Character& out) {
  if (format == FileFormat::kBvh)
    if (Status s = check_bvh(path); !s.ok()) return s;
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate);
  if (!scene || !scene->mRootNode)
    return Status::Error(Status::Code::kBadData,
                         path + ": not a readable file (" + importer.GetErrorString() + ")");
  out = Character{};
  out.source_path = path;
  out.format = format;

  SceneNodes table;
  if (Status s = list_nodes(path, scene, table); !s.ok()) return s;
  std::vector<std::string> notes;
  if (Status s = place_nodes(path, format, scene, table, notes); !s.ok()) return s;

  const std::vector<int> mesh_node = mesh_nodes(scene, table.nodes);
  std::set<int> joints;
  std::map<int, Mat4> offset_world;  // node -> inverse bind in scene space
  if (Status s = find_joints(path, scene, table, mesh_node, joints, offset_world); !s.ok()) return s;
  fold_armature_objects(scene, table, offset_world, joints);
  std::map<int, int> joint_of_node;
  if (Status s = build_skeleton(path, table, joints, offset_world, out.skeleton, joint_of_node); !s.ok()) return s;

  if (Status s = read_skinned_meshes(path, scene, table, mesh_node, joint_of_node, out); !s.ok()) return s;
  if (const int unweighted = settle_weights(out.skeleton, out.mesh, out.skin))
    notes.push_back(path + ": " + std::to_string(unweighted) + " vertices have no weight; given to their nearest joint");
  if (Status s = read_clips(path, scene, table.node_by_name, joint_of_node, out.clips, notes); !s.ok()) return s;

  out.meters_per_unit = declared_meters_per_unit(scene);
  out.unit_declared = out.meters_per_unit > 0;
  if (out.has_skin()) assign_roles(out.skeleton, out.mesh, out.skin);
  else assign_roles(out.skeleton);
  Status ok = Status::Ok();
  ok.notes = std::move(notes);
  return ok;
}

}  // namespace rig
