#include "detect/body.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>
#include <utility>

#include "detect/geometry/segment_distance.h"
#include "rig/anatomy/name_tokens.h"
#include "rig/anatomy/skin_queries.h"
#include "rig/anatomy/roles.h"

namespace detect {

namespace {

// Thighs whose chains end within this fraction of the skeleton's height of
// the lowest one are the legs the rig stands on (a T-Rex's small arms are
// named legs too, and end far above the floor).
constexpr double kLegTolerance = 0.1;

// A chain's first bone within 45 deg of the line across the hind thighs
// runs sideways: a wing or a leg, no tail (cos 45 deg).
constexpr double kSideways = 0.7071;

bool is_limb_part(rig::BodyPart p) {
  using rig::BodyPart;
  return p == BodyPart::kShoulder || p == BodyPart::kUpperArm || p == BodyPart::kForearm ||
         p == BodyPart::kHand || p == BodyPart::kThigh || p == BodyPart::kShin ||
         p == BodyPart::kFoot || p == BodyPart::kToe;
}

bool is_trunk_part(rig::BodyPart p) {
  return p == rig::BodyPart::kHips || p == rig::BodyPart::kSpine;
}

bool is_ancestor(const rig::Skeleton& sk, int ancestor, int j) {
  for (int x = j; x >= 0; x = sk.parents[x]) {
    if (x == ancestor) return true;
  }
  return false;
}

int common_ancestor(const rig::Skeleton& sk, int a, int b) {
  for (int x = a; x >= 0; x = sk.parents[x]) {
    if (is_ancestor(sk, x, b)) return x;
  }
  return -1;
}

// How low each joint's subtree reaches (its joints' bind y), and the top
// of the skeleton.
struct Reach {
  std::vector<double> lowest;  // per joint
  double top = -std::numeric_limits<double>::infinity();
};

Reach subtree_reach(const rig::Skeleton& sk) {
  const int n = sk.size();
  Reach r;
  r.lowest.assign(n, std::numeric_limits<double>::infinity());
  for (int j = n - 1; j >= 0; --j) {  // children after parents: fold upwards
    const double y = joint_position(sk, j).y();
    r.top = std::max(r.top, y);
    r.lowest[j] = std::min(r.lowest[j], y);
    if (sk.parents[j] >= 0) r.lowest[sk.parents[j]] = std::min(r.lowest[sk.parents[j]], r.lowest[j]);
  }
  return r;
}

// The thighs that start a leg: those not inside another thigh's chain.
std::vector<int> outermost_thighs(const rig::Skeleton& sk) {
  std::vector<int> thighs;
  for (int j = 0; j < sk.size(); ++j) {
    if (sk.roles[j].part != rig::BodyPart::kThigh) continue;
    bool nested = false;
    for (int x = sk.parents[j]; x >= 0; x = sk.parents[x]) nested |= sk.roles[x].part == rig::BodyPart::kThigh;
    if (!nested) thighs.push_back(j);
  }
  return thighs;
}

// A foot an IK rig hangs elsewhere (under the root, not below its shin)
// is where its leg reaches: the Wolf's front shins end at the knee, their
// feet stand on the floor, and without them the front legs read as no
// legs. Each foot or toe that no thigh holds counts for the one thigh of
// its side and end whose chain ends nearest it (two thighs of a side with
// no end told apart, an arm named a leg beside the real one: the leg's).
void reach_detached_feet(const rig::Skeleton& sk, const std::vector<int>& thighs, std::vector<double>& lowest) {
  const int n = sk.size();
  std::vector<rig::Vec3> chain_end(thighs.size());
  for (size_t i = 0; i < thighs.size(); ++i) {
    chain_end[i] = joint_position(sk, thighs[i]);
    for (int j = 0; j < n; ++j)
      if (is_ancestor(sk, thighs[i], j) && joint_position(sk, j).y() < chain_end[i].y()) chain_end[i] = joint_position(sk, j);
  }
  for (int f = 0; f < n; ++f) {
    const rig::BodyPart part = sk.roles[f].part;
    if ((part != rig::BodyPart::kFoot && part != rig::BodyPart::kToe) || sk.roles[f].side == rig::Side::kCenter) continue;
    bool held = false;
    for (int x = sk.parents[f]; x >= 0 && !held; x = sk.parents[x]) held = sk.roles[x].part == rig::BodyPart::kThigh;
    if (held) continue;
    int nearest = -1;
    for (size_t i = 0; i < thighs.size(); ++i) {
      const rig::Role& t = sk.roles[thighs[i]];
      if (t.side != sk.roles[f].side || t.front != sk.roles[f].front) continue;
      if (nearest < 0 || (chain_end[i] - joint_position(sk, f)).norm() < (chain_end[nearest] - joint_position(sk, f)).norm())
        nearest = static_cast<int>(i);
    }
    if (nearest >= 0) lowest[thighs[nearest]] = std::min(lowest[thighs[nearest]], joint_position(sk, f).y());
  }
}

// Legs: thighs (not inside another thigh's chain) whose chains reach
// lowest, within kLegTolerance of the skeleton's height.
std::vector<int> standing_legs(const rig::Skeleton& sk) {
  Reach reach = subtree_reach(sk);
  std::vector<double>& lowest = reach.lowest;
  const double top = reach.top;
  const std::vector<int> thighs = outermost_thighs(sk);
  reach_detached_feet(sk, thighs, lowest);
  double ground = std::numeric_limits<double>::infinity();
  for (int j : thighs) ground = std::min(ground, lowest[j]);
  std::vector<int> legs;
  for (int j : thighs) {
    if (lowest[j] <= ground + kLegTolerance * (top - ground)) legs.push_back(j);
  }
  return legs;
}

// The hind legs: all of them, or with more than two and a head, the half
// farther from the head.
std::vector<int> hind_legs_of(const rig::Skeleton& sk, const std::vector<int>& legs, int head) {
  std::vector<int> hind = legs;
  if (legs.size() > 2 && head >= 0) {  // four legs: the pair farther from the head
    const rig::Vec3 h = joint_position(sk, head);
    std::stable_sort(hind.begin(), hind.end(), [&](int a, int b) {
      return (joint_position(sk, a) - h).norm() > (joint_position(sk, b) - h).norm();
    });
    hind.resize(legs.size() / 2);
  }
  return hind;
}

// The pelvis: the hind legs' common ancestor (the parent of a lone one),
// moved to a deforming joint; the rig's own hips without legs to read.
int find_pelvis(const rig::Skeleton& sk, const std::vector<char>& deforming, const std::vector<int>& hind, int head) {
  const int n = sk.size();
  int pelvis = -1;
  if (hind.size() == 1) pelvis = sk.parents[hind[0]];
  for (size_t i = 1; i < hind.size(); ++i) {
    pelvis = common_ancestor(sk, i == 1 ? hind[0] : pelvis, hind[i]);
    if (pelvis < 0) break;
  }
  // A legs' common ancestor that carries no skin (a Quaternius Witch's
  // `Root` on the floor, its thighs hung from it) is no pelvis: the first
  // skinned joint from it toward the head is (`Hips`). Else walk up.
  if (pelvis >= 0 && !deforming[pelvis] && head >= 0 && is_ancestor(sk, pelvis, head)) {
    int first = -1;
    for (int x = head; x >= 0 && x != pelvis; x = sk.parents[x])
      if (deforming[x]) first = x;
    if (first >= 0) pelvis = first;
  }
  while (pelvis >= 0 && !deforming[pelvis]) pelvis = sk.parents[pelvis];
  if (pelvis < 0) {  // no legs to read: the rig's own hips
    for (int j = 0; j < n && pelvis < 0; ++j) {
      if (sk.roles[j].part == rig::BodyPart::kHips) pelvis = j;
    }
  }
  return pelvis;
}

// What each joint leads to: per joint, whether it or a descendant is
// head or neck, a standing leg's thigh, any role, trunk, a limb bone.
struct Leads {
  std::vector<char> to_head, to_leg, to_role, to_trunk, to_limb;
};

Leads what_joints_lead_to(const rig::Skeleton& sk, const std::vector<int>& legs) {
  const int n = sk.size();
  std::vector<char> to_head(n, 0), to_leg(n, 0), to_role(n, 0), to_trunk(n, 0), to_limb(n, 0);
  for (int j = n - 1; j >= 0; --j) {
    const rig::BodyPart part = sk.roles[j].part;
    to_head[j] |= part == rig::BodyPart::kHead || part == rig::BodyPart::kNeck;
    to_leg[j] |= std::find(legs.begin(), legs.end(), j) != legs.end();
    to_role[j] |= part != rig::BodyPart::kNone;
    to_trunk[j] |= is_trunk_part(part) || part == rig::BodyPart::kHead || part == rig::BodyPart::kNeck;
    to_limb[j] |= is_limb_part(part);
    const int p = sk.parents[j];
    if (p < 0) continue;
    to_head[p] |= to_head[j];
    to_leg[p] |= to_leg[j];
    to_role[p] |= to_role[j];
    to_trunk[p] |= to_trunk[j];
    to_limb[p] |= to_limb[j];
  }
  return {std::move(to_head), std::move(to_leg), std::move(to_role), std::move(to_trunk), std::move(to_limb)};
}

// The zone: the pelvis and the trunk joints below it that lead to
// neither the head nor a leg, plus a joint named hips beside it (a
// Quaternius humanoid's `Hips` under `Body`, where the thighs hang).
void mark_pelvis_zone(const rig::Skeleton& sk, const std::vector<char>& deforming,
                      const std::vector<std::vector<int>>& children, const Leads& leads, int pelvis,
                      BodyReading& out) {
  std::vector<int> stack = {pelvis};
  while (!stack.empty()) {
    const int j = stack.back();
    stack.pop_back();
    if (deforming[j]) out.pelvis_zone[j] = 1;
    for (int c : children[j]) {
      const rig::BodyPart part = sk.roles[c].part;
      if (leads.to_leg[c] || (part == rig::BodyPart::kSpine && leads.to_head[c])) continue;
      if (is_trunk_part(part)) stack.push_back(c);
    }
  }
}

// The spine's first joint toward the head, when it sits below the hind
// thighs' roots, is the pelvis' bottom (a Quaternius Bunny's `Hips`
// under `Body`, behind and below the hip sockets): a tail there hangs
// from the pelvis. A spine that rises from the pelvis (a Mixamo
// `Spine`) or runs along a quadruped's back stays above them.
void add_low_spine_to_zone(const rig::Skeleton& sk, const std::vector<char>& deforming, int pelvis, int head,
                           const std::vector<int>& hind, BodyReading& out) {
  if (head >= 0 && is_ancestor(sk, pelvis, head) && head != pelvis && !hind.empty()) {
    int next = head;
    while (sk.parents[next] >= 0 && sk.parents[next] != pelvis) next = sk.parents[next];
    double sockets = std::numeric_limits<double>::infinity();
    for (int leg : hind) sockets = std::min(sockets, joint_position(sk, leg).y());
    if (sk.parents[next] == pelvis && deforming[next] && is_trunk_part(sk.roles[next].part) &&
        joint_position(sk, next).y() < sockets)
      out.pelvis_zone[next] = 1;
  }
}

// Where the pelvis ends on an upright body (the head farther above the
// pelvis than beside it): the height of the trunk joint just above the zone.
void read_pelvis_top(const rig::Skeleton& sk, int pelvis, int head, BodyReading& out) {
  if (head >= 0 && is_ancestor(sk, pelvis, head)) {
    const rig::Vec3 up = joint_position(sk, head) - joint_position(sk, pelvis);
    if (up.y() > Eigen::Vector2d(up.x(), up.z()).norm()) {
      int above = head;  // the trunk joint just above the zone
      for (int x = sk.parents[head]; x >= 0 && !out.pelvis_zone[x]; x = sk.parents[x]) above = x;
      out.pelvis_top = joint_position(sk, above).y();
    }
  }
}

// Where a grown tail may hang: the zone, plus a role-less leaf bone
// hanging from it that leads nowhere (the rump bone `Back` a rat's or
// T-Rex's tail hung from before a rigger dropped the tail). Only leaves:
// a bone with children there is an existing tail or skirt chain; props,
// helpers and named tail bones stay out. Not body bones for ownership:
// a leaf bone that drives a whole appendage is that appendage's rig.
void mark_tail_roots(const rig::Skeleton& sk, const std::vector<char>& deforming, BodyReading& out) {
  const int n = sk.size();
  out.tail_roots = out.pelvis_zone;
  const std::vector<bool> prop = rig::prop_joint_mask(sk);
  std::vector<char> has_deforming_child(n, 0);
  for (int j = 0; j < n; ++j)
    if (sk.parents[j] >= 0 && deforming[j]) has_deforming_child[sk.parents[j]] = 1;
  for (int j = 0; j < n; ++j) {
    const int p = sk.parents[j];
    if (p < 0 || !out.pelvis_zone[p] || !deforming[j] || has_deforming_child[j] || prop[j]) continue;
    if (sk.roles[j].part != rig::BodyPart::kNone || rig::name_has_token(sk.names[j], "tail")) continue;
    out.tail_roots[j] = 1;
  }
}

// Hind leg roots: the joints between the pelvis and each hind thigh.
void mark_hind_leg_roots(const rig::Skeleton& sk, int pelvis, const std::vector<int>& hind, BodyReading& out) {
  for (int leg : hind) {
    for (int x = sk.parents[leg]; x >= 0 && x != pelvis && is_ancestor(sk, pelvis, x); x = sk.parents[x]) {
      out.hind_leg_root[x] = 1;
    }
  }
}

// Per joint: body bone, arm bone, limb bone (a role-less joint counts as
// limb when it leads to a limb and not to the trunk).
void mark_body_limb_arm(const rig::Skeleton& sk, const Leads& leads, BodyReading& out) {
  for (int j = 0; j < sk.size(); ++j) {
    out.body[j] = leads.to_role[j] || out.hind_leg_root[j] || out.pelvis_zone[j];
    const rig::BodyPart part = sk.roles[j].part;
    out.arm[j] = part == rig::BodyPart::kShoulder || part == rig::BodyPart::kUpperArm ||
                 part == rig::BodyPart::kForearm || part == rig::BodyPart::kHand;
    out.limb[j] = is_limb_part(sk.roles[j].part) || out.hind_leg_root[j] ||
                  (sk.roles[j].part == rig::BodyPart::kNone && leads.to_limb[j] && !leads.to_trunk[j]);
  }
}

// The line across the two hind thighs' joints (zero without a pair), and
// with it the hip midpoint, direction and half width in `out`.
rig::Vec3 read_hip_line(const rig::Skeleton& sk, const std::vector<int>& hind, BodyReading& out) {
  rig::Vec3 across = rig::Vec3::Zero();
  if (hind.size() == 2) {
    const rig::Vec3 a = joint_position(sk, hind[0]), b = joint_position(sk, hind[1]);
    across = (a - b).normalized();
    if (across.allFinite()) {
      out.hip_mid = 0.5 * (a + b);
      out.hip_across = across;
      out.hip_half_width = 0.5 * (a - b).norm();
    }
  }
  if (!across.allFinite()) across.setZero();
  return across;
}

// Existing tail bones: a deforming non-body chain of two or more joints
// hanging from the pelvis zone that leads away from the head (some joint
// of it lies farther from the head than its first joint). Rump bones that
// run forward along the trunk (a Quaternius rat's Hips -> Torso) are not a
// tail and must not stop the real tail from getting its chain; nor do
// chains whose first bone runs sideways, across the hips (wings on a
// bird's pelvis, a spider's hind legs): a tail leaves the pelvis backwards.
void find_tail_bones(const rig::Skeleton& sk, const std::vector<char>& deforming,
                     const std::vector<std::vector<int>>& children, int head, const rig::Vec3& across,
                     BodyReading& out) {
  const int n = sk.size();
  for (int j = 0; j < n; ++j) {
    const int p = sk.parents[j];
    if (p < 0 || !out.pelvis_zone[p] || out.body[j] || !deforming[j]) continue;
    int next = -1;
    for (int c : children[j])
      if (next < 0 && deforming[c] && !out.body[c]) next = c;
    if (next < 0) continue;
    const rig::Vec3 first_bone = (joint_position(sk, next) - joint_position(sk, j)).normalized();
    if (first_bone.allFinite() && std::abs(first_bone.dot(across)) > kSideways) continue;
    if (head >= 0) {
      const rig::Vec3 h = joint_position(sk, head);
      const double first = (joint_position(sk, j) - h).norm();
      bool away = false;
      for (int x = 0; x < n && !away; ++x)
        away = x != j && is_ancestor(sk, j, x) && (joint_position(sk, x) - h).norm() > first;
      if (!away) continue;
    }
    for (int x = 0; x < n; ++x) {
      if (is_ancestor(sk, j, x)) out.tail_bones.push_back(x);
    }
  }
  std::sort(out.tail_bones.begin(), out.tail_bones.end());
  out.tail_bones.erase(std::unique(out.tail_bones.begin(), out.tail_bones.end()), out.tail_bones.end());
}

}  // namespace

BodyReading read_body(const rig::Skeleton& sk, const std::vector<char>& deforming) {
  const int n = sk.size();
  assert(static_cast<int>(sk.roles.size()) == n && static_cast<int>(deforming.size()) == n);
  BodyReading out;
  out.pelvis_zone.assign(n, 0);
  out.tail_roots.assign(n, 0);
  out.hind_leg_root.assign(n, 0);
  out.body.assign(n, 0);
  out.limb.assign(n, 0);
  out.arm.assign(n, 0);
  std::vector<std::vector<int>> children(n);
  for (int j = 0; j < n; ++j) {
    if (sk.parents[j] >= 0) children[sk.parents[j]].push_back(j);
  }

  const std::vector<int> legs = standing_legs(sk);
  out.legs = static_cast<int>(legs.size());
  int head = -1;
  for (int j = 0; j < n && head < 0; ++j) {
    if (sk.roles[j].part == rig::BodyPart::kHead) head = j;
  }
  const std::vector<int> hind = hind_legs_of(sk, legs, head);
  out.hind_legs = static_cast<int>(hind.size());
  const int pelvis = find_pelvis(sk, deforming, hind, head);
  out.pelvis = pelvis;

  const Leads leads = what_joints_lead_to(sk, legs);
  if (pelvis >= 0) {
    mark_pelvis_zone(sk, deforming, children, leads, pelvis, out);
    add_low_spine_to_zone(sk, deforming, pelvis, head, hind, out);
    read_pelvis_top(sk, pelvis, head, out);
    mark_tail_roots(sk, deforming, out);
    mark_hind_leg_roots(sk, pelvis, hind, out);
  }
  mark_body_limb_arm(sk, leads, out);
  const rig::Vec3 across = read_hip_line(sk, hind, out);
  find_tail_bones(sk, deforming, children, head, across, out);
  return out;
}

Ownership ownership(const rig::Skin& skin, const std::vector<int>& vertices,
                    const BodyReading& body, int joint_count) {
  Ownership o;
  std::vector<int> count(joint_count, 0);
  for (int v : vertices) {
    int best = -1;
    double w = -1.0;
    for (const auto& i : skin.influences[v]) {
      if (i.joint < 0 || i.joint >= joint_count) continue;
      if (i.weight > w || (i.weight == w && i.joint < best)) {
        w = i.weight;
        best = i.joint;
      }
    }
    if (best < 0) continue;
    ++count[best];
    ++o.vertices;
  }
  if (o.vertices == 0) return o;
  int non_body = 0, limb = 0, arm = 0, top_nb = 0;
  for (int j = 0; j < joint_count; ++j) {
    if (count[j] == 0) continue;
    if (o.top_joint < 0 || count[j] > count[o.top_joint]) o.top_joint = j;
    const bool is_body = j < static_cast<int>(body.body.size()) && body.body[j];
    if (!is_body) {
      non_body += count[j];
      if (count[j] > top_nb) {
        top_nb = count[j];
        o.top_non_body = j;
      }
    }
    if (j < static_cast<int>(body.limb.size()) && body.limb[j]) limb += count[j];
    if (j < static_cast<int>(body.arm.size()) && body.arm[j]) arm += count[j];
  }
  o.top_fraction = static_cast<double>(count[o.top_joint]) / o.vertices;
  o.non_body = static_cast<double>(non_body) / o.vertices;
  o.limb = static_cast<double>(limb) / o.vertices;
  o.arm = static_cast<double>(arm) / o.vertices;
  return o;
}

}  // namespace detect
