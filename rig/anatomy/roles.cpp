// Assigning bone roles: from the skeleton's shape and names together
// (roles_shape.cpp), else from names (role_names.h) with a geometric
// fallback when names carry no meaning; which way the body faces.
#include "rig/anatomy/roles.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "rig/anatomy/facing.h"
#include "rig/anatomy/legs.h"
#include "rig/anatomy/role_names.h"
#include "rig/anatomy/skin_queries.h"  // dominant_joint
#include "rig/model/model.h"
#include "rig/anatomy/roles_shape.h"

namespace rig {
namespace {

// Geometry fallback for names that say nothing (bone_0..N): hips is the joint
// with the most child chains (≥3) nearest the root; legs go down from it,
// the spine up; arms branch sideways from the spine. Y up, +X = left.
void infer_roles(Skeleton& sk) {
  const int n = sk.size();
  auto pos = [&](int j) { return Vec3(sk.bind_world[j].block<3, 1>(0, 3)); };
  auto kids = [&](int j) { return sk.children(j); };
  int hips = -1;
  for (int j = 0; j < n && hips < 0; ++j) {
    auto c = kids(j);
    int down = 0, up = 0;
    for (int k : c) (pos(k).y() < pos(j).y() ? down : up)++;
    if (c.size() >= 3 && down >= 2 && up >= 1) hips = j;
  }
  if (hips < 0) return;
  sk.roles[hips] = {BodyPart::kHips, Side::kCenter};
  // Main chain from `start`: at each fork, prefer children that continue
  // (have children), then the one pointing most along `dir`.
  auto chain_of = [&](int start, const Vec3& dir) {
    std::vector<int> ch{start};
    while (true) {
      auto c = kids(ch.back());
      if (c.empty()) break;
      int best = c[0];
      double best_score = -1e300;
      for (int k : c) {
        const Vec3 d = pos(k) - pos(ch.back());
        const double score = (kids(k).empty() ? 0.0 : 10.0) + (d.norm() > 0 ? d.normalized().dot(dir) : 0.0);
        if (score > best_score) best_score = score, best = k;
      }
      ch.push_back(best);
    }
    return ch;
  };
  const double hy = pos(hips).y();
  for (int k : kids(hips)) {
    const Vec3 d = pos(k) - pos(hips);
    auto ch = chain_of(k, d.y() < 0 ? Vec3(0, -1, 0) : Vec3(0, 1, 0));
    if (pos(ch.back()).y() < hy - 0.2 * std::abs(pos(ch.back()).y() - hy) && std::abs(d.x()) > 1e-9 &&
        ch.size() >= 3) {
      const Side side = d.x() > 0 ? Side::kLeft : Side::kRight;
      const BodyPart parts[] = {BodyPart::kThigh, BodyPart::kShin, BodyPart::kFoot, BodyPart::kToe};
      // A short first link is a hip helper (CMU LHipJoint): skip it.
      size_t start = 0;
      if (ch.size() >= 5) start = 1;
      for (size_t i = start; i < ch.size() && i - start < 4; ++i) sk.roles[ch[i]] = {parts[i - start], side};
    } else if (pos(ch.back()).y() > hy) {
      // Spine chain up to the head.
      for (size_t i = 0; i < ch.size(); ++i) {
        const bool last = i + 1 == ch.size();
        const bool neck = i + 2 == ch.size();
        sk.roles[ch[i]] = {last ? BodyPart::kHead : neck ? BodyPart::kNeck : BodyPart::kSpine, Side::kCenter};
        for (int a : kids(ch[i])) {
          if (a == (last ? -1 : ch[i + 1])) continue;
          const Vec3 out_dir = pos(a) - pos(ch[i]);
          auto arm = chain_of(a, Vec3(out_dir.x() > 0 ? 1.0 : -1.0, 0, 0));
          const double dx = pos(arm.back()).x() - pos(ch[i]).x();
          if (arm.size() < 3 || std::abs(dx) < 1e-9) continue;
          const Side side = dx > 0 ? Side::kLeft : Side::kRight;
          const BodyPart parts[] = {BodyPart::kShoulder, BodyPart::kUpperArm, BodyPart::kForearm, BodyPart::kHand};
          const size_t off = arm.size() >= 4 ? 0 : 1;
          for (size_t q = 0; q < arm.size() && q + off < 4; ++q) sk.roles[arm[q]] = {parts[q + off], side};
        }
      }
    }
  }
}

}  // namespace

int hips_joint(const Skeleton& sk) {
  for (int j = 0; j < static_cast<int>(sk.roles.size()); ++j)
    if (sk.roles[j].part == BodyPart::kHips) return j;
  return -1;
}

void assign_roles_by_name(Skeleton& sk, bool mirror_named_sides) {
  sk.roles.assign(sk.size(), Role{});
  bool has_hips = false;
  for (int j = 0; j < sk.size(); ++j) {
    sk.roles[j] = role_from_name_sided(sk.names[j], mirror_named_sides);
    has_hips |= sk.roles[j].part == BodyPart::kHips;
  }
  // Only one hips: the one nearest the root; other "hip" names lose it.
  int hips = -1;
  for (int j = 0; j < sk.size(); ++j)
    if (sk.roles[j].part == BodyPart::kHips) {
      if (hips < 0) hips = j;
      else sk.roles[j] = {};
    }
  // Rigify and some others name no hips: the joint the thighs hang from is.
  if (!has_hips)
    for (int j = 0; j < sk.size(); ++j)
      if (sk.roles[j].part == BodyPart::kThigh && sk.parents[j] >= 0 &&
          sk.roles[sk.parents[j]].part != BodyPart::kThigh) {
        sk.roles[sk.parents[j]] = {BodyPart::kHips, Side::kCenter};
        has_hips = true;
        break;
      }
  if (!has_hips && sk.bind_world.size() == sk.names.size()) infer_roles(sk);
}

int leg_count(const Skeleton& sk) {
  int n = 0;
  for (const Role& r : sk.roles) n += r.part == BodyPart::kThigh ? 1 : 0;
  return n;
}

namespace {

bool usable_positions(const Skeleton& sk) {
  return sk.bind_world.size() == static_cast<size_t>(sk.size()) && sk.parents.size() == static_cast<size_t>(sk.size());
}

// How strongly the roles say the character faces `facing`'s forward (a
// length; negative: it faces the other way). Mirrored limbs give the
// lateral axis but not its sign: toes stand ahead of their foot, and without
// toes a foot's skin reaches forward of the ankle (the median of the
// vertices within a shin's length of it).
double forward_evidence(const Skeleton& sk, const Facing& facing, const Mesh* mesh, const Skin* skin) {
  const Vec3 fwd = facing.forward();
  auto at = [&](int j) { return Vec3(sk.bind_world[j].block<3, 1>(0, 3)); };
  double toes = 0;
  bool any_toe = false;
  for (int j = 0; j < sk.size(); ++j) {
    const int p = sk.parents[j];
    if (sk.roles[j].part == BodyPart::kToe && p >= 0 && p < sk.size() && sk.roles[p].part == BodyPart::kFoot) {
      toes += fwd.dot(at(j) - at(p));
      any_toe = true;
    }
  }
  if (any_toe || !mesh || !skin) return toes;
  const int nv = std::min(mesh->vertex_count(), static_cast<int>(skin->influences.size()));
  // Per foot: the ankle and a shin's length (the shin of its side; feet
  // hang under the root on some rigs).
  struct Foot {
    int joint;
    double reach;
  };
  std::vector<Foot> feet;
  for (int f = 0; f < sk.size(); ++f) {
    if (sk.roles[f].part != BodyPart::kFoot) continue;
    double reach = 0;
    for (int s = 0; s < sk.size(); ++s)
      if (sk.roles[s].part == BodyPart::kShin && sk.roles[s].side == sk.roles[f].side &&
          sk.roles[s].front == sk.roles[f].front)
        reach = std::max(reach, (at(f) - at(s)).norm());
    if (reach > 0 && std::isfinite(reach)) feet.push_back({f, reach});
  }
  // The skin each foot dominates; where no foot dominates any (shoes
  // weighted to the shins, feet that are IK targets), the skin at its sole:
  // lower than kSoleBand x the reach above the ankle.
  constexpr double kSoleBand = 0.25;
  auto median_along = [&](const Foot& f, bool own) {
    std::vector<double> along;
    for (int v = 0; v < nv; ++v) {
      const Vec3 d = mesh->positions[v] - at(f.joint);
      if (!d.allFinite() || d.norm() > f.reach) continue;
      if (own ? dominant_joint(skin->influences[v]) != f.joint : d.y() >= kSoleBand * f.reach) continue;
      along.push_back(fwd.dot(d));
    }
    if (along.empty()) return 0.0;
    std::nth_element(along.begin(), along.begin() + static_cast<std::ptrdiff_t>(along.size() / 2), along.end());
    return along[along.size() / 2];
  };
  double evidence = 0;
  for (const bool own : {true, false}) {
    for (const Foot& f : feet) evidence += median_along(f, own);
    if (evidence != 0) break;
  }
  return evidence;
}

// Toes that point backward this much on average (a cosine) overrule sided
// names. Toes point ahead of their feet, down and forward: +0.32 on the
// Khronos fox (the shallowest seen), +0.90 to +0.97 on the BVH and CMU
// mocap and the Mixamo-style fixtures.
constexpr double kToesOverruleNames = 0.25;

// How the toes point along `facing`'s forward: per toe joint under a foot
// joint, the cosine between its foot->toe bone and the forward (0 toes when
// there are none).
struct ToeAlignment {
  int toes = 0;
  int backward = 0;  // toes pointing behind their foot
  double mean_cos = 0;
};
ToeAlignment toe_alignment(const Skeleton& sk, const Facing& facing) {
  const Vec3 fwd = facing.forward();
  ToeAlignment t;
  for (int j = 0; j < sk.size(); ++j) {
    const int p = sk.parents[j];
    if (sk.roles[j].part != BodyPart::kToe || p < 0 || p >= sk.size() || sk.roles[p].part != BodyPart::kFoot) continue;
    const Vec3 bone = sk.bind_world[j].block<3, 1>(0, 3) - sk.bind_world[p].block<3, 1>(0, 3);
    const double length = bone.norm();
    if (!(length > 0) || !std::isfinite(length)) continue;
    const double c = fwd.dot(bone) / length;
    t.mean_cos += c;
    t.backward += c < 0 ? 1 : 0;
    ++t.toes;
  }
  if (t.toes > 0) t.mean_cos /= t.toes;
  return t;
}

// Runs `assign` on the skeleton turned into the canonical frame (facing +Z,
// left +X; rig/facing.h); roles do not depend on the frame they were read in.
// `assign(skeleton, mirror_named_sides)`. Without sided names, the facing's
// sign comes from forward_evidence: read backwards, the roles are read again
// facing the other way.
template <typename Assign>
void assign_facing_forward(Skeleton& sk, const Mesh* mesh, const Skin* skin, Assign assign) {
  bool from_names = false;
  const bool positions = usable_positions(sk);
  Facing facing = positions ? facing_from_skeleton(sk, &from_names) : Facing{};
  auto run = [&](const Facing& f, bool mirror_named_sides) {
    if (f.canonical()) return assign(sk, mirror_named_sides);
    Skeleton turned = sk;
    Mat4 turn = Mat4::Identity();
    turn.block<3, 3>(0, 0) = f.to_canonical;
    for (Mat4& m : turned.bind_world) m = turn * m;
    assign(turned, mirror_named_sides);
    sk.roles = std::move(turned.roles);
  };
  run(facing, false);
  if (!positions || sk.roles.size() != static_cast<size_t>(sk.size())) return;
  if (from_names) {
    // Names give the sides, and a rig that names them from the viewer's side
    // (its "Left" on its right) reads as facing away: its toes then all
    // point behind their feet. Clear toes overrule the names: the character
    // faces the other way and every side read from a name is the other one
    // (sides read from positions, e.g. of unnamed arms, stay). A foot's skin
    // is no such evidence (Cyberpunk's reaches 0.002 H ahead of its ankles).
    const ToeAlignment t = toe_alignment(sk, facing);
    // Legs lying level (a flying pose) point their toes like a diver's: no facing evidence.
    if (t.toes >= 2 && t.backward == t.toes && t.mean_cos < -kToesOverruleNames && !legs_lie_level(sk))
      run(facing_with_left(-facing.left()), true);
    return;
  }
  if (forward_evidence(sk, facing, mesh, skin) < 0) run(facing_with_left(-facing.left()), false);
}

}  // namespace

void assign_roles(Skeleton& sk) {
  assign_facing_forward(sk, nullptr, nullptr, [](Skeleton& s, bool mirror) {
    if (!assign_roles_by_shape(s, {}, mirror)) assign_roles_by_name(s, mirror);
  });
}

void assign_roles(Skeleton& sk, const Mesh& mesh, const Skin& skin) {
  // Lowest skin per joint: a height, the same in either frame.
  const std::vector<double> low = skin_low_per_joint(sk, mesh, skin);
  assign_facing_forward(sk, &mesh, &skin, [&](Skeleton& s, bool mirror) {
    if (!assign_roles_by_shape(s, low, mirror)) assign_roles_by_name(s, mirror);
  });
}

}  // namespace rig
