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

#include "rig/anatomy/roles.h"
#include "rig/anatomy/skin_queries.h"  // dominant_joint
#include "rig/anatomy/roles_shape.h"

namespace rig {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLateral = 0.015;   // x H off the centre line
constexpr double kReach = 0.15;      // x H above the lowest limb: still a leg
constexpr double kNoLegs = 0.3;      // lowest limb this x H above the model's bottom: no legs
constexpr double kArmAbove = 0.2;    // x H: an unpaired floor-reaching limb this far above the legs is an arm
constexpr double kFootReach = 2.0;   // x the chain's length (a leaf's own bone length is unknown;
                                     // a wolf's front shin is 1.7x its shoulder and upper leg)
constexpr double kFootBelow = 0.7;   // cosine between (end -> foot) and down
constexpr double kArmUp = 0.1;       // x H: an arm's end is not above its root by more ...
constexpr double kArmSteep = 0.5;    // ... and by more than this x its reach (a T-pose's fingers
                                     // rise a little over a long reach; ears and horns point up)
constexpr int kMaxChain = 8;
constexpr double kTieCos = 0.25;     // children this close in direction tie on it

struct Limb {
  std::vector<int> chain;  // limb root outwards; a detached foot last
  bool detached = false;
  double low = kInf;
  double x_sign = 0;  // + or - from the centre line
  bool leg = false, front = false;
};

Vec3 pos(const Skeleton& sk, int j) { return sk.bind_world[j].block<3, 1>(0, 3); }

bool descends_from(const Skeleton& sk, int j, int ancestor) {
  for (int k = 0; j >= 0 && k <= sk.size(); ++k, j = sk.parents[j])
    if (j == ancestor) return true;
  return false;
}

// Lowest common ancestor of the joints (-1 when they share none).
int common_ancestor(const Skeleton& sk, const std::vector<int>& joints) {
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
  auto parent = [&](int j) {
    const int p = sk.parents[j];
    return p >= 0 && p < j ? p : -1;  // topological order; anything else is a root
  };
  std::vector<Role> named(n);
  std::vector<char> excluded(n, 0);  // helpers, props, tails, ears, fingers and below
  for (int j = 0; j < n; ++j) {
    named[j] = role_from_name_sided(sk.names[j], mirror_named_sides);
    const int p = parent(j);
    excluded[j] = is_non_body_name(sk.names[j]) || (p >= 0 && excluded[p]) || !pos(sk, j).allFinite();
  }
  auto skinned = [&](int j) { return j < static_cast<int>(skin_low.size()) && std::isfinite(skin_low[j]); };
  auto low_of = [&](int j) {
    double y = pos(sk, j).y();
    if (skinned(j)) y = std::min(y, skin_low[j]);
    return y;
  };
  double lo = kInf, hi = -kInf;
  std::vector<double> xs;
  for (int j = 0; j < n; ++j) {
    if (excluded[j]) continue;
    lo = std::min(lo, low_of(j));
    hi = std::max(hi, pos(sk, j).y());
    xs.push_back(pos(sk, j).x());
  }
  const double H = hi - lo;
  if (xs.empty() || !(H > 0) || !std::isfinite(H)) return false;
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2), xs.end());
  const double cx = xs[xs.size() / 2];
  auto offset = [&](int j) { return pos(sk, j).x() - cx; };
  auto lateral = [&](int j) { return std::abs(offset(j)) > kLateral * H; };

  std::vector<std::vector<int>> kids(n);
  std::vector<int> size(n, 0);
  for (int j = n - 1; j >= 0; --j) {
    if (excluded[j]) continue;
    size[j] += 1;
    const int p = parent(j);
    if (p >= 0) {
      kids[p].insert(kids[p].begin(), j);
      size[p] += size[j];
    }
  }

  // Limbs: lateral chains off the centre line.
  std::vector<Limb> limbs;
  std::vector<char> in_limb(n, 0);
  for (int r = 0; r < n; ++r) {
    const int p = parent(r);
    if (excluded[r] || !lateral(r) || p < 0 || excluded[p] || lateral(p)) continue;
    Limb l;
    l.x_sign = offset(r) > 0 ? 1.0 : -1.0;
    l.chain.push_back(r);
    while (static_cast<int>(l.chain.size()) < kMaxChain) {
      const int at = l.chain.back();
      const int from = l.chain.size() >= 2 ? l.chain[l.chain.size() - 2] : p;
      const Vec3 incoming = (pos(sk, at) - pos(sk, from)).normalized();
      // Ties: the bone that goes on the way the limb runs (a helper parked
      // back across the body is no hand), then the lower one.
      auto along = [&](int k) {
        const double c = incoming.dot((pos(sk, k) - pos(sk, at)).normalized());
        return std::isfinite(c) ? c : -2.0;
      };
      int best = -1;
      for (int k : kids[at]) {
        if (best < 0 || size[k] > size[best]) {
          best = k;
          continue;
        }
        if (size[k] < size[best]) continue;
        const double ck = along(k), cb = along(best);
        if (ck > cb + kTieCos || (ck >= cb - kTieCos && pos(sk, k).y() < pos(sk, best).y())) best = k;
      }
      if (best < 0) break;
      l.chain.push_back(best);
    }
    if (l.chain.size() < 2) continue;  // a lone lateral joint (pole target, detached foot) is no limb
    // Limbs go out from the centre line; a branch that comes back to it is
    // trunk (a rat's off-centre Shoulders -> Neck -> Head, not an arm).
    if (offset(l.chain.back()) * l.x_sign <= kLateral * H) continue;
    for (int j : l.chain) in_limb[j] = 1;
    limbs.push_back(std::move(l));
  }
  if (limbs.empty()) return false;
  // Detached feet for chains that end in a leaf.
  for (Limb& l : limbs) {
    if (l.chain.size() < 2) continue;
    const int end = l.chain.back(), attach = parent(l.chain.front());
    double length = 0;
    for (size_t i = 1; i < l.chain.size(); ++i) length += (pos(sk, l.chain[i]) - pos(sk, l.chain[i - 1])).norm();
    if (!(length > 0)) continue;
    int best = -1;
    for (int f = 0; f < n; ++f) {
      // A skinned IK control at the leg's end is the foot the skin follows
      // (a wolf's IKBackLeg.L carries the paw; its LowerLeg ends the chain).
      const bool skinned_control = skinned(f) && is_control_name(sk.names[f]) &&
                                   (parent(f) < 0 || !excluded[parent(f)]) && pos(sk, f).allFinite();
      if ((excluded[f] && !skinned_control) || in_limb[f] || !lateral(f) || offset(f) * l.x_sign <= 0) continue;
      if (attach >= 0 && descends_from(sk, f, attach)) continue;
      // An IK target parked on a limb's joint is a copy of that joint, no
      // foot (a humanoid's skinned IK_Foot on its Foot would become its
      // arm's foot, an IK_Hand on the Hand would end the arm as a leg's).
      bool parked = false;
      for (const Limb& o : limbs)
        for (int k : o.chain) parked |= (pos(sk, k) - pos(sk, f)).norm() <= kLateral * H;
      if (parked) continue;
      const Vec3 d = pos(sk, f) - pos(sk, end);
      const double dist = d.norm();
      if (!(dist > 0) || dist > kFootReach * length || -d.y() < kFootBelow * dist) continue;
      if (best < 0 || (skinned(f) && !skinned(best)) ||
          (skinned(f) == skinned(best) && pos(sk, f).y() < pos(sk, best).y()))
        best = f;
    }
    if (best < 0) continue;
    l.chain.push_back(best);
    l.detached = true;
    in_limb[best] = 1;
    // Under an IK control foot, its skinned child (named as no helper) is
    // the toe: a wolf's FFB.L, keyed by the clips under the control.
    if (!excluded[best]) continue;
    int toe = -1;
    for (int c = best + 1; c < n; ++c) {
      if (parent(c) != best || !skinned(c) || is_non_body_name(sk.names[c]) || !pos(sk, c).allFinite()) continue;
      if (toe < 0 || pos(sk, c).y() < pos(sk, toe).y()) toe = c;
    }
    if (toe >= 0) {
      l.chain.push_back(toe);
      in_limb[toe] = 1;
    }
  }
  double floor = kInf;
  for (Limb& l : limbs) {
    for (int j : l.chain) l.low = std::min(l.low, low_of(j));
    // Skeleton only: a leaf's bone reaches on past its head (half a bone).
    const int end = l.chain.back();
    if (skin_low.empty() && l.chain.size() >= 2 && kids[end].empty()) {
      const double dy = pos(sk, end).y() - pos(sk, l.chain[l.chain.size() - 2]).y();
      if (dy < 0) l.low = std::min(l.low, pos(sk, end).y() + 0.5 * dy);
    }
    floor = std::min(floor, l.low);
  }
  if (!(floor - lo <= kNoLegs * H)) return false;
  std::vector<int> legs, arms;
  for (int i = 0; i < static_cast<int>(limbs.size()); ++i) {
    Limb& l = limbs[i];
    l.leg = l.chain.size() >= 2 && l.low - floor <= kReach * H;
    if (l.leg) legs.push_back(i);
  }
  // At most two legs per side: the lowest reaching ones.
  for (double s : {-1.0, 1.0}) {
    std::vector<int> side;
    for (int i : legs)
      if (limbs[i].x_sign == s) side.push_back(i);
    std::sort(side.begin(), side.end(), [&](int a, int b) { return limbs[a].low < limbs[b].low; });
    for (size_t k = 2; k < side.size(); ++k) limbs[side[k]].leg = false;
  }
  std::erase_if(legs, [&](int i) { return !limbs[i].leg; });
  // Legs come in mirrored pairs: with more on one side than on the other,
  // the extra ones are those whose roots the other side mirrors worst (an
  // arm holding a staff to the floor, or an arm a floor-length robe was
  // weighted to, beside two legs), when they hang from high on the trunk,
  // as arms do: kArmAbove x H over every leg of the other side (a
  // quadruped's front leg, beside a raised one, hangs level with its hind
  // legs and stays a leg).
  {
    std::vector<int> side[2];
    for (int i : legs) side[limbs[i].x_sign > 0 ? 1 : 0].push_back(i);
    const int more = side[1].size() > side[0].size() ? 1 : 0;
    const std::vector<int>& light = side[1 - more];
    if (!light.empty() && side[more].size() > light.size()) {
      double top = -kInf;
      for (int k : light) top = std::max(top, pos(sk, limbs[k].chain.front()).y());
      auto mismatch = [&](int i) {
        Vec3 mirrored = pos(sk, limbs[i].chain.front());
        mirrored.x() = 2 * cx - mirrored.x();
        double best = kInf;
        for (int k : light) best = std::min(best, (pos(sk, limbs[k].chain.front()) - mirrored).norm());
        return best;
      };
      std::vector<int> heavy = side[more];
      std::stable_sort(heavy.begin(), heavy.end(), [&](int a, int b) { return mismatch(a) > mismatch(b); });
      size_t extra = heavy.size() - light.size();
      for (int i : heavy)
        if (extra > 0 && pos(sk, limbs[i].chain.front()).y() > top + kArmAbove * H) limbs[i].leg = false, --extra;
      std::erase_if(legs, [&](int i) { return !limbs[i].leg; });
    }
  }
  if (legs.empty()) return false;

  // The head: a body joint named so, else (after the pelvis) the highest
  // central leaf below the pelvis.
  int head = -1;
  for (int j = 0; j < n && head < 0; ++j)
    if (!excluded[j] && !in_limb[j] && named[j].part == BodyPart::kHead) head = j;
  // Front legs: more than two legs, attached toward the head (+Z without one).
  if (legs.size() > 2) {
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
  std::vector<int> hind_roots;
  for (int i : legs)
    if (!limbs[i].front) hind_roots.push_back(limbs[i].chain.front());
  if (hind_roots.empty()) return false;
  const int hind_lca = common_ancestor(sk, hind_roots);
  int hips = hind_lca;
  if (head >= 0) {
    std::vector<int> with_head = hind_roots;
    with_head.push_back(head);
    const int a = common_ancestor(sk, with_head);
    if (a >= 0 && !excluded[a] && !in_limb[a]) hips = a;
  }
  if (hips < 0 || excluded[hips] || in_limb[hips]) return false;
  if (head < 0 || !descends_from(sk, head, hips)) {
    // The highest central leaf; where none is (a head whose only children
    // are ears, eyes or a jaw off the centre line: limbs here), the highest
    // central joint.
    head = -1;
    for (const bool leaf_only : {true, false}) {
      double best = -kInf;
      for (int j = 0; j < n; ++j)
        if (!excluded[j] && !in_limb[j] && j != hips && (kids[j].empty() || !leaf_only) && !lateral(j) &&
            descends_from(sk, j, hips) && pos(sk, j).y() > best) {
          best = pos(sk, j).y();
          head = j;
        }
      if (head >= 0) break;
    }
  }

  std::vector<Role> roles(n);
  roles[hips] = {BodyPart::kHips, Side::kCenter};
  // Spine: the path from the pelvis to the head.
  std::vector<char> trunk(n, 0);
  trunk[hips] = 1;
  if (head >= 0) {
    std::vector<int> path;
    for (int j = parent(head); j >= 0 && j != hips; j = parent(j)) path.insert(path.begin(), j);
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
  auto side_of = [&](const Limb& l) {
    for (int j : l.chain)
      if (named[j].side != Side::kCenter) return named[j].side;
    return l.x_sign > 0 ? Side::kLeft : Side::kRight;  // +X = left, facing +Z
  };
  // Index of the joint named as the first long bone of a limb, or -1.
  auto anchor_of = [&](const Limb& l) {
    for (size_t i = 0; i < l.chain.size(); ++i) {
      const BodyPart p = named[l.chain[i]].part;
      if (p == BodyPart::kThigh || p == BodyPart::kUpperArm) return static_cast<int>(i);
    }
    return -1;
  };
  for (int i : legs) {
    const Limb& l = limbs[i];
    const int m = static_cast<int>(l.chain.size());
    int a = anchor_of(l);
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
    const BodyPart parts[] = {BodyPart::kThigh, BodyPart::kShin, BodyPart::kFoot, BodyPart::kToe};
    const Side side = side_of(l);
    for (int k = a; k < m && k - a < 4; ++k) roles[l.chain[k]] = {parts[k - a], side, l.front};
  }
  // Unnamed arm: does the chain start at a clavicle (the upper arm is
  // index 1) or at the upper arm (0)? A clavicle is shorter than the upper
  // arm after it; an upper arm is no shorter than its forearm (CMU 1.55x, a
  // T-Rex's FrontLeg 0.83x its FrontUpLeg, the demon's
  // Shoulder 0.31x).
  auto upper_arm_in_chain = [&](const std::vector<int>& chain) {
    if (chain.size() < 4) return 0;
    auto bone = [&](size_t i) { return (pos(sk, chain[i + 1]) - pos(sk, chain[i])).norm(); };
    return bone(0) < bone(1) ? 1 : 0;
  };
  // Arms: limbs that do not reach the floor, on the trunk, not pointing up;
  // one per side (the longest chain).
  for (double s : {-1.0, 1.0}) {
    int best = -1;
    for (int i = 0; i < static_cast<int>(limbs.size()); ++i) {
      const Limb& l = limbs[i];
      if (l.leg || l.x_sign != s || l.chain.size() < 2 || l.detached) continue;
      // On the trunk, or on a central joint (a clavicle too close to the
      // centre line to be lateral) at most two steps from it.
      int attach = parent(l.chain.front());
      for (int step = 0; step < 2 && attach >= 0 && !trunk[attach] && !in_limb[attach]; ++step) attach = parent(attach);
      if (attach < 0 || !trunk[attach]) continue;
      const Vec3 reach = pos(sk, l.chain.back()) - pos(sk, l.chain.front());
      if (reach.y() > kArmUp * H && reach.y() > kArmSteep * reach.norm()) continue;
      if (best < 0 || l.chain.size() > limbs[best].chain.size()) best = i;
    }
    if (best < 0) continue;
    const Limb& l = limbs[best];
    const int m = static_cast<int>(l.chain.size());
    int a = anchor_of(l);
    if (a < 0) a = upper_arm_in_chain(l.chain);
    const Side side = side_of(l);
    if (a > 0) roles[l.chain[a - 1]] = {BodyPart::kShoulder, side};
    const int p = parent(l.chain.front());
    if (a == 0 && p >= 0 && !trunk[p] && named[p].part == BodyPart::kShoulder) roles[p] = {BodyPart::kShoulder, side};
    const BodyPart parts[] = {BodyPart::kUpperArm, BodyPart::kForearm, BodyPart::kHand};
    // A forearm whose far end fans out into three or more bones has no hand
    // bone: those children are fingers (none of them is the hand). Twist
    // and corrective bones along the forearm (an Unreal lowerarm) do not
    // count, and a child named a hand is the hand.
    int arm_parts = 3;
    if (a + 2 < m && named[l.chain[a + 2]].part != BodyPart::kHand) {
      const int forearm = l.chain[a + 1];
      double reach = 0;
      for (int k : kids[forearm]) reach = std::max(reach, (pos(sk, k) - pos(sk, forearm)).norm());
      int at_wrist = 0;
      for (int k : kids[forearm]) at_wrist += (pos(sk, k) - pos(sk, forearm)).norm() >= 0.8 * reach ? 1 : 0;
      if (reach > 0 && at_wrist >= 3) arm_parts = 2;
    }
    for (int k = a; k < m && k - a < arm_parts; ++k) roles[l.chain[k]] = {parts[k - a], side};
  }
  sk.roles = std::move(roles);
  return true;
}

}  // namespace rig
