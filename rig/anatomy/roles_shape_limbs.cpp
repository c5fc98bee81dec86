// The limb-finding steps of the shape-role reading (roles_shape_frame.h):
// the body joints and the model's extent, the body tree, the limbs (with
// detached feet adopted), and which of them are legs.
#include <algorithm>
#include <cmath>

#include "rig/anatomy/doubled_limbs.h"
#include "rig/anatomy/roles_shape_frame.h"

namespace rig::shape_roles {

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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace rig::shape_roles
