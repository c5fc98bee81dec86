// Colliders as glTF extras on joint nodes (see gltf_colliders.h).
#include "rig/io/gltf/gltf_colliders.h"

#include <cmath>

namespace rig {
namespace {

using tinygltf::Value;

// A joint's bind scale: how many bind-space units one unit of its own space
// is (the cube root of the volume scale; joints are uniformly scaled in
// every rig we read, and a shear would not keep a capsule a capsule anyway).
double joint_scale(const Mat4& bind_world) {
  const double det = std::abs(bind_world.block<3, 3>(0, 0).determinant());
  return det > 0 && std::isfinite(det) ? std::cbrt(det) : 0.0;
}

bool read_number(const Value& o, const char* key, double& out) {
  if (!o.Has(key) || !o.Get(key).IsNumber()) return false;
  out = o.Get(key).GetNumberAsDouble();
  return std::isfinite(out);
}

bool read_point(const Value& o, const char* key, Vec3& out) {
  if (!o.Has(key) || !o.Get(key).IsArray() || o.Get(key).ArrayLen() != 3) return false;
  for (int k = 0; k < 3; ++k) {
    const Value& v = o.Get(key).Get(k);
    if (!v.IsNumber() || !std::isfinite(v.GetNumberAsDouble())) return false;
    out[k] = v.GetNumberAsDouble();
  }
  return true;
}

Value point(const Vec3& p) { return Value(Value::Array{Value(p.x()), Value(p.y()), Value(p.z())}); }

// The node's extras without a stored collider (null when nothing else is left
// of an object that only held one).
void drop_collider(Value& extras) {
  if (!extras.IsObject() || !extras.Has(kColliderExtrasKey)) return;
  Value::Object o = extras.Get<Value::Object>();
  o.erase(kColliderExtrasKey);
  extras = o.empty() ? Value() : Value(std::move(o));
}

}  // namespace

std::vector<JointCapsule> read_collider_extras(const std::string& path, const tinygltf::Model& m,
                                               const std::vector<int>& joint_nodes, const Skeleton& sk,
                                               std::vector<std::string>& notes) {
  std::vector<JointCapsule> out;
  int malformed = 0;
  for (size_t j = 0; j < joint_nodes.size() && static_cast<int>(j) < sk.size(); ++j) {
    const int node = joint_nodes[j];
    if (node < 0 || node >= static_cast<int>(m.nodes.size())) continue;
    const Value& extras = m.nodes[static_cast<size_t>(node)].extras;
    if (!extras.IsObject() || !extras.Has(kColliderExtrasKey)) continue;
    const Value& o = extras.Get(kColliderExtrasKey);
    JointCapsule k;
    k.joint = static_cast<int>(j);
    double version = 0;
    Vec3 a = Vec3::Zero(), b = Vec3::Zero();
    const double s = joint_scale(sk.bind_world[j]);
    const bool ok = o.IsObject() && read_number(o, "version", version) && version == kColliderExtrasVersion &&
                    o.Has("shape") && o.Get("shape").IsString() && o.Get("shape").Get<std::string>() == "capsule" &&
                    read_point(o, "a", a) && read_point(o, "b", b) && read_number(o, "radius_a", k.radius_a) &&
                    read_number(o, "radius_b", k.radius_b) && k.radius_a >= 0 && k.radius_b >= 0 && s > 0;
    if (!ok) {
      ++malformed;
      continue;
    }
    k.a = (sk.bind_world[j] * a.homogeneous()).head<3>();
    k.b = (sk.bind_world[j] * b.homogeneous()).head<3>();
    k.radius_a *= s;
    k.radius_b *= s;
    if (!k.a.allFinite() || !k.b.allFinite() || !std::isfinite(k.radius_a) || !std::isfinite(k.radius_b)) {
      ++malformed;
      continue;
    }
    out.push_back(k);
  }
  if (malformed > 0)
    notes.push_back(path + ": " + std::to_string(malformed) + " joint" + (malformed == 1 ? "'s " : "s' ") +
                    kColliderExtrasKey + " not read (not a version " + std::to_string(kColliderExtrasVersion) +
                    " capsule with finite ends and radii >= 0)");
  return out;
}

void write_collider_extras(tinygltf::Model& m, const std::vector<int>& joint_node, const Character& c,
                           std::vector<std::string>& notes) {
  for (tinygltf::Node& n : m.nodes) drop_collider(n.extras);
  const Skeleton& sk = c.skeleton;
  int refused = 0;
  for (const JointCapsule& k : c.colliders) {
    if (k.joint < 0 || k.joint >= sk.size() || k.joint >= static_cast<int>(joint_node.size())) continue;
    const int node = joint_node[static_cast<size_t>(k.joint)];
    if (node < 0 || node >= static_cast<int>(m.nodes.size())) continue;
    const double s = joint_scale(sk.bind_world[static_cast<size_t>(k.joint)]);
    const Mat4& inv = sk.inverse_bind[static_cast<size_t>(k.joint)];
    const Vec3 a = (inv * k.a.homogeneous()).head<3>(), b = (inv * k.b.homogeneous()).head<3>();
    const double ra = s > 0 ? k.radius_a / s : -1, rb = s > 0 ? k.radius_b / s : -1;
    if (!a.allFinite() || !b.allFinite() || !std::isfinite(ra) || !std::isfinite(rb) || ra < 0 || rb < 0) continue;
    Value& extras = m.nodes[static_cast<size_t>(node)].extras;
    if (extras.Type() != tinygltf::NULL_TYPE && !extras.IsObject()) {
      ++refused;  // someone's extras that are no object: not ours to replace
      continue;
    }
    Value::Object o = extras.IsObject() ? extras.Get<Value::Object>() : Value::Object{};
    o[kColliderExtrasKey] = Value(Value::Object{{"version", Value(kColliderExtrasVersion)},
                                                {"shape", Value(std::string("capsule"))},
                                                {"a", point(a)},
                                                {"b", point(b)},
                                                {"radius_a", Value(ra)},
                                                {"radius_b", Value(rb)}});
    extras = Value(std::move(o));
  }
  if (refused > 0)
    notes.push_back(std::to_string(refused) + " collider" + (refused == 1 ? "" : "s") +
                    " not stored: the joint node's extras are not a JSON object");
}

}  // namespace rig
