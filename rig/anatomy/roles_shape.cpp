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

#include "rig/anatomy/doubled_limbs.h"
#include "rig/anatomy/role_names.h"
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
  bool doubled = false;  // lies on another limb: a helper beside it (doubled_limbs.h)
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
bool read_names_and_extent(BodyFrame& f, bool mirror_named_sides) {
  const Skeleton& sk = f.sk;
  const int n = f.n;
  f.named.assign(n, Role{});
  f.excluded.assign(n, 0);
  for (int j = 0; j < n; ++j) {
    f.named[j] = role_from_name_sided(sk.names[j], mirror_named_sides);
    const int p = f.parent(j);
    f.excluded[j] = is_non_body_name(sk.names[j]) || (p >= 0 && f.excluded[p]) || !pos(sk, j).allFinite();
  }
  double lo = kInf, hi = -kInf;
  std::vector<double> xs;
  for (int j = 0; j < n; ++j) {
    if (f.excluded[j]) continue;
    lo = std::min(lo, f.low_of(j));
    hi = std::max(hi, pos(sk, j).y());
    xs.push_back(pos(sk, j).x());
  }
  const double H = hi - lo;
  if (xs.empty() || !(H > 0) || !std::isfinite(H)) return false;
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2), xs.end());
  f.lo = lo;
  f.H = H;
  f.cx = xs[xs.size() / 2];
  return true;
}

// The body tree: each body joint's body children and its subtree's size.
void build_body_tree(BodyFrame& f) {
  const int n = f.n;
  f.kids.assign(n, {});
  f.size.assign(n, 0);
  for (int j = n - 1; j >= 0; --j) {
    if (f.excluded[j]) continue;
    f.size[j] += 1;
    const int p = f.parent(j);
    if (p >= 0) {
      f.kids[p].insert(f.kids[p].begin(), j);
      f.size[p] += f.size[j];
    }
  }
}

// Where a limb's chain goes on from `at` (reached from `from`): the child
// with the most body descendants; -1 at a leaf.
int next_in_chain(const BodyFrame& f, int from, int at) {
  const Skeleton& sk = f.sk;
  const Vec3 incoming = (pos(sk, at) - pos(sk, from)).normalized();
  // Ties: the bone that goes on the way the limb runs (a helper parked
  // back across the body is no hand), then the lower one.
  auto along = [&](int k) {
    const double c = incoming.dot((pos(sk, k) - pos(sk, at)).normalized());
    return std::isfinite(c) ? c : -2.0;
  };
  int best = -1;
  for (int k : f.kids[at]) {
    if (best < 0 || f.size[k] > f.size[best]) {
      best = k;
      continue;
    }
    if (f.size[k] < f.size[best]) continue;
    const double ck = along(k), cb = along(best);
    if (ck > cb + kTieCos || (ck >= cb - kTieCos && pos(sk, k).y() < pos(sk, best).y())) best = k;
  }
  return best;
}

// Limbs: the chains from lateral joints hung on the centre line that go on
// away from it; marks their joints in `in_limb`.
std::vector<Limb> find_limbs(const BodyFrame& f, std::vector<char>& in_limb) {
  std::vector<Limb> limbs;
  for (int r = 0; r < f.n; ++r) {
    const int p = f.parent(r);
    if (f.excluded[r] || !f.lateral(r) || p < 0 || f.excluded[p] || f.lateral(p)) continue;
    Limb l;
    l.x_sign = f.offset(r) > 0 ? 1.0 : -1.0;
    l.chain.push_back(r);
    while (static_cast<int>(l.chain.size()) < kMaxChain) {
      const int at = l.chain.back();
      const int from = l.chain.size() >= 2 ? l.chain[l.chain.size() - 2] : p;
      const int best = next_in_chain(f, from, at);
      if (best < 0) break;
      l.chain.push_back(best);
    }
    if (l.chain.size() < 2) continue;  // a lone lateral joint (pole target, detached foot) is no limb
    // Limbs go out from the centre line; a branch that comes back to it is
    // trunk (a rat's off-centre Shoulders -> Neck -> Head, not an arm).
    if (f.offset(l.chain.back()) * l.x_sign <= kLateral * f.H) continue;
    for (int j : l.chain) in_limb[j] = 1;
    limbs.push_back(std::move(l));
  }
  return limbs;
}

// The detached foot of a limb's chain: the lowest fitting joint (skinned
// first) outside the limb's attachment subtree, below the chain's end and
// within reach of it, not parked on a limb's joint; -1 when none fits.
int find_detached_foot(const BodyFrame& f, const Limb& l, const std::vector<Limb>& limbs,
                       const std::vector<char>& in_limb) {
  const Skeleton& sk = f.sk;
  const int end = l.chain.back(), attach = f.parent(l.chain.front());
  double length = 0;
  for (size_t i = 1; i < l.chain.size(); ++i) length += (pos(sk, l.chain[i]) - pos(sk, l.chain[i - 1])).norm();
  if (!(length > 0)) return -1;
  int best = -1;
  for (int foot = 0; foot < f.n; ++foot) {
    // A skinned IK control at the leg's end is the foot the skin follows
    // (a wolf's IKBackLeg.L carries the paw; its LowerLeg ends the chain).
    const bool skinned_control = f.skinned(foot) && is_control_name(sk.names[foot]) &&
                                 (f.parent(foot) < 0 || !f.excluded[f.parent(foot)]) && pos(sk, foot).allFinite();
    if ((f.excluded[foot] && !skinned_control) || in_limb[foot] || !f.lateral(foot) || f.offset(foot) * l.x_sign <= 0)
      continue;
    if (attach >= 0 && descends_from(sk, foot, attach)) continue;
    // An IK target parked on a limb's joint is a copy of that joint, no
    // foot (a humanoid's skinned IK_Foot on its Foot would become its
    // arm's foot, an IK_Hand on the Hand would end the arm as a leg's).
    bool parked = false;
    for (const Limb& o : limbs)
      for (int k : o.chain) parked |= (pos(sk, k) - pos(sk, foot)).norm() <= kLateral * f.H;
    if (parked) continue;
    const Vec3 d = pos(sk, foot) - pos(sk, end);
    const double dist = d.norm();
    if (!(dist > 0) || dist > kFootReach * length || -d.y() < kFootBelow * dist) continue;
    if (best < 0 || (f.skinned(foot) && !f.skinned(best)) ||
        (f.skinned(foot) == f.skinned(best) && pos(sk, foot).y() < pos(sk, best).y()))
      best = foot;
  }
  return best;
}

// The toe under an IK control foot: its lowest skinned child named as no
// helper (a wolf's FFB.L, keyed by the clips under the control); -1 when none.
int find_toe_under_control(const BodyFrame& f, int control) {
  const Skeleton& sk = f.sk;
  int toe = -1;
  for (int c = control + 1; c < f.n; ++c) {
    if (f.parent(c) != control || !f.skinned(c) || is_non_body_name(sk.names[c]) || !pos(sk, c).allFinite()) continue;
    if (toe < 0 || pos(sk, c).y() < pos(sk, toe).y()) toe = c;
  }
  return toe;
}

// Chains that end in a leaf adopt their detached foot (and the toe under a control foot).
void adopt_detached_feet(const BodyFrame& f, std::vector<Limb>& limbs, std::vector<char>& in_limb) {
  for (Limb& l : limbs) {
    if (l.chain.size() < 2) continue;
    const int best = find_detached_foot(f, l, limbs, in_limb);
    if (best < 0) continue;
    l.chain.push_back(best);
    l.detached = true;
    in_limb[best] = 1;
    if (!f.excluded[best]) continue;
    const int toe = find_toe_under_control(f, best);
    if (toe >= 0) {
      l.chain.push_back(toe);
      in_limb[toe] = 1;
    }
  }
}

// Each limb's lowest point (joints, their skin, or half a leaf bone without
// skin); returns the lowest of them, the floor.
double measure_limb_lows(const BodyFrame& f, std::vector<Limb>& limbs) {
  const Skeleton& sk = f.sk;
  double floor = kInf;
  for (Limb& l : limbs) {
    for (int j : l.chain) l.low = std::min(l.low, f.low_of(j));
    // Skeleton only: a leaf's bone reaches on past its head (half a bone).
    const int end = l.chain.back();
    if (f.skin_low.empty() && l.chain.size() >= 2 && f.kids[end].empty()) {
      const double dy = pos(sk, end).y() - pos(sk, l.chain[l.chain.size() - 2]).y();
      if (dy < 0) l.low = std::min(l.low, pos(sk, end).y() + 0.5 * dy);
    }
    floor = std::min(floor, l.low);
  }
  return floor;
}

// Legs that double another leg (a helper skeleton beside the real one) are no
// legs, nor arms.
void drop_doubled_legs(const BodyFrame& f, std::vector<Limb>& limbs, std::vector<int>& legs) {
  std::vector<LimbChain> chains;
  for (int i : legs) {
    const int p = f.parent(limbs[i].chain.front());
    int skinned = 0;
    for (int j : limbs[i].chain) skinned += f.skinned(j);
    chains.push_back({limbs[i].chain, limbs[i].x_sign, p >= 0 ? f.size[p] : 0, skinned});
  }
  const std::vector<char> doubled = doubled_limbs(f.sk, chains, f.H);
  for (size_t k = 0; k < legs.size(); ++k)
    if (doubled[k]) limbs[legs[k]].leg = false, limbs[legs[k]].doubled = true;
  std::erase_if(legs, [&](int i) { return limbs[i].doubled; });
}

// Legs: limbs reaching within kReach x H of the floor, no double of another,
// the two lowest per side at most.
std::vector<int> legs_reaching_floor(const BodyFrame& f, std::vector<Limb>& limbs, double floor) {
  std::vector<int> legs;
  for (int i = 0; i < static_cast<int>(limbs.size()); ++i) {
    Limb& l = limbs[i];
    l.leg = l.chain.size() >= 2 && l.low - floor <= kReach * f.H;
    if (l.leg) legs.push_back(i);
  }
  drop_doubled_legs(f, limbs, legs);
  // At most two legs per side: the lowest reaching ones.
  for (double s : {-1.0, 1.0}) {
    std::vector<int> side;
    for (int i : legs)
      if (limbs[i].x_sign == s) side.push_back(i);
    std::sort(side.begin(), side.end(), [&](int a, int b) { return limbs[a].low < limbs[b].low; });
    for (size_t k = 2; k < side.size(); ++k) limbs[side[k]].leg = false;
  }
  std::erase_if(legs, [&](int i) { return !limbs[i].leg; });
  return legs;
}

// Legs come in mirrored pairs: with more on one side than on the other,
// the extra ones are those whose roots the other side mirrors worst (an
// arm holding a staff to the floor, or an arm a floor-length robe was
// weighted to, beside two legs), when they hang from high on the trunk,
// as arms do: kArmAbove x H over every leg of the other side (a
// quadruped's front leg, beside a raised one, hangs level with its hind
// legs and stays a leg). Those are no legs.
void drop_unpaired_high_legs(const BodyFrame& f, std::vector<Limb>& limbs, std::vector<int>& legs) {
  const Skeleton& sk = f.sk;
  std::vector<int> side[2];
  for (int i : legs) side[limbs[i].x_sign > 0 ? 1 : 0].push_back(i);
  const int more = side[1].size() > side[0].size() ? 1 : 0;
  const std::vector<int>& light = side[1 - more];
  if (light.empty() || side[more].size() <= light.size()) return;
  double top = -kInf;
  for (int k : light) top = std::max(top, pos(sk, limbs[k].chain.front()).y());
  auto mismatch = [&](int i) {
    Vec3 mirrored = pos(sk, limbs[i].chain.front());
    mirrored.x() = 2 * f.cx - mirrored.x();
    double best = kInf;
    for (int k : light) best = std::min(best, (pos(sk, limbs[k].chain.front()) - mirrored).norm());
    return best;
  };
  std::vector<int> heavy = side[more];
  std::stable_sort(heavy.begin(), heavy.end(), [&](int a, int b) { return mismatch(a) > mismatch(b); });
  size_t extra = heavy.size() - light.size();
  for (int i : heavy)
    if (extra > 0 && pos(sk, limbs[i].chain.front()).y() > top + kArmAbove * f.H) limbs[i].leg = false, --extra;
  std::erase_if(legs, [&](int i) { return !limbs[i].leg; });
}

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
