// Chain setup from plain rig data (SPEC §4: tail bones by name, neutral local
// transforms from inverse bind matrices, missing Tail_End, carry and the
// centred rest arc with restCurve beta).
#include "solver/chain.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "math.h"

namespace solver {
namespace {

using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

ChainStatus fail(ChainStatus::Code code, std::string msg) { return {code, std::move(msg)}; }

bool is_ancestor(std::span<const int> parents, int ancestor, int joint) {
  for (int j = joint; j >= 0; j = parents[static_cast<size_t>(j)]) {
    if (j == ancestor) return true;
  }
  return false;
}

bool is_hips_name(const std::string& name) {
  std::string n = lower(name);
  const size_t cut = n.find_last_of(":|");
  if (cut != std::string::npos) n = n.substr(cut + 1);
  if (n == "hips" || n == "hip" || n == "pelvis") return true;
  // "mixamorig_Hips", "Character1_Hips", "J_Bip_C_Hips", "DEF-pelvis"
  for (const char* s : {"hips", "pelvis"}) {
    const std::string suf = s;
    if (n.size() > suf.size() && n.compare(n.size() - suf.size(), suf.size(), suf) == 0) {
      const char before = n[n.size() - suf.size() - 1];
      if (before == '_' || before == '-' || before == '.' || before == ' ') return true;
    }
  }
  return false;
}

}  // namespace

int parse_tail_name(const std::string& name, std::string* prefix) {
  const std::string l = lower(name);
  const size_t at = l.rfind("tail_");
  if (at == std::string::npos) return -1;
  if (at > 0) {
    const char sep = name[at - 1];
    if (sep != ':' && sep != '_' && sep != '|' && sep != '.' && sep != '-') return -1;
  }
  const std::string rest = l.substr(at + 5);
  if (prefix) *prefix = name.substr(0, at);
  if (rest == "end") return 0;
  if (rest.empty() || rest.size() > 6) return -1;
  for (char ch : rest) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return -1;
  }
  const int n = std::stoi(rest);
  return n >= 1 ? n : -1;
}

ChainStatus build_chain(const ChainRigInput& in, const ChainParams& params, ChainDesc& out) {
  out = ChainDesc{};
  const size_t joint_count = in.names.size();
  if (joint_count == 0) return fail(ChainStatus::Code::kBadInput, "empty skeleton");
  if (in.parents.size() != joint_count || in.inverse_bind.size() != joint_count) {
    return fail(ChainStatus::Code::kBadInput,
                "names, parents and inverse_bind sizes differ");
  }
  const int jc = static_cast<int>(joint_count);
  for (int j = 0; j < jc; ++j) {
    const int p = in.parents[static_cast<size_t>(j)];
    if (p >= j || p < -1) {
      return fail(ChainStatus::Code::kBadInput,
                  "parents not topological at joint " + std::to_string(j));
    }
    if (!in.inverse_bind[static_cast<size_t>(j)].allFinite()) {
      return fail(ChainStatus::Code::kBadInput, "non-finite inverse bind matrix at joint " +
                                                    in.names[static_cast<size_t>(j)]);
    }
  }
  if (!(params.meters_per_unit > 0.0)) {
    return fail(ChainStatus::Code::kBadInput, "meters_per_unit must be > 0");
  }

  // --- Tail bones ------------------------------------------------------------
  std::vector<int> bones;
  int end = -1;
  if (!in.tail_joints.empty()) {
    for (int j : in.tail_joints) {
      if (j < 0 || j >= jc) return fail(ChainStatus::Code::kBadInput, "tail joint out of range");
      bones.push_back(j);
    }
    end = in.tail_end;
    if (end >= jc) return fail(ChainStatus::Code::kBadInput, "tail end out of range");
  } else {
    std::string chosen;
    bool have_prefix = false;
    // Prefix of the first joint named <prefix>Tail_1.
    for (int j = 0; j < jc && !have_prefix; ++j) {
      std::string pre;
      if (parse_tail_name(in.names[static_cast<size_t>(j)], &pre) == 1) {
        chosen = pre;
        have_prefix = true;
      }
    }
    if (!have_prefix) {
      return fail(ChainStatus::Code::kNoTail, "no Tail_1 bone found");
    }
    std::map<int, int> by_number;
    for (int j = 0; j < jc; ++j) {
      std::string pre;
      const int n = parse_tail_name(in.names[static_cast<size_t>(j)], &pre);
      if (n < 0 || pre != chosen) continue;
      if (n == 0) {
        if (end >= 0) return fail(ChainStatus::Code::kBadInput, "two Tail_End bones");
        end = j;
        continue;
      }
      if (by_number.count(n)) {
        return fail(ChainStatus::Code::kBadInput, "duplicate bone " + in.names[static_cast<size_t>(j)]);
      }
      by_number[n] = j;
    }
    int expect = 1;
    for (const auto& [n, j] : by_number) {
      if (n != expect) {
        return fail(ChainStatus::Code::kBrokenChain,
                    "tail bones not contiguous: " + chosen + "Tail_" + std::to_string(expect) +
                        " missing");
      }
      bones.push_back(j);
      ++expect;
    }
  }
  const int n_links = static_cast<int>(bones.size());
  for (int i = 1; i < n_links; ++i) {
    if (in.parents[static_cast<size_t>(bones[static_cast<size_t>(i)])] !=
        bones[static_cast<size_t>(i - 1)]) {
      return fail(ChainStatus::Code::kBrokenChain,
                  "broken chain: parent of " + in.names[static_cast<size_t>(bones[static_cast<size_t>(i)])] +
                      " is not " + in.names[static_cast<size_t>(bones[static_cast<size_t>(i - 1)])]);
    }
  }
  if (end >= 0 && in.parents[static_cast<size_t>(end)] != bones.back()) {
    return fail(ChainStatus::Code::kBrokenChain,
                "broken chain: parent of " + in.names[static_cast<size_t>(end)] +
                    " is not the last tail bone");
  }
  const int root_parent = in.parents[static_cast<size_t>(bones[0])];
  if (root_parent < 0) {
    return fail(ChainStatus::Code::kBrokenChain, "tail root has no parent");
  }

  // --- Hips --------------------------------------------------------------------
  int hips = in.hips;
  if (hips >= jc) return fail(ChainStatus::Code::kBadInput, "hips index out of range");
  if (hips < 0) {
    for (int j = 0; j < jc; ++j) {
      if (is_hips_name(in.names[static_cast<size_t>(j)]) &&
          is_ancestor(in.parents, j, root_parent)) {
        hips = j;
        break;
      }
    }
    if (hips < 0) hips = root_parent;  // tail hangs off an unnamed pelvis
  }
  if (!is_ancestor(in.parents, hips, root_parent)) {
    return fail(ChainStatus::Code::kBrokenChain, "hips is not an ancestor of the tail root");
  }

  // --- Bind world and neutral locals from inverse bind matrices ---------------
  auto bind_world = [&](int j) -> Matrix4d { return in.inverse_bind[static_cast<size_t>(j)].inverse(); };
  const Matrix4d w_hips = bind_world(hips);
  const Matrix4d w_root_parent = bind_world(root_parent);
  const Quaterniond r_hips = detail::rotation_of(w_hips.topLeftCorner<3, 3>());
  const Quaterniond r_root_parent = detail::rotation_of(w_root_parent.topLeftCorner<3, 3>());

  std::vector<Matrix4d> w(static_cast<size_t>(n_links));
  std::vector<Vector3d> heads(static_cast<size_t>(n_links) + 1);  // bind world, rig units
  for (int i = 0; i < n_links; ++i) {
    w[static_cast<size_t>(i)] = bind_world(bones[static_cast<size_t>(i)]);
    heads[static_cast<size_t>(i)] = w[static_cast<size_t>(i)].topRightCorner<3, 1>();
  }
  if (end >= 0) {
    heads[static_cast<size_t>(n_links)] = bind_world(end).topRightCorner<3, 1>();
  } else {
    // SPEC §4: no Tail_End -> the last segment continues the incoming tangent,
    // expressed below in the last bone's own local frame.
    const Vector3d prev = n_links >= 2 ? heads[static_cast<size_t>(n_links - 2)]
                                       : Vector3d(w_root_parent.topRightCorner<3, 1>());
    const Vector3d incoming = heads[static_cast<size_t>(n_links - 1)] - prev;
    if (incoming.norm() < 1e-12) {
      return fail(ChainStatus::Code::kBadInput,
                  "no Tail_End and no incoming segment to continue");
    }
    heads[static_cast<size_t>(n_links)] =
        heads[static_cast<size_t>(n_links - 1)] + incoming * in.end_length_ratio;
  }

  // Hips frame: X lateral, Y up, Z forward, in bind (model) space.
  Vector3d lat(params.lateral_axis[0], params.lateral_axis[1], params.lateral_axis[2]);
  Vector3d fwd(params.forward_axis[0], params.forward_axis[1], params.forward_axis[2]);
  if (lat.norm() < 1e-12 || fwd.norm() < 1e-12) {
    return fail(ChainStatus::Code::kBadInput, "forward/lateral axis is zero");
  }
  lat.normalize();
  fwd = fwd - fwd.dot(lat) * lat;
  if (fwd.norm() < 1e-9) return fail(ChainStatus::Code::kBadInput, "forward parallel to lateral");
  fwd.normalize();
  Matrix3d frame;
  frame.col(0) = lat;
  frame.col(1) = fwd.cross(lat);
  frame.col(2) = fwd;
  const Quaterniond f_bind(frame);

  out.hips = hips;
  out.root_parent = root_parent;
  out.tail_end = end;
  out.meters_per_unit = params.meters_per_unit;
  out.hips_to_root_parent_rot = (r_hips.conjugate() * r_root_parent).normalized();
  out.hips_frame_local = (r_hips.conjugate() * f_bind).normalized();
  out.root_head_in_hips = (w_hips.inverse() * heads[0].homogeneous()).head<3>();
  out.links.resize(static_cast<size_t>(n_links));

  std::vector<Vector3d> authored(static_cast<size_t>(n_links));  // a_i, hips frame
  for (int i = 0; i < n_links; ++i) {
    ChainLink& link = out.links[static_cast<size_t>(i)];
    link.joint = bones[static_cast<size_t>(i)];
    const Matrix4d& wi = w[static_cast<size_t>(i)];
    const Matrix4d wp = i == 0 ? w_root_parent : w[static_cast<size_t>(i - 1)];
    const Matrix4d local = wp.inverse() * wi;
    link.neutral_translation = local.topRightCorner<3, 1>();
    link.neutral_rotation = detail::rotation_of(local.topLeftCorner<3, 3>());
    link.neutral_scale = detail::scale_of(local.topLeftCorner<3, 3>());
    const Vector3d offset = heads[static_cast<size_t>(i + 1)] - heads[static_cast<size_t>(i)];
    const double len_units = offset.norm();
    if (!(len_units > 1e-12)) {
      return fail(ChainStatus::Code::kBadInput,
                  "zero-length tail bone " + in.names[static_cast<size_t>(link.joint)]);
    }
    const Vector3d dir_world = offset / len_units;
    link.length = len_units * params.meters_per_unit;
    link.bind_dir_local =
        (detail::rotation_of(wi.topLeftCorner<3, 3>()).conjugate() * dir_world).normalized();
    authored[static_cast<size_t>(i)] = f_bind.conjugate() * dir_world;
    out.total_length += link.length;
  }

  // Centred rest arc with restCurve beta and the carry distributed over the
  // links (SPEC §4): c = normalize(0, a0y, a0z), Q_i = slerp(I, swing(c, a_i), beta),
  // u_i = R_x(C (i+1)/N) rot(Q_i, c), r_i = rot(A_i^-1, u_i).
  Vector3d c(0.0, authored[0].y(), authored[0].z());
  if (c.norm() < 1e-9) c = -Vector3d::UnitY();
  c.normalize();
  const double carry = params.carry_deg * M_PI / 180.0;
  const double beta = std::clamp(params.rest_curve, 0.0, 1.0);
  Quaterniond parent = r_root_parent;  // parent's corrected rest frame, world (bind)
  for (int i = 0; i < n_links; ++i) {
    ChainLink& link = out.links[static_cast<size_t>(i)];
    const Quaterniond q_arc =
        Quaterniond::Identity().slerp(beta, detail::swing(c, authored[static_cast<size_t>(i)]));
    // Bug 3 (tests only): the full carry at every joint, compounding.
    const double angle = params.test_bug_carry_per_joint
                             ? carry * (i + 1)
                             : carry * (i + 1) / static_cast<double>(n_links);
    const Vector3d u = Eigen::AngleAxisd(angle, Vector3d::UnitX()) * (q_arc * c);
    link.parent_to_hips = (f_bind.conjugate() * parent).normalized();
    link.rest_dir = (link.parent_to_hips.conjugate() * u).normalized();
    link.rest_local_rotation =
        (detail::swing(link.neutral_rotation * link.bind_dir_local, link.rest_dir) *
         link.neutral_rotation)
            .normalized();
    parent = (parent * link.rest_local_rotation).normalized();
  }
  refresh_derived(out);
  return {};
}

void refresh_derived(ChainDesc& chain) {
  for (ChainLink& link : chain.links) {
    link.bind_dir_parent = (link.neutral_rotation * link.bind_dir_local).normalized();
    link.parent_to_hips_matrix = link.parent_to_hips.toRotationMatrix();
  }
}

}  // namespace solver
