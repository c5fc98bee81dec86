// Bone roles from the skeleton's shape and names together (ARCHITECTURE:
// "legs are chains that reach the floor in bind pose, the pelvis is the trunk
// joint where the hind legs (and a tail) attach, arms do not reach the
// floor"). Names pick the thigh / upper arm inside a chain and the side;
// they never turn a chain that does not reach the floor into a leg.
//
// Readings chosen (all lengths relative to the model height H):
// - centre line: the median x of the body joints; a joint is lateral when
//   farther than kLateral x H from it (limbs come in mirrored pairs);
// - a limb root is a lateral joint whose parent is central; its chain
//   follows the child with the most body descendants (ties: the one that
//   goes on the way the limb runs, then the lower one);
// - a chain ending in a leaf adopts a detached foot: a body joint outside the
//   limb's attachment subtree (rigs hang feet under the root like IK
//   targets), mostly below the chain's end (cos >= kFootBelow) and within
//   kFootReach x the chain's length, the lowest such (skinned first), and
//   not parked on a limb's joint (an IK target on a humanoid's foot or hand);
// - a limb is a leg when its lowest point (joints, skin it dominates) is
//   within kReach x H of the lowest limb;
// - legs pair across the centre line: an extra one on one side that hangs
//   kArmAbove x H above the other side's legs (an arm holding a staff to
//   the floor) is an arm, the one the other side mirrors worst first;
// - with more legs than two, the ones attached toward the head are front
//   legs; the pelvis is the lowest common ancestor of the hind legs and the
//   head.
#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/anatomy/role_names.h"
#include "rig/anatomy/skin_queries.h"  // dominant_joint
#include "rig/anatomy/roles_shape.h"
#include "rig/anatomy/roles_shape_frame.h"

namespace rig {
using namespace shape_roles;  // the steps and the frame they read

namespace {

// The head by name: the first body joint outside the limbs named so; -1 when none.
int named_head(const BodyFrame& f, const std::vector<char>& in_limb) {
  int head = -1;
  for (int j = 0; j < f.n && head < 0; ++j)
    if (!f.excluded[j] && !in_limb[j] && f.named[j].part == BodyPart::kHead) head = j;
  return head;
}

// Front legs (of more than two): those attached toward the head (+Z without one).
void mark_front_legs(const BodyFrame& f, std::vector<Limb>& limbs, const std::vector<int>& legs, int head) {
  const Skeleton& sk = f.sk;
  Vec3 centre = Vec3::Zero();
  for (int i : legs) centre += pos(sk, limbs[i].chain.front());
  centre /= static_cast<double>(legs.size());
  Vec3 fwd = head >= 0 ? Vec3(pos(sk, head) - centre) : Vec3::UnitZ();
  fwd.y() = 0;
  if (!(fwd.norm() > 1e-12)) fwd = Vec3::UnitZ();
  double lo_d = kInf, hi_d = -kInf;
  for (int i : legs) {
    const double d = pos(sk, limbs[i].chain.front()).dot(fwd);
    lo_d = std::min(lo_d, d);
    hi_d = std::max(hi_d, d);
  }
  for (int i : legs) limbs[i].front = pos(sk, limbs[i].chain.front()).dot(fwd) > 0.5 * (lo_d + hi_d);
}

// The pelvis: the lowest common ancestor of the hind legs and the head (of
// the hind legs alone when that is no trunk joint); -1 when there is none.
int find_hips(const BodyFrame& f, const std::vector<Limb>& limbs, const std::vector<int>& legs,
              const std::vector<char>& in_limb, int head) {
  const Skeleton& sk = f.sk;
  std::vector<int> hind_roots;
  for (int i : legs)
    if (!limbs[i].front) hind_roots.push_back(limbs[i].chain.front());
  if (hind_roots.empty()) return -1;
  const int hind_lca = common_ancestor(sk, hind_roots);
  int hips = hind_lca;
  if (head >= 0) {
    std::vector<int> with_head = hind_roots;
    with_head.push_back(head);
    const int a = common_ancestor(sk, with_head);
    if (a >= 0 && !f.excluded[a] && !in_limb[a]) hips = a;
  }
  if (hips < 0 || f.excluded[hips] || in_limb[hips]) return -1;
  return hips;
}

// The head: the named one below the pelvis, else the highest central leaf
// below it; where none is (a head whose only children are ears, eyes or a
// jaw off the centre line: limbs here), the highest central joint, or -1.
int head_below_hips(const BodyFrame& f, const std::vector<char>& in_limb, int hips, int head) {
  const Skeleton& sk = f.sk;
  if (head >= 0 && descends_from(sk, head, hips)) return head;
  head = -1;
  for (const bool leaf_only : {true, false}) {
    double best = -kInf;
    for (int j = 0; j < f.n; ++j)
      if (!f.excluded[j] && !in_limb[j] && j != hips && (f.kids[j].empty() || !leaf_only) && !f.lateral(j) &&
          descends_from(sk, j, hips) && pos(sk, j).y() > best) {
        best = pos(sk, j).y();
        head = j;
      }
    if (head >= 0) break;
  }
  return head;
}

// Trunk roles: the pelvis, the spine on the path from it to the head (its
// last joint, or one named so, the neck) and the head; returns the trunk.
std::vector<char> assign_trunk_roles(const BodyFrame& f, int hips, int head, std::vector<Role>& roles) {
  const std::vector<Role>& named = f.named;
  roles[hips] = {BodyPart::kHips, Side::kCenter};
  std::vector<char> trunk(f.n, 0);
  trunk[hips] = 1;
  if (head >= 0) {
    std::vector<int> path;
    for (int j = f.parent(head); j >= 0 && j != hips; j = f.parent(j)) path.insert(path.begin(), j);
    bool neck = false;
    for (int j : path) {
      neck |= named[j].part == BodyPart::kNeck;
      roles[j] = {named[j].part == BodyPart::kNeck ? BodyPart::kNeck : BodyPart::kSpine, Side::kCenter};
      trunk[j] = 1;
    }
    if (!neck && path.size() >= 2) roles[path.back()].part = BodyPart::kNeck;
    roles[head] = {BodyPart::kHead, Side::kCenter};
    trunk[head] = 1;
  }
  return trunk;
}

// A limb's side: the first side a name in its chain tells, else the side
// of the centre line it hangs on.
Side side_of(const BodyFrame& f, const Limb& l) {
  for (int j : l.chain)
    if (f.named[j].side != Side::kCenter) return f.named[j].side;
  return l.x_sign > 0 ? Side::kLeft : Side::kRight;  // +X = left, facing +Z
}

// Index of the joint named as the first long bone of a limb, or -1.
int anchor_of(const BodyFrame& f, const Limb& l) {
  for (size_t i = 0; i < l.chain.size(); ++i) {
    const BodyPart p = f.named[l.chain[i]].part;
    if (p == BodyPart::kThigh || p == BodyPart::kUpperArm) return static_cast<int>(i);
  }
  return -1;
}

// Index of a leg's thigh in its chain: the joint named so while a shin
// follows, else the fourth from the end, past first bones that run sideways.
int thigh_index(const BodyFrame& f, const Limb& l) {
  const Skeleton& sk = f.sk;
  const int m = static_cast<int>(l.chain.size());
  int a = anchor_of(f, l);
  if (a < 0 || m - a < 2) {
    a = m > 4 ? m - 4 : 0;
    // A first bone that runs sideways more than down or along the body
    // spans the pelvis' width (a T-Rex's BackLeg -> BackUpLeg, a wolf's FrontShoulder ->
    // FrontUpperLeg), as a clavicle does for an arm: the thigh is the
    // next, while thigh and shin remain.
    while (m - a > 2) {
      const Vec3 d = pos(sk, l.chain[a + 1]) - pos(sk, l.chain[a]);
      if (!(std::abs(d.x()) > Eigen::Vector2d(d.y(), d.z()).norm())) break;
      ++a;
    }
  }
  if (m - a < 2) a = std::max(0, m - 2);
  return a;
}

// Leg roles: thigh, shin, foot and toe from each leg's thigh on.
void assign_leg_roles(const BodyFrame& f, const std::vector<Limb>& limbs, const std::vector<int>& legs,
                      std::vector<Role>& roles) {
  for (int i : legs) {
    const Limb& l = limbs[i];
    const int m = static_cast<int>(l.chain.size());
    const int a = thigh_index(f, l);
    const BodyPart parts[] = {BodyPart::kThigh, BodyPart::kShin, BodyPart::kFoot, BodyPart::kToe};
    const Side side = side_of(f, l);
    for (int k = a; k < m && k - a < 4; ++k) roles[l.chain[k]] = {parts[k - a], side, l.front};
  }
}

// Unnamed arm: does the chain start at a clavicle (the upper arm is
// index 1) or at the upper arm (0)? A clavicle is shorter than the upper
// arm after it; an upper arm is no shorter than its forearm (CMU 1.55x, a
// T-Rex's FrontLeg 0.83x its FrontUpLeg, the demon's
// Shoulder 0.31x).
int upper_arm_in_chain(const Skeleton& sk, const std::vector<int>& chain) {
  if (chain.size() < 4) return 0;
  auto bone = [&](size_t i) { return (pos(sk, chain[i + 1]) - pos(sk, chain[i])).norm(); };
  return bone(0) < bone(1) ? 1 : 0;
}

// The arm on side `s`: the longest limb there that does not reach the
// floor, hangs on the trunk and does not point up; -1 when none.
int pick_arm(const BodyFrame& f, const std::vector<Limb>& limbs, const std::vector<char>& in_limb,
             const std::vector<char>& trunk, double s) {
  const Skeleton& sk = f.sk;
  int best = -1;
  for (int i = 0; i < static_cast<int>(limbs.size()); ++i) {
    const Limb& l = limbs[i];
    if (l.leg || l.x_sign != s || l.chain.size() < 2 || l.detached || l.doubled) continue;
    // On the trunk, or on a central joint (a clavicle too close to the
    // centre line to be lateral) at most two steps from it.
    int attach = f.parent(l.chain.front());
    for (int step = 0; step < 2 && attach >= 0 && !trunk[attach] && !in_limb[attach]; ++step) attach = f.parent(attach);
    if (attach < 0 || !trunk[attach]) continue;
    const Vec3 reach = pos(sk, l.chain.back()) - pos(sk, l.chain.front());
    if (reach.y() > kArmUp * f.H && reach.y() > kArmSteep * reach.norm()) continue;
    if (best < 0 || l.chain.size() > limbs[best].chain.size()) best = i;
  }
  return best;
}

// How many of upper arm, forearm and hand the arm from chain index `a` has:
// 2 when the forearm's far end fans out into three or more bones, fingers
// (none of them is the hand). Twist and corrective bones along the forearm
// (an Unreal lowerarm) do not count; a child named a hand is the hand.
int arm_part_count(const BodyFrame& f, const Limb& l, int a) {
  const Skeleton& sk = f.sk;
  const int m = static_cast<int>(l.chain.size());
  int arm_parts = 3;
  if (a + 2 < m && f.named[l.chain[a + 2]].part != BodyPart::kHand) {
    const int forearm = l.chain[a + 1];
    double reach = 0;
    for (int k : f.kids[forearm]) reach = std::max(reach, (pos(sk, k) - pos(sk, forearm)).norm());
    int at_wrist = 0;
    for (int k : f.kids[forearm]) at_wrist += (pos(sk, k) - pos(sk, forearm)).norm() >= 0.8 * reach ? 1 : 0;
    if (reach > 0 && at_wrist >= 3) arm_parts = 2;
  }
  return arm_parts;
}

// Arm roles, one arm per side: the shoulder before the upper arm (or the
// central parent named so), then upper arm, forearm and hand.
void assign_arm_roles(const BodyFrame& f, const std::vector<Limb>& limbs, const std::vector<char>& in_limb,
                      const std::vector<char>& trunk, std::vector<Role>& roles) {
  for (double s : {-1.0, 1.0}) {
    const int best = pick_arm(f, limbs, in_limb, trunk, s);
    if (best < 0) continue;
    const Limb& l = limbs[best];
    const int m = static_cast<int>(l.chain.size());
    int a = anchor_of(f, l);
    if (a < 0) a = upper_arm_in_chain(f.sk, l.chain);
    const Side side = side_of(f, l);
    if (a > 0) roles[l.chain[a - 1]] = {BodyPart::kShoulder, side};
    const int p = f.parent(l.chain.front());
    if (a == 0 && p >= 0 && !trunk[p] && f.named[p].part == BodyPart::kShoulder) roles[p] = {BodyPart::kShoulder, side};
    const BodyPart parts[] = {BodyPart::kUpperArm, BodyPart::kForearm, BodyPart::kHand};
    const int arm_parts = arm_part_count(f, l, a);
    for (int k = a; k < m && k - a < arm_parts; ++k) roles[l.chain[k]] = {parts[k - a], side};
  }
}

}  // namespace

std::vector<double> skin_low_per_joint(const Skeleton& sk, const Mesh& mesh, const Skin& skin) {
  std::vector<double> low(static_cast<size_t>(sk.size()), kInf);
  const int nv = std::min(mesh.vertex_count(), static_cast<int>(skin.influences.size()));
  for (int v = 0; v < nv; ++v) {
    const int d = dominant_joint(skin.influences[v]);
    const double y = mesh.positions[v].y();
    if (d >= 0 && d < sk.size() && std::isfinite(y)) low[d] = std::min(low[d], y);
  }
  return low;
}

bool assign_roles_by_shape(Skeleton& sk, std::span<const double> skin_low, bool mirror_named_sides) {
  const int n = sk.size();
  if (n < 3 || static_cast<int>(sk.bind_world.size()) != n || static_cast<int>(sk.parents.size()) != n) return false;
  BodyFrame f(sk, skin_low);
  if (!read_names_and_extent(f, mirror_named_sides)) return false;
  build_body_tree(f);

  std::vector<char> in_limb(n, 0);
  std::vector<Limb> limbs = find_limbs(f, in_limb);
  if (limbs.empty()) return false;
  adopt_detached_feet(f, limbs, in_limb);
  const double floor = measure_limb_lows(f, limbs);
  if (!(floor - f.lo <= kNoLegs * f.H)) return false;
  std::vector<int> legs = legs_reaching_floor(f, limbs, floor);
  drop_unpaired_high_legs(f, limbs, legs);
  if (legs.empty()) return false;

  int head = named_head(f, in_limb);
  if (legs.size() > 2) mark_front_legs(f, limbs, legs, head);
  const int hips = find_hips(f, limbs, legs, in_limb, head);
  if (hips < 0) return false;
  head = head_below_hips(f, in_limb, hips, head);

  std::vector<Role> roles(n);
  const std::vector<char> trunk = assign_trunk_roles(f, hips, head, roles);
  assign_leg_roles(f, limbs, legs, roles);
  assign_arm_roles(f, limbs, in_limb, trunk, roles);
  sk.roles = std::move(roles);
  return true;
}

}  // namespace rig
