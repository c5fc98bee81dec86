// Chain setup from plain rig data (SPEC §4: tail bones by name, neutral local
// transforms from inverse bind matrices, missing Tail_End, carry and the
// centred rest arc with restCurve beta).
#include "solver/chain.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "math.h"
#include "solver/testing/seeded_bugs.h"

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

namespace {

// Sizes agree, parents are topological, inverse binds finite, units positive.
ChainStatus check_rig_input(const ChainRigInput& in, const ChainParams& params) {
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
  return {};
}

// Tail bones by name: <prefix>Tail_1..Tail_N in number order (the prefix of
// the first joint named <prefix>Tail_1), numbers contiguous from 1, and
// <prefix>Tail_End into `end` (left as is when there is none).
ChainStatus tail_bones_by_name(const ChainRigInput& in, std::vector<int>& bones, int& end) {
  const int jc = static_cast<int>(in.names.size());
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
  return {};
}

// The tail: bones root first (explicit in `in`, else by name), the end
// helper (-1 = none) and the root's parent. Each bone's parent must be the
// bone before it, the end helper's the last bone, and the root must have one.
ChainStatus find_tail(const ChainRigInput& in, std::vector<int>& bones, int& end, int& root_parent) {
  const int jc = static_cast<int>(in.names.size());
  end = -1;
  if (!in.tail_joints.empty()) {
    for (int j : in.tail_joints) {
      if (j < 0 || j >= jc) return fail(ChainStatus::Code::kBadInput, "tail joint out of range");
      bones.push_back(j);
    }
    end = in.tail_end;
    if (end >= jc) return fail(ChainStatus::Code::kBadInput, "tail end out of range");
  } else if (ChainStatus st = tail_bones_by_name(in, bones, end); !st.ok()) {
    return st;
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
  root_parent = in.parents[static_cast<size_t>(bones[0])];
  if (root_parent < 0) {
    return fail(ChainStatus::Code::kBrokenChain, "tail root has no parent");
  }
  return {};
}

// The hips: `in.hips`, else the first hips-named ancestor of the tail root,
// else the root's parent; it must be an ancestor of the tail root.
ChainStatus find_hips(const ChainRigInput& in, int root_parent, int& hips) {
  const int jc = static_cast<int>(in.names.size());
  hips = in.hips;
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
  return {};
}

// Bind (model space) transforms of the chain, from inverse bind matrices.
struct BindFrames {
  Matrix4d w_hips;              // hips bind world
  Matrix4d w_root_parent;       // bind world of Tail_1's parent
  Quaterniond r_hips;           // rotation part of w_hips (scale removed)
  Quaterniond r_root_parent;    // rotation part of w_root_parent
  std::vector<Matrix4d> w;      // bind world per tail bone, size N
  std::vector<Vector3d> heads;  // bone heads and the end point, rig units, size N + 1
};

// Bind worlds of the hips, the root's parent and the tail bones; the end
// point is Tail_End's head or, without one, the incoming tangent continued.
ChainStatus bind_frames(const ChainRigInput& in, const std::vector<int>& bones, int end, int hips,
                        int root_parent, BindFrames& b) {
  const int n_links = static_cast<int>(bones.size());
  auto bind_world = [&](int j) -> Matrix4d { return in.inverse_bind[static_cast<size_t>(j)].inverse(); };
  b.w_hips = bind_world(hips);
  b.w_root_parent = bind_world(root_parent);
  b.r_hips = detail::rotation_of(b.w_hips.topLeftCorner<3, 3>());
  b.r_root_parent = detail::rotation_of(b.w_root_parent.topLeftCorner<3, 3>());

  std::vector<Matrix4d>& w = b.w;
  std::vector<Vector3d>& heads = b.heads;
  w.resize(static_cast<size_t>(n_links));
  heads.resize(static_cast<size_t>(n_links) + 1);
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
                                       : Vector3d(b.w_root_parent.topRightCorner<3, 1>());
    const Vector3d incoming = heads[static_cast<size_t>(n_links - 1)] - prev;
    if (incoming.norm() < 1e-12) {
      return fail(ChainStatus::Code::kBadInput,
                  "no Tail_End and no incoming segment to continue");
    }
    heads[static_cast<size_t>(n_links)] =
        heads[static_cast<size_t>(n_links - 1)] + incoming * in.end_length_ratio;
  }
  return {};
}

// Hips frame: X lateral, Y up, Z forward, in bind (model) space, from the
// axes of `params` (forward made orthogonal to lateral).
ChainStatus hips_frame_in_bind(const ChainParams& params, Quaterniond& f_bind) {
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
  f_bind = Quaterniond(frame);
  return {};
}

// Per link: neutral local transform, bind direction, length (and the total);
// `authored` receives each link's bind direction a_i in the hips frame.
ChainStatus set_up_links(const ChainRigInput& in, const ChainParams& params, const std::vector<int>& bones,
                         const BindFrames& b, const Quaterniond& f_bind, ChainDesc& out,
                         std::vector<Vector3d>& authored) {
  const int n_links = static_cast<int>(bones.size());
  const std::vector<Matrix4d>& w = b.w;
  const std::vector<Vector3d>& heads = b.heads;
  out.links.resize(static_cast<size_t>(n_links));
  authored.resize(static_cast<size_t>(n_links));
  for (int i = 0; i < n_links; ++i) {
    ChainLink& link = out.links[static_cast<size_t>(i)];
    link.joint = bones[static_cast<size_t>(i)];
    const Matrix4d& wi = w[static_cast<size_t>(i)];
    const Matrix4d wp = i == 0 ? b.w_root_parent : w[static_cast<size_t>(i - 1)];
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
  return {};
}

// A tail modelled held up (curled over the back, as a Shiba's or a husky's)
// keeps its authored curve: the centred arc exists to undo a hanging tail's
// sideways modelling (SPEC §4), but straightening a curl swings the part
// lying over the back into the back skin (issue 45 class 1: tail p99 2.34
// vs the stripped 1.95). Held up = the tail's end lies above its root by
// more than 0.1 of its length (a hanging or streaming tail ends at or below
// its root: the shared tails -0.94 .. +0.03, the Shiba's +0.26); ramped to
// the full authored curve at 0.2 so no rig jumps between the two readings
// (raised_tail_blend). Returns the beta the rise asks for (0 .. 1).
double raised_tail_curve(const std::vector<ChainLink>& links, const std::vector<Vector3d>& authored) {
  double rise = 0.0, length = 0.0;
  for (size_t i = 0; i < links.size(); ++i) {
    rise += links[i].length * authored[i].y();  // hips frame: y is up
    length += links[i].length;
  }
  if (!(length > 0.0)) return 0.0;
  return raised_tail_blend(rise / length);
}

// Centred rest arc with restCurve beta and the carry distributed over the
// links (SPEC §4): c = normalize(0, a0y, a0z), Q_i = slerp(I, swing(c, a_i), beta),
// u_i = R_x(C (i+1)/N) rot(Q_i, c), r_i = rot(A_i^-1, u_i). Sets each link's
// rest direction, rest local rotation and parent frame A_i.
void set_rest_directions(const ChainParams& params, bool bug_carry_per_joint, const Quaterniond& r_root_parent,
                         const Quaterniond& f_bind, const std::vector<Vector3d>& authored, ChainDesc& out) {
  const int n_links = out.size();
  Vector3d c(0.0, authored[0].y(), authored[0].z());
  if (c.norm() < 1e-9) c = -Vector3d::UnitY();
  c.normalize();
  const double carry = params.carry_deg * M_PI / 180.0;
  const double beta = std::max(std::clamp(params.rest_curve, 0.0, 1.0), raised_tail_curve(out.links, authored));
  Quaterniond parent = r_root_parent;  // parent's corrected rest frame, world (bind)
  for (int i = 0; i < n_links; ++i) {
    ChainLink& link = out.links[static_cast<size_t>(i)];
    const Quaterniond q_arc =
        Quaterniond::Identity().slerp(beta, detail::swing(c, authored[static_cast<size_t>(i)]));
    // Bug 3 (tests only): the full carry at every joint, compounding.
    const double angle = bug_carry_per_joint
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
}

// build_chain with the seeded bug 3 (carry per joint) on request.
ChainStatus build_chain_seeded(const ChainRigInput& in, const ChainParams& params, bool bug_carry_per_joint,
                               ChainDesc& out) {
  out = ChainDesc{};
  if (ChainStatus st = check_rig_input(in, params); !st.ok()) return st;
  std::vector<int> bones;
  int end = -1, root_parent = -1, hips = -1;
  if (ChainStatus st = find_tail(in, bones, end, root_parent); !st.ok()) return st;
  if (ChainStatus st = find_hips(in, root_parent, hips); !st.ok()) return st;
  BindFrames bind;
  if (ChainStatus st = bind_frames(in, bones, end, hips, root_parent, bind); !st.ok()) return st;
  Quaterniond f_bind;
  if (ChainStatus st = hips_frame_in_bind(params, f_bind); !st.ok()) return st;

  out.hips = hips;
  out.root_parent = root_parent;
  out.tail_end = end;
  out.meters_per_unit = params.meters_per_unit;
  out.hips_to_root_parent_rot = (bind.r_hips.conjugate() * bind.r_root_parent).normalized();
  out.hips_frame_local = (bind.r_hips.conjugate() * f_bind).normalized();
  out.root_head_in_hips = (bind.w_hips.inverse() * bind.heads[0].homogeneous()).head<3>();
  std::vector<Vector3d> authored;  // a_i, hips frame
  if (ChainStatus st = set_up_links(in, params, bones, bind, f_bind, out, authored); !st.ok()) return st;
  set_rest_directions(params, bug_carry_per_joint, bind.r_root_parent, f_bind, authored, out);
  refresh_derived(out);
  return {};
}

}  // namespace

double raised_tail_blend(double rise_over_length) {
  constexpr double kRaisedFrom = 0.1, kRaisedFull = 0.2;  // see raised_tail_curve
  return std::clamp((rise_over_length - kRaisedFrom) / (kRaisedFull - kRaisedFrom), 0.0, 1.0);
}

ChainStatus build_chain(const ChainRigInput& in, const ChainParams& params, ChainDesc& out) {
  return build_chain_seeded(in, params, /*bug_carry_per_joint=*/false, out);
}

namespace testing {

ChainStatus build_chain(const ChainRigInput& in, const ChainParams& params, const SeededBugs& bugs,
                        ChainDesc& out) {
  return build_chain_seeded(in, params, bugs.carry_per_joint, out);
}

}  // namespace testing

void refresh_derived(ChainDesc& chain) {
  for (ChainLink& link : chain.links) {
    link.bind_dir_parent = (link.neutral_rotation * link.bind_dir_local).normalized();
    link.parent_to_hips_matrix = link.parent_to_hips.toRotationMatrix();
  }
}

}  // namespace solver
