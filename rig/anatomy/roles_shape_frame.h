// Internal to roles_shape*.cpp: the skeleton as the shape-role steps read
// it (BodyFrame), the limbs they find, and the limb-finding steps
// (roles_shape_limbs.cpp); roles_shape.cpp assigns the roles from them.
// Readings and their thresholds: the comment at the top of roles_shape.cpp.
#pragma once

#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "rig/anatomy/role_names.h"
#include "rig/model/model.h"

namespace rig::shape_roles {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kLateral = 0.015;   // x H off the centre line
inline constexpr double kReach = 0.15;      // x H above the lowest limb: still a leg
inline constexpr double kNoLegs = 0.3;      // lowest limb this x H above the model's bottom: no legs
inline constexpr double kArmAbove = 0.2;    // x H: an unpaired floor-reaching limb this far above the legs is an arm
inline constexpr double kFootReach = 2.0;   // x the chain's length (a leaf's own bone length is unknown;
                                     // a wolf's front shin is 1.7x its shoulder and upper leg)
inline constexpr double kFootBelow = 0.7;   // cosine between (end -> foot) and down
inline constexpr double kArmUp = 0.1;       // x H: an arm's end is not above its root by more ...
inline constexpr double kArmSteep = 0.5;    // ... and by more than this x its reach (a T-pose's fingers
                                     // rise a little over a long reach; ears and horns point up)
inline constexpr int kMaxChain = 8;
inline constexpr double kTieCos = 0.25;     // children this close in direction tie on it

struct Limb {
  std::vector<int> chain;  // limb root outwards; a detached foot last
  bool detached = false;
  double low = kInf;
  double x_sign = 0;  // + or - from the centre line
  bool leg = false, front = false;
  bool doubled = false;  // lies on another limb: a helper beside it (doubled_limbs.h)
};

inline Vec3 pos(const Skeleton& sk, int j) { return sk.bind_world[j].block<3, 1>(0, 3); }

inline bool descends_from(const Skeleton& sk, int j, int ancestor) {
  for (int k = 0; j >= 0 && k <= sk.size(); ++k, j = sk.parents[j])
    if (j == ancestor) return true;
  return false;
}

// Lowest common ancestor of the joints (-1 when they share none).
inline int common_ancestor(const Skeleton& sk, const std::vector<int>& joints) {
  if (joints.empty()) return -1;
  std::vector<int> path;  // ancestors of the first, itself included
  for (int j = joints[0], k = 0; j >= 0 && k <= sk.size(); j = sk.parents[j], ++k) path.push_back(j);
  for (int a : path) {
    bool all = true;
    for (int j : joints) all = all && descends_from(sk, j, a);
    if (all) return a;
  }
  return -1;
}

// The skeleton as the steps read it: names and exclusions per joint, the
// model's height and centre line, the body tree (excluded joints left out).
struct BodyFrame {
  BodyFrame(const Skeleton& skeleton, std::span<const double> skin_low_in)
      : sk(skeleton), skin_low(skin_low_in), n(skeleton.size()) {}

  const Skeleton& sk;
  std::span<const double> skin_low;  // per joint lowest dominated skin y, or empty
  int n;
  std::vector<Role> named;     // the role each joint's name reads as
  std::vector<char> excluded;  // helpers, props, tails, ears, fingers and below
  double lo = kInf;            // the lowest body point (joints and their skin)
  double H = 0;                // the model height
  double cx = 0;               // x of the centre line
  std::vector<std::vector<int>> kids;  // body children, in index order
  std::vector<int> size;               // body joints in each subtree

  int parent(int j) const {
    const int p = sk.parents[j];
    return p >= 0 && p < j ? p : -1;  // topological order; anything else is a root
  }
  bool skinned(int j) const { return j < static_cast<int>(skin_low.size()) && std::isfinite(skin_low[j]); }
  double low_of(int j) const {
    double y = pos(sk, j).y();
    if (skinned(j)) y = std::min(y, skin_low[j]);
    return y;
  }
  double offset(int j) const { return pos(sk, j).x() - cx; }
  bool lateral(int j) const { return std::abs(offset(j)) > kLateral * H; }
};

// Which joints are body joints, and the body's height and centre line;
// false when no body joint is left or the body has no height.
bool read_names_and_extent(BodyFrame& f, bool mirror_named_sides);

// The body tree: each body joint's body children and its subtree's size.
void build_body_tree(BodyFrame& f);

// Limbs: the chains from lateral joints hung on the centre line that go on
// away from it; marks their joints in `in_limb`.
std::vector<Limb> find_limbs(const BodyFrame& f, std::vector<char>& in_limb);

// Chains that end in a leaf adopt their detached foot (and the toe under a control foot).
void adopt_detached_feet(const BodyFrame& f, std::vector<Limb>& limbs, std::vector<char>& in_limb);

// Each limb's lowest point (joints, their skin, or half a leaf bone without
// skin); returns the lowest of them, the floor.
double measure_limb_lows(const BodyFrame& f, std::vector<Limb>& limbs);

// Legs: limbs reaching within kReach x H of the floor, no double of another,
// the two lowest per side at most.
std::vector<int> legs_reaching_floor(const BodyFrame& f, std::vector<Limb>& limbs, double floor);

// Legs come in mirrored pairs: with more on one side than on the other,
// the extra ones are those whose roots the other side mirrors worst (an
// arm holding a staff to the floor, or an arm a floor-length robe was
// weighted to, beside two legs), when they hang from high on the trunk,
// as arms do: kArmAbove x H over every leg of the other side (a
// quadruped's front leg, beside a raised one, hangs level with its hind
// legs and stays a leg). Those are no legs.
void drop_unpaired_high_legs(const BodyFrame& f, std::vector<Limb>& limbs, std::vector<int>& legs);

}  // namespace rig::shape_roles
