// GLB writing with tinygltf. A loaded document is edited in place (new joints
// and nodes, one skin for the whole skeleton, new JOINTS/WEIGHTS, added
// animation channels; replaced accessors pruned and buffers repacked);
// otherwise a new document is built from the model.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "rig/io/gltf/gltf_colliders.h"
#include "rig/io/gltf/gltf_document.h"
#include "rig/io/gltf/gltf_source.h"
#include "rig/io/gltf/gltf_weights.h"
#include "rig/io/gltf/gltf_write_unread.h"
#include "rig/io/read_checks.h"
#include "rig/io/safe_write.h"
#include "rig/model/units.h"

namespace rig {

namespace {

using gltf_doc::Writer;


void set_node_trs(tinygltf::Node& n, const Transform& t) {
  n.matrix.clear();
  n.translation = {t.translation.x(), t.translation.y(), t.translation.z()};
  n.rotation = {t.rotation.x(), t.rotation.y(), t.rotation.z(), t.rotation.w()};
  n.scale = {t.scale.x(), t.scale.y(), t.scale.z()};
  if (t.translation == Vec3::Zero()) n.translation.clear();
  if (t.rotation.coeffs() == Quat::Identity().coeffs()) n.rotation.clear();
  if (t.scale == Vec3::Ones()) n.scale.clear();
}

// JOINTS_n/WEIGHTS_n for the vertices [first, first+count) of the model.
// A vertex with influences in `as_read` is written with those (the file's
// own weights, gltf_weights::to_write_as_read).
void write_skin_attributes(Writer& w, const Skin& skin, const std::vector<std::vector<Influence>>& as_read,
                           int first, int count, const std::vector<int>& skin_index_of_joint,
                           std::map<std::string, int>& attributes) {
  auto influences_of = [&](const int v) -> const std::vector<Influence>& {
    return !as_read.empty() && !as_read[v].empty() ? as_read[v] : skin.influences[v];
  };
  size_t max_infl = 1;
  for (int v = first; v < first + count; ++v) max_infl = std::max(max_infl, influences_of(v).size());
  const int sets = static_cast<int>((max_infl + 3) / 4);
  const bool wide = skin_index_of_joint.size() > 255;
  for (int s = 0; s < sets; ++s) {
    std::vector<uint8_t> j8;
    std::vector<uint16_t> j16;
    std::vector<float> wts(static_cast<size_t>(count) * 4, 0.0f);
    (wide ? j16.resize(count * 4) : j8.resize(count * 4));
    for (int v = 0; v < count; ++v) {
      const auto& infl = influences_of(first + v);
      for (int k = 0; k < 4; ++k) {
        const size_t i = s * 4 + k;
        if (i >= infl.size()) continue;
        const int sj = skin_index_of_joint[infl[i].joint];
        if (wide) j16[v * 4 + k] = static_cast<uint16_t>(sj);
        else j8[v * 4 + k] = static_cast<uint8_t>(sj);
        wts[v * 4 + k] = static_cast<float>(infl[i].weight);
      }
    }
    const int ja = wide ? w.add_accessor(j16, count, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                         TINYGLTF_TYPE_VEC4, TINYGLTF_TARGET_ARRAY_BUFFER, false)
                        : w.add_accessor(j8, count, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                         TINYGLTF_TYPE_VEC4, TINYGLTF_TARGET_ARRAY_BUFFER, false);
    const int wa = w.add_accessor(wts, count, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4,
                                  TINYGLTF_TARGET_ARRAY_BUFFER, false);
    attributes["JOINTS_" + std::to_string(s)] = ja;
    attributes["WEIGHTS_" + std::to_string(s)] = wa;
  }
}

int add_ibm(Writer& w, const Skeleton& sk, const std::vector<int>& joint_of_skin_index,
            const Mat4& mesh_to_world) {
  std::vector<float> ibm;
  for (int j : joint_of_skin_index) {
    Mat4 file_ibm = sk.inverse_bind[j] * mesh_to_world;
    // glTF wants affine inverse binds: the bottom row exactly 0 0 0 1 (an
    // FBX offset matrix read by Assimp can carry 0.99999994 there).
    file_ibm.row(3) << 0, 0, 0, 1;
    for (int i = 0; i < 16; ++i) ibm.push_back(static_cast<float>(file_ibm(i % 4, i / 4)));
  }
  return w.add_accessor(ibm, static_cast<int>(joint_of_skin_index.size()),
                        TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, -1, false);
}

// Adds a sampler + channel for one track. Times are shared per unique list.
template <typename T, typename Pack>
void add_channel(Writer& w, tinygltf::Animation& anim, const Track<T>& tr, int node,
                 const char* path, std::map<std::vector<double>, int>& time_accessors, Pack pack) {
  if (tr.empty()) return;
  int input;
  auto it = time_accessors.find(tr.times);
  if (it != time_accessors.end()) {
    input = it->second;
  } else {
    std::vector<float> t(tr.times.begin(), tr.times.end());
    input = w.add_accessor(t, static_cast<int>(t.size()), TINYGLTF_COMPONENT_TYPE_FLOAT,
                           TINYGLTF_TYPE_SCALAR, -1, true);
    time_accessors[tr.times] = input;
  }
  std::vector<float> out;
  for (const T& v : tr.values) pack(v, out);
  tinygltf::AnimationSampler s;
  s.input = input;
  s.output = w.add_accessor(out, static_cast<int>(tr.values.size()), TINYGLTF_COMPONENT_TYPE_FLOAT,
                            std::is_same_v<T, Quat> ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3, -1,
                            false);
  s.interpolation = tr.interpolation == Interpolation::kStep          ? "STEP"
                    : tr.interpolation == Interpolation::kCubicSpline ? "CUBICSPLINE"
                                                                      : "LINEAR";
  anim.samplers.push_back(s);
  tinygltf::AnimationChannel c;
  c.sampler = static_cast<int>(anim.samplers.size()) - 1;
  c.target_node = node;
  c.target_path = path;
  anim.channels.push_back(c);
}

void add_tracks(Writer& w, tinygltf::Animation& anim, const JointTracks& jt, int node,
                const std::set<std::string>& skip_paths,
                std::map<std::vector<double>, int>& time_accessors) {
  auto vec3 = [](const Vec3& v, std::vector<float>& o) {
    o.insert(o.end(), {float(v.x()), float(v.y()), float(v.z())});
  };
  auto quat = [](const Quat& q, std::vector<float>& o) {
    o.insert(o.end(), {float(q.x()), float(q.y()), float(q.z()), float(q.w())});
  };
  if (!skip_paths.count("translation"))
    add_channel(w, anim, jt.translation, node, "translation", time_accessors, vec3);
  if (!skip_paths.count("rotation"))
    add_channel(w, anim, jt.rotation, node, "rotation", time_accessors, quat);
  if (!skip_paths.count("scale")) add_channel(w, anim, jt.scale, node, "scale", time_accessors, vec3);
}

Status check_model(const Character& c) {
  const Skeleton& sk = c.skeleton;
  const size_t n = sk.names.size();
  if (sk.parents.size() != n || sk.inverse_bind.size() != n || sk.stored_local.size() != n ||
      sk.root_parent_world.size() != n)
    return Status::Error(Status::Code::kBadData, "skeleton arrays differ in length");
  for (size_t i = 0; i < n; ++i)
    if (sk.parents[i] >= static_cast<int>(i))
      return Status::Error(Status::Code::kBadData, "skeleton is not in parent-first order");
  if (c.skin.influences.size() != c.mesh.positions.size())
    return Status::Error(Status::Code::kBadData, "skin and mesh differ in vertex count");
  for (const auto& infl : c.skin.influences)
    for (const Influence& in : infl)
      if (in.joint < 0 || in.joint >= static_cast<int>(n))
        return Status::Error(Status::Code::kBadData, "skin names a joint that does not exist");
  return Status::Ok();
}

Status save_new(const Character& c, const std::string& path, std::vector<std::string>& notes, std::string* bytes) {
  tinygltf::Model m;
  m.asset.version = "2.0";
  m.asset.generator = "tailrig";
  m.buffers.resize(1);
  Writer w{m};
  const Skeleton& sk = c.skeleton;
  tinygltf::Scene scene;
  // Joint nodes; roots under one node carrying root_parent_world when it is
  // not identity (e.g. an Armature scaled 0.01).
  std::vector<int> joint_node(sk.size());
  int armature = -1;
  for (int j = 0; j < sk.size(); ++j) {
    tinygltf::Node n;
    n.name = sk.names[j];
    set_node_trs(n, sk.stored_local[j]);
    joint_node[j] = static_cast<int>(m.nodes.size());
    m.nodes.push_back(n);
    if (sk.parents[j] >= 0) {
      m.nodes[joint_node[sk.parents[j]]].children.push_back(joint_node[j]);
    } else if (!sk.root_parent_world[j].isIdentity(0)) {
      if (armature < 0) {
        tinygltf::Node a;
        a.name = "Armature";
        set_node_trs(a, Transform::from_matrix(sk.root_parent_world[j]));
        armature = static_cast<int>(m.nodes.size());
        m.nodes.push_back(a);
        scene.nodes.push_back(armature);
      }
      m.nodes[armature].children.push_back(joint_node[j]);
    } else {
      scene.nodes.push_back(joint_node[j]);
    }
  }
  if (c.has_skin()) {
    std::vector<int> identity(sk.size());
    for (int j = 0; j < sk.size(); ++j) identity[j] = j;
    tinygltf::Skin skin;
    skin.joints = joint_node;
    skin.inverseBindMatrices = add_ibm(w, sk, identity, Mat4::Identity());
    m.skins.push_back(skin);
    tinygltf::Mesh mesh;
    mesh.name = "body";
    std::vector<Mesh::Primitive> prims = c.mesh.primitives;
    if (prims.empty()) prims.push_back({0, 0, 0, c.mesh.vertex_count(), "body"});
    std::vector<std::vector<uint32_t>> indices(prims.size());
    for (const auto& t : c.mesh.triangles) {
      const int p = c.mesh.source_primitive.empty() ? 0 : c.mesh.source_primitive[t[0]];
      if (p < 0 || p >= static_cast<int>(prims.size()))
        return Status::Error(Status::Code::kBadData, "triangle names a missing primitive");
      for (int k = 0; k < 3; ++k) {
        const int local = t[k] - prims[p].first_vertex;
        if (local < 0 || local >= prims[p].vertex_count)
          return Status::Error(Status::Code::kBadData, "triangle spans two primitives");
        indices[p].push_back(static_cast<uint32_t>(local));
      }
    }
    for (size_t p = 0; p < prims.size(); ++p) {
      tinygltf::Primitive prim;
      prim.mode = TINYGLTF_MODE_TRIANGLES;
      std::vector<float> pos;
      for (int v = prims[p].first_vertex; v < prims[p].first_vertex + prims[p].vertex_count; ++v)
        for (int k = 0; k < 3; ++k) pos.push_back(static_cast<float>(c.mesh.positions[v][k]));
      prim.attributes["POSITION"] =
          w.add_accessor(pos, prims[p].vertex_count, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3,
                         TINYGLTF_TARGET_ARRAY_BUFFER, true);
      write_skin_attributes(w, c.skin, {}, prims[p].first_vertex, prims[p].vertex_count, identity,
                            prim.attributes);
      prim.indices = w.add_accessor(indices[p], static_cast<int>(indices[p].size()),
                                    TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                                    TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER, false);
      mesh.primitives.push_back(prim);
    }
    m.meshes.push_back(mesh);
    tinygltf::Node mesh_node;
    mesh_node.name = "body";
    mesh_node.mesh = 0;
    mesh_node.skin = 0;
    scene.nodes.push_back(static_cast<int>(m.nodes.size()));
    m.nodes.push_back(mesh_node);
  }
  for (const Clip& clip : c.clips) {
    tinygltf::Animation anim;
    anim.name = clip.name;
    std::map<std::vector<double>, int> times;
    for (const JointTracks& jt : clip.tracks)
      if (jt.joint >= 0 && jt.joint < sk.size()) add_tracks(w, anim, jt, joint_node[jt.joint], {}, times);
    if (!anim.channels.empty()) m.animations.push_back(anim);
  }
  m.scenes.push_back(scene);
  m.defaultScene = 0;
  write_collider_extras(m, joint_node, c, notes);
  Status written = gltf_doc::write_glb(m, path, notes, bytes);
  written.notes = std::move(notes);
  return written;
}

// Joint nodes of the loaded skins that the model no longer has as joints
// (rig::remove_joints): their animation channels are stale.
std::set<int> removed_joint_nodes(const GltfSource& src, const std::vector<int>& joint_node) {
  std::set<int> was, now(joint_node.begin(), joint_node.end());
  for (int node : src.skinned_nodes) {
    const int skin = node >= 0 && node < static_cast<int>(src.model.nodes.size()) ? src.model.nodes[node].skin : -1;
    if (skin >= 0 && skin < static_cast<int>(src.model.skins.size()))
      was.insert(src.model.skins[skin].joints.begin(), src.model.skins[skin].joints.end());
  }
  was.insert(src.joint_nodes.begin(), src.joint_nodes.end());
  std::set<int> out;
  for (int n : was)
    if (!now.count(n)) out.insert(n);
  return out;
}

// True when the document's channel holds exactly the model's track for its
// path (times, values and interpolation as read); a path the model has no
// track for counts as unchanged (nothing to replace it with).
bool channel_matches(const tinygltf::Model& m, const tinygltf::Animation& anim, const tinygltf::AnimationChannel& ch,
                     const JointTracks& jt) {
  const bool rot = ch.target_path == "rotation";
  const Track<Vec3>* v3 = ch.target_path == "translation" ? &jt.translation
                          : ch.target_path == "scale"     ? &jt.scale
                                                          : nullptr;
  if (!rot && !v3) return true;
  const std::vector<double>& times = rot ? jt.rotation.times : v3->times;
  if (times.empty()) return true;
  if (ch.sampler < 0 || ch.sampler >= static_cast<int>(anim.samplers.size())) return false;
  const tinygltf::AnimationSampler& s = anim.samplers[ch.sampler];
  const Interpolation interp = rot ? jt.rotation.interpolation : v3->interpolation;
  const std::string want = interp == Interpolation::kStep ? "STEP" : interp == Interpolation::kCubicSpline ? "CUBICSPLINE" : "LINEAR";
  if ((s.interpolation.empty() ? std::string("LINEAR") : s.interpolation) != want) return false;
  std::vector<double> doc_t, doc_v;
  int tc = 0, vc = 0;
  std::string err;
  if (!read_accessor(m, s.input, doc_t, tc, err) || !read_accessor(m, s.output, doc_v, vc, err)) return false;
  auto same = [](double a, double b) { return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(a)); };
  if (doc_t.size() != times.size()) return false;
  for (size_t k = 0; k < times.size(); ++k)
    if (!same(doc_t[k], times[k])) return false;
  std::vector<double> vals;
  if (rot)
    for (const Quat& q : jt.rotation.values) vals.insert(vals.end(), {q.x(), q.y(), q.z(), q.w()});
  else
    for (const Vec3& p : v3->values) vals.insert(vals.end(), {p.x(), p.y(), p.z()});
  if (doc_v.size() != vals.size()) return false;
  for (size_t k = 0; k < vals.size(); ++k)
    if (!same(doc_v[k], vals[k])) return false;
  return true;
}

// Samplers no channel uses are removed (channels re-indexed), then
// animations left without channels (glTF requires at least one).
void drop_unused_samplers(tinygltf::Model& m) {
  for (auto& anim : m.animations) {
    std::vector<int> map(anim.samplers.size(), -1);
    std::vector<tinygltf::AnimationSampler> kept;
    for (auto& ch : anim.channels) {
      if (ch.sampler < 0 || ch.sampler >= static_cast<int>(map.size())) continue;
      if (map[ch.sampler] < 0) map[ch.sampler] = static_cast<int>(kept.size()), kept.push_back(anim.samplers[ch.sampler]);
      ch.sampler = map[ch.sampler];
    }
    anim.samplers = std::move(kept);
  }
  std::erase_if(m.animations, [](const tinygltf::Animation& a) { return a.channels.empty(); });
}

// The joint order of the written skin, both ways.
struct SkinOrder {
  std::vector<int> joint_of_skin_index;  // skin index -> skeleton joint
  std::vector<int> skin_index_of_joint;  // skeleton joint -> skin index
};

// Step of save_in_place: new nodes for the appended joints; returns every joint's node.
std::vector<int> append_joint_nodes(const Skeleton& sk, const std::vector<int>& loaded_joint_nodes,
                                    tinygltf::Model& m) {
  const int loaded = static_cast<int>(loaded_joint_nodes.size());
  std::vector<int> joint_node(loaded_joint_nodes);
  for (int j = loaded; j < sk.size(); ++j) {
    tinygltf::Node n;
    n.name = sk.names[j];
    set_node_trs(n, sk.stored_local[j]);
    const int id = static_cast<int>(m.nodes.size());
    m.nodes.push_back(n);
    joint_node.push_back(id);
    if (sk.parents[j] >= 0) {
      m.nodes[joint_node[sk.parents[j]]].children.push_back(id);
    } else {
      if (m.scenes.empty()) m.scenes.emplace_back();
      m.scenes[std::max(0, m.defaultScene)].nodes.push_back(id);
    }
  }
  return joint_node;
}

// Step: the order of the one skin for the whole skeleton, first skin's joints first.
SkinOrder merged_skin_order(const tinygltf::Model& m, const int first_skin, const std::vector<int>& joint_node,
                            const int joint_count) {
  // The first skin's joints keep their indices (primitives we did not load
  // may still use them), others follow.
  SkinOrder order;
  std::vector<int>& skin_order = order.joint_of_skin_index;
  std::vector<int>& skin_index_of_joint = order.skin_index_of_joint;
  skin_index_of_joint.assign(joint_count, -1);
  if (first_skin >= 0)
    for (int node : m.skins[first_skin].joints) {
      const auto it = std::find(joint_node.begin(), joint_node.end(), node);
      if (it == joint_node.end()) continue;  // removed joint: its node stays, out of the skin
      const int j = static_cast<int>(it - joint_node.begin());
      skin_index_of_joint[j] = static_cast<int>(skin_order.size());
      skin_order.push_back(j);
    }
  for (int j = 0; j < joint_count; ++j)
    if (skin_index_of_joint[j] < 0) {
      skin_index_of_joint[j] = static_cast<int>(skin_order.size());
      skin_order.push_back(j);
    }
  return order;
}

// Step: what gets replaced detached (loaded primitives' JOINTS/WEIGHTS, the first skin's IBMs).
void detach_skin_data(const Mesh& mesh, const int first_skin, tinygltf::Model& m) {
  for (const Mesh::Primitive& p : mesh.primitives) {
    auto& attrs = m.meshes[p.mesh].primitives[p.primitive].attributes;
    for (auto it = attrs.begin(); it != attrs.end();)
      it = (it->first.rfind("JOINTS_", 0) == 0 || it->first.rfind("WEIGHTS_", 0) == 0) ? attrs.erase(it) : std::next(it);
  }
  if (first_skin >= 0) m.skins[first_skin].inverseBindMatrices = -1;
}

// Skinned nodes pointed at the first skin, or at a copy of it with their own skin's IBMs.
void point_nodes_at_merged_skin(Writer& w, const Skeleton& sk, const GltfSource& src,
                                const std::vector<int>& skin_order, const int first_skin) {
  tinygltf::Model& m = w.m;
  // Nodes whose skin baked another mesh offset (GltfSource::skin_mesh_to_world)
  // keep their vertex data, so they get a copy of the merged skin with
  // their own IBMs; all others share the first skin.
  std::map<int, int> own_skin;  // original skin -> new skin
  for (int node : src.skinned_nodes) {
    const int orig = m.nodes[node].skin;
    const auto it = src.skin_mesh_to_world.find(orig);
    if (it == src.skin_mesh_to_world.end() || orig == first_skin) {
      m.nodes[node].skin = first_skin;
      continue;
    }
    if (!own_skin.count(orig)) {
      tinygltf::Skin copy = m.skins[first_skin];
      copy.name = m.skins[orig].name;
      copy.inverseBindMatrices = add_ibm(w, sk, skin_order, it->second);
      own_skin[orig] = static_cast<int>(m.skins.size());
      m.skins.push_back(copy);
    }
    m.nodes[node].skin = own_skin[orig];
  }
}

// Skins no node uses any more removed (nodes' skin indices renumbered).
void drop_unused_skins(tinygltf::Model& m) {
  std::vector<char> skin_used(m.skins.size(), 0);
  for (const auto& n : m.nodes)
    if (n.skin >= 0 && n.skin < static_cast<int>(m.skins.size())) skin_used[n.skin] = 1;
  std::vector<int> skin_map(m.skins.size(), -1);
  std::vector<tinygltf::Skin> skins;
  for (size_t s = 0; s < m.skins.size(); ++s)
    if (skin_used[s]) skin_map[s] = static_cast<int>(skins.size()), skins.push_back(m.skins[s]);
  for (auto& n : m.nodes)
    if (n.skin >= 0) n.skin = skin_map[n.skin];
  m.skins = std::move(skins);
}

// Step: the first skin rewritten as the merged skin, with every skinned primitive's weights.
Status write_merged_skin(Writer& w, const Character& c, const std::vector<int>& joint_node, const SkinOrder& order,
                         const int first_skin) {
  tinygltf::Model& m = w.m;
  const GltfSource& src = *c.gltf;
  const Skeleton& sk = c.skeleton;
  const std::vector<int>& skin_order = order.joint_of_skin_index;
  // What the primitives the reader skipped index by (remap_unread_primitives).
  std::vector<std::vector<int>> old_joints;
  for (const tinygltf::Skin& s : m.skins) old_joints.push_back(s.joints);
  std::map<int, int> old_skin_of_node;
  for (int node : src.skinned_nodes) old_skin_of_node[node] = m.nodes[node].skin;
  tinygltf::Skin& skin = m.skins[first_skin];
  skin.joints.clear();
  for (int j : skin_order) skin.joints.push_back(joint_node[j]);
  skin.inverseBindMatrices = add_ibm(w, sk, skin_order, src.mesh_to_world);
  point_nodes_at_merged_skin(w, sk, src, skin_order, first_skin);
  const std::vector<std::vector<Influence>> as_read = gltf_weights::to_write_as_read(src, c.skin);
  for (const Mesh::Primitive& p : c.mesh.primitives)
    write_skin_attributes(w, c.skin, as_read, p.first_vertex, p.vertex_count, order.skin_index_of_joint,
                          m.meshes[p.mesh].primitives[p.primitive].attributes);
  if (Status s = remap_unread_primitives(w, c, old_joints, old_skin_of_node, joint_node, order.skin_index_of_joint);
      !s.ok())
    return s;
  drop_unused_skins(m);
  // The unused skins' IBM accessors are now orphans: prune once more.
  if (Status s = gltf_doc::prune_and_repack(m); !s.ok()) return s;
  return Status::Ok();
}

// Step: the clips into the animations; true when an existing channel was dropped or replaced.
bool write_clips_in_place(Writer& w, const Character& c, const std::vector<int>& joint_node) {
  tinygltf::Model& m = w.m;
  const GltfSource& src = *c.gltf;
  const Skeleton& sk = c.skeleton;
  // Keep every existing channel the clip still holds unchanged; rewrite
  // channels whose track the model changed (a re-bake), add channels the
  // clips gained, drop channels of joints the model removed.
  const std::set<int> removed = removed_joint_nodes(src, joint_node);
  bool edited = false;
  for (size_t ci = 0; ci < c.clips.size(); ++ci) {
    const Clip& clip = c.clips[ci];
    const bool existing = ci < static_cast<size_t>(src.animation_count) && ci < m.animations.size();
    tinygltf::Animation fresh;
    tinygltf::Animation& anim = existing ? m.animations[ci] : fresh;
    if (!existing) anim.name = clip.name;
    const size_t before = anim.channels.size();
    std::erase_if(anim.channels, [&](const tinygltf::AnimationChannel& ch) { return removed.count(ch.target_node) > 0; });
    edited |= anim.channels.size() != before;
    std::map<std::vector<double>, int> times;
    for (const JointTracks& jt : clip.tracks) {
      if (jt.joint < 0 || jt.joint >= sk.size()) continue;
      const int node = joint_node[jt.joint];
      std::set<std::string> present;
      for (auto it = anim.channels.begin(); it != anim.channels.end();) {
        if (it->target_node != node) {
          ++it;
          continue;
        }
        if (channel_matches(m, anim, *it, jt)) {
          present.insert(it->target_path);
          ++it;
        } else {
          it = anim.channels.erase(it);  // the model's track replaces it below
          edited = true;
        }
      }
      add_tracks(w, anim, jt, node, present, times);
    }
    if (!existing && !anim.channels.empty()) m.animations.push_back(anim);
  }
  return edited;
}

// Buffer bytes the merged skin and the clips will append (an estimate that
// only sizes the packed buffer's one allocation).
size_t bytes_to_append(const Character& c) {
  size_t widest = 1;
  for (const auto& infl : c.skin.influences) widest = std::max(widest, infl.size());
  const size_t sets = (widest + 3) / 4;
  size_t bytes = c.skin.influences.size() * sets * (4 * sizeof(float) + 4 * sizeof(uint16_t)) +
                 static_cast<size_t>(c.skeleton.size()) * 16 * sizeof(float);
  for (const Clip& clip : c.clips)
    for (const JointTracks& jt : clip.tracks)
      bytes += (jt.translation.times.size() + jt.rotation.times.size() + jt.scale.times.size()) * 24;
  return bytes + (size_t{1} << 16);
}

Status save_in_place(const Character& c, const std::string& path, std::vector<std::string>& notes,
                     std::string* bytes) {
  const GltfSource& src = *c.gltf;
  tinygltf::Model m = gltf_doc::copy_without_bytes(src.model);
  for (const std::string& e : m.extensionsUsed)
    if (is_compression_extension(e))
      return Status::Error(Status::Code::kUnsupported,
                           c.source_path + ": cannot rewrite a compressed document (" + e +
                               "; export it uncompressed)");
  const Skeleton& sk = c.skeleton;
  if (sk.size() < static_cast<int>(src.joint_nodes.size()))
    return Status::Error(Status::Code::kUnsupported, "joints were removed; only appending is supported");
  // Joint nodes: the loaded ones, then new nodes for appended joints; one
  // skin for the whole skeleton.
  const std::vector<int> joint_node = append_joint_nodes(sk, src.joint_nodes, m);
  const int first_skin = src.skinned_nodes.empty() ? -1 : m.nodes[src.skinned_nodes[0]].skin;
  const SkinOrder order = merged_skin_order(m, first_skin, joint_node, sk.size());
  // Detach what gets replaced, prune, then append the new data.
  detach_skin_data(c.mesh, first_skin, m);
  if (Status s = gltf_doc::prune_and_repack(m, &src.model.buffers, bytes_to_append(c)); !s.ok()) return s;
  Writer w{m};
  if (first_skin >= 0)
    if (Status s = write_merged_skin(w, c, joint_node, order, first_skin); !s.ok()) return s;
  if (write_clips_in_place(w, c, joint_node)) {
    drop_unused_samplers(m);
    if (Status s = gltf_doc::prune_and_repack(m); !s.ok()) return s;
  }
  write_collider_extras(m, joint_node, c, notes);
  Status written = gltf_doc::write_glb(m, path, notes, bytes);
  written.notes = std::move(notes);
  return written;
}

// save_glb's steps, into `*bytes` when it is given (then `path` only names
// the document in messages).
Status save_glb_to(const Character& c, const std::string& path, std::string* bytes) {
  if (Status s = check_model(c); !s.ok()) return s;
  std::vector<std::string> notes;
  if (c.gltf) return save_in_place(c, path, notes, bytes);
  // glTF is metres: a source that declares other units (an FBX in
  // centimetres) is written in metres, so viewers show it at its size (a
  // scale node above the joints would do in theory, but Blender's importer
  // then shows the rest mesh at the wrong size). A guessed unit is only a
  // guess: written as it is.
  if (c.unit_declared && c.meters_per_unit != 1.0) {
    Character metric = c;
    express_in_metres(metric);
    return save_new(metric, path, notes, bytes);
  }
  return save_new(c, path, notes, bytes);
}

}  // namespace

Status save_glb(const Character& c, const std::string& path) {
  if (same_file(path, c.source_path))
    return Status::Error(Status::Code::kIoError,
                         path + ": is the input file; refusing to overwrite it (choose another --out)");
  return save_glb_to(c, path, nullptr);
}

Status save_glb_bytes(const Character& c, std::string& bytes) { return save_glb_to(c, "(GLB in memory)", &bytes); }

}  // namespace rig
