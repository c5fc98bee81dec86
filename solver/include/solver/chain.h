// ChainDesc: the tail chain set up once from plain rig data (SPEC §4).
// Finds Tail_1..Tail_N (+ optional Tail_End, any "prefix:" / "prefix_" before
// "Tail_"), reconstructs neutral local transforms from inverse bind matrices
// (never from a loaded pose) and precomputes the corrected rest directions
// (carry, centred rest arc, restCurve beta).
#pragma once

#include <Eigen/Geometry>

#include <span>
#include <string>
#include <vector>

#include "solver/params.h"

namespace solver {

// Plain rig data in; nothing here is kept after build_chain().
struct ChainRigInput {
  // Joint names, index order = joint order. Size J.
  std::span<const std::string> names;
  // Parent joint index per joint, -1 for roots; topological (parent < child).
  // Size J.
  std::span<const int> parents;
  // Inverse bind matrix per joint (bind space -> joint space), 4x4, rig
  // units. Size J. Bind world W_i = inverse_bind[i]^-1.
  std::span<const Eigen::Matrix4d> inverse_bind;
  // Hips joint index; -1 = find by name (last name segment "Hips"/"Pelvis",
  // case-insensitive), falling back to the tail root's parent.
  int hips = -1;
  // Optional explicit tail bones, root first (overrides the name search).
  std::span<const int> tail_joints = {};
  // Optional explicit end helper joint (with tail_joints), -1 = none.
  int tail_end = -1;
  // Without an end helper the last segment continues the incoming tangent
  // with this length relative to the incoming segment, dimensionless.
  double end_length_ratio = 1.0;
};

struct ChainStatus {
  enum class Code { kOk, kNoTail, kBrokenChain, kBadInput };
  Code code = Code::kOk;
  std::string message;  // one line
  bool ok() const { return code == Code::kOk; }
};

// One link per tail bone, index i = 0..N-1 from the hips. Link i goes from
// the head of bone i to the head of bone i+1 (or Tail_End, or the synthesised
// end point); its particle is that tip.
struct ChainLink {
  int joint = -1;  // rig joint index of this tail bone
  // Neutral local transform (parent-relative, from inverse bind matrices).
  Eigen::Vector3d neutral_translation = Eigen::Vector3d::Zero();  // rig units
  Eigen::Quaterniond neutral_rotation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d neutral_scale = Eigen::Vector3d::Ones();
  // Unit direction head -> tip in the bone's own local frame (bind).
  Eigen::Vector3d bind_dir_local = Eigen::Vector3d::UnitY();
  // Link length, metres.
  double length = 0.0;
  // Corrected rest direction r_i in the parent's corrected rest frame, unit.
  Eigen::Vector3d rest_dir = -Eigen::Vector3d::UnitY();
  // Local rotation of this bone in the corrected rest (carry) pose.
  Eigen::Quaterniond rest_local_rotation = Eigen::Quaterniond::Identity();
  // A_i: parent's corrected rest frame -> hips frame.
  Eigen::Quaterniond parent_to_hips = Eigen::Quaterniond::Identity();
  // Derived from the fields above for step() (not inputs; build_chain and
  // refresh_derived set them):
  // A_i as a rotation matrix, and the bind direction in the parent's frame
  // (neutral_rotation * bind_dir_local), unit.
  Eigen::Matrix3d parent_to_hips_matrix = Eigen::Matrix3d::Identity();
  Eigen::Vector3d bind_dir_parent = Eigen::Vector3d::UnitY();
};

struct ChainDesc {
  std::vector<ChainLink> links;  // size N >= 1
  int hips = -1;                 // rig joint index of the hips
  int root_parent = -1;          // rig joint index of Tail_1's parent
  int tail_end = -1;             // rig joint index of Tail_End, -1 if none
  // Root parent bind frame relative to the hips bind frame (rig units,
  // rotation part only, scale removed). Bones between hips and the tail
  // root are assumed to stay in their neutral pose.
  Eigen::Quaterniond hips_to_root_parent_rot = Eigen::Quaterniond::Identity();
  // Tail root head (head of link 0) in the hips' local frame, metres (the
  // hips' bind scale is removed, metres per unit applied).
  Eigen::Vector3d root_head_in_hips = Eigen::Vector3d::Zero();
  // Hips frame (X lateral, Y up, Z forward) expressed in the hips bone's local
  // frame: hips_frame_world = hips_world_rotation * hips_frame_local.
  Eigen::Quaterniond hips_frame_local = Eigen::Quaterniond::Identity();
  double meters_per_unit = 1.0;
  double total_length = 0.0;  // metres, sum of link lengths

  int size() const { return static_cast<int>(links.size()); }
};

// How far a tail modelled held up keeps its authored curve, 0..1, from its
// end's rise above its root over its length (hips frame, bind): 0 up to
// 0.1 (hanging and streaming tails end at or below their root), 1 from 0.2
// (a curl over the back). build_chain keeps the authored curve that far.
double raised_tail_blend(double rise_over_length);

// Finds the tail bones and builds the chain. Returns a status with a message
// on bad input (no tail bones, broken chain, sizes differ); no exceptions.
// Reads the [build] fields of `params` (carry, rest_curve, axes, units).
ChainStatus build_chain(const ChainRigInput& in, const ChainParams& params, ChainDesc& out);

// Recomputes each link's derived fields (parent_to_hips_matrix,
// bind_dir_parent) from its own: step() and solver::Batch read only the
// derived copies, so a caller that edits a built chain's links (an engine
// retuning a rest frame, a tool swapping a bind rotation) calls this after.
// build_chain() ends with it.
void refresh_derived(ChainDesc& chain);

// Name helpers (exposed for tests): returns N >= 1 for "<prefix>Tail_N",
// 0 for "<prefix>Tail_End", -1 otherwise; `prefix` receives the prefix. A
// non-empty prefix must end with ':', '_', '|', '.' or '-' ("PonyTail_1" is
// not a tail bone).
int parse_tail_name(const std::string& name, std::string* prefix);

}  // namespace solver
