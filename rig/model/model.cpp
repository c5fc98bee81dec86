#include <algorithm>

#include "rig/model/model.h"

namespace rig {

Mat4 Transform::matrix() const {
  Eigen::Affine3d a = Eigen::Affine3d::Identity();
  a.translate(translation);
  a.rotate(rotation.normalized());
  a.scale(scale);
  return a.matrix();
}

Transform Transform::from_matrix(const Mat4& m) {
  Transform t;
  t.translation = m.block<3, 1>(0, 3);
  Eigen::Matrix3d l = m.block<3, 3>(0, 0);
  Vec3 s(l.col(0).norm(), l.col(1).norm(), l.col(2).norm());
  if (l.determinant() < 0) s.x() = -s.x();
  for (int i = 0; i < 3; ++i) {
    if (s[i] != 0.0) l.col(i) /= s[i];
  }
  // Re-orthonormalise so rounding in the source matrix cannot leak into the
  // quaternion (a slightly sheared basis gives a non-unit quaternion).
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(l, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d r = svd.matrixU() * svd.matrixV().transpose();
  if (r.determinant() < 0) r = -r;  // cannot happen after the sign fix; keep r proper
  t.rotation = Quat(r).normalized();
  t.scale = s;
  return t;
}

int Skeleton::find(const std::string& name) const {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

std::vector<int> Skeleton::children(int joint) const {
  std::vector<int> out;
  for (int i = 0; i < size(); ++i) {
    if (parents[i] == joint) out.push_back(i);
  }
  return out;
}

const char* format_name(FileFormat f) {
  switch (f) {
    case FileFormat::kGlb: return "glb";
    case FileFormat::kGltf: return "gltf";
    case FileFormat::kFbx: return "fbx";
    case FileFormat::kBvh: return "bvh";
    case FileFormat::kDae: return "dae";
    case FileFormat::kFixture: return "fixture";
    case FileFormat::kOther: break;
  }
  return "other";
}

}  // namespace rig
