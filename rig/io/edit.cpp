#include "rig/io/edit.h"

#include <memory>
#include <string>
#include <vector>

#include "rig/io/gltf/gltf_source.h"

namespace rig {

Status remove_joints(Character& c, std::span<const int> joints) {
  Skeleton& sk = c.skeleton;
  const int n = sk.size();
  std::vector<char> gone(n, 0);
  for (int j : joints) {
    if (j < 0 || j >= n) return Status::Error(Status::Code::kBadData, "no joint " + std::to_string(j) + " to remove");
    gone[j] = 1;
  }
  for (int j = 0; j < n; ++j)
    if (!gone[j] && sk.parents[j] >= 0 && gone[sk.parents[j]])
      return Status::Error(Status::Code::kBadData, "cannot remove '" + sk.names[sk.parents[j]] +
                                                       "' without its child '" + sk.names[j] + "'");
  for (const auto& list : c.skin.influences)
    for (const Influence& in : list)
      if (in.joint >= 0 && in.joint < n && gone[in.joint] && in.weight != 0.0)
        return Status::Error(Status::Code::kBadData,
                             "joint '" + sk.names[in.joint] + "' still carries skin weight");

  if (c.gltf && static_cast<int>(c.gltf->joint_nodes.size()) != n)
    return Status::Error(Status::Code::kBadData, "glTF joint map out of step with the skeleton");

  std::vector<int> new_index(n, -1);
  int kept = 0;
  for (int j = 0; j < n; ++j)
    if (!gone[j]) new_index[j] = kept++;
  // Parent-first order is preserved: a kept joint's parent is kept and earlier.
  auto keep = [&](auto& v) {
    if (static_cast<int>(v.size()) != n) return;
    int k = 0;
    for (int j = 0; j < n; ++j)
      if (!gone[j]) v[k++] = v[j];
    v.resize(k);
  };
  keep(sk.names);
  keep(sk.parents);
  keep(sk.roles);
  keep(sk.bind_world);
  keep(sk.inverse_bind);
  keep(sk.neutral_local);
  keep(sk.stored_local);
  keep(sk.root_parent_world);
  for (int& p : sk.parents) p = p >= 0 ? new_index[p] : -1;

  for (auto& list : c.skin.influences) {
    std::vector<Influence> next;
    for (const Influence& in : list)
      if (in.joint >= 0 && in.joint < n && !gone[in.joint]) next.push_back({new_index[in.joint], in.weight});
    list = std::move(next);
  }
  for (Clip& clip : c.clips) {
    std::vector<JointTracks> next;
    for (JointTracks& t : clip.tracks)
      if (t.joint >= 0 && t.joint < n && !gone[t.joint]) {
        t.joint = new_index[t.joint];
        next.push_back(std::move(t));
      }
    clip.tracks = std::move(next);
  }
  // A collider goes with its bone.
  std::erase_if(c.colliders, [&](const JointCapsule& k) { return k.joint < 0 || k.joint >= n || gone[k.joint]; });
  for (JointCapsule& k : c.colliders) k.joint = new_index[k.joint];
  if (c.gltf) {
    auto src = std::make_shared<GltfSource>(*c.gltf);
    keep(src->joint_nodes);
    c.gltf = std::move(src);
  }
  return Status::Ok();
}

}  // namespace rig
