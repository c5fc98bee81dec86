// Tiny skeletons for rig tests: joints given by name, parent and bind world
// transform; roles assigned from the names.
#pragma once

#include <string>
#include <vector>

#include "rig/model/model.h"
#include "rig/anatomy/roles.h"

namespace rig::test {

struct JointSpec {
  std::string name;
  int parent;
  Vec3 position;                     // bind world
  Quat rotation = Quat::Identity();  // bind world
};

inline Skeleton make_skeleton(const std::vector<JointSpec>& joints) {
  Skeleton sk;
  for (const JointSpec& j : joints) {
    sk.names.push_back(j.name);
    sk.parents.push_back(j.parent);
    Transform t;
    t.translation = j.position;
    t.rotation = j.rotation;
    sk.bind_world.push_back(t.matrix());
    sk.inverse_bind.push_back(sk.bind_world.back().inverse());
    sk.root_parent_world.push_back(Mat4::Identity());
  }
  for (size_t i = 0; i < joints.size(); ++i) {
    const int p = sk.parents[i];
    const Mat4 parent = p < 0 ? Mat4::Identity() : sk.bind_world[p];
    sk.neutral_local.push_back(Transform::from_matrix(parent.inverse() * sk.bind_world[i]));
  }
  sk.stored_local = sk.neutral_local;
  assign_roles(sk);
  return sk;
}

// Joints of a Mixamo-named biped in T-pose (identity bind rotations); legs
// 0.9 long: hips 0, spine 1, head 2, left thigh/shin/foot 3-5, right 6-8.
inline std::vector<JointSpec> mixamo_biped_joints() {
  return {
      {"mixamorig:Hips", -1, {0, 1.0, 0}},
      {"mixamorig:Spine", 0, {0, 1.2, 0}},
      {"mixamorig:Head", 1, {0, 1.6, 0}},
      {"mixamorig:LeftUpLeg", 0, {0.1, 0.95, 0}},
      {"mixamorig:LeftLeg", 3, {0.1, 0.5, 0}},
      {"mixamorig:LeftFoot", 4, {0.1, 0.05, 0}},
      {"mixamorig:RightUpLeg", 0, {-0.1, 0.95, 0}},
      {"mixamorig:RightLeg", 6, {-0.1, 0.5, 0}},
      {"mixamorig:RightFoot", 7, {-0.1, 0.05, 0}},
  };
}

inline Skeleton mixamo_biped() { return make_skeleton(mixamo_biped_joints()); }

// One vertex at `p` skinned to `joint` alone; returns its index.
inline int add_rigid_vertex(Character& c, const Vec3& p, int joint) {
  c.mesh.positions.push_back(p);
  c.skin.influences.push_back({{joint, 1.0}});
  return c.mesh.vertex_count() - 1;
}

// Feet skin under the Mixamo biped's feet (joints 5 and 8), so the
// character has a body to stand on.
inline void add_feet_skin(Character& c) {
  add_rigid_vertex(c, {0.1, 0.0, 0.0}, 5);
  add_rigid_vertex(c, {-0.1, 0.0, 0.0}, 8);
}

// A 2 s clip of joint 0 (the hips): at y 1 (bind) at 0 and 2 s, at `low_y`
// at 1 s.
inline Clip hips_dip_clip(double low_y) {
  Clip clip;
  clip.duration = 2.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 1.0, 2.0}, {Vec3(0, 1.0, 0), Vec3(0, low_y, 0), Vec3(0, 1.0, 0)}};
  clip.tracks = {hips};
  return clip;
}

}  // namespace rig::test
