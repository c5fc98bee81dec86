#include "detect/region_evaluation.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "detect/attachment.h"
#include "detect/geometry/bone_distance.h"
#include "detect/classify.h"
#include "detect/rewrite/rigid.h"
#include "detect/geometry/shape.h"
#include "detect/curled_tail.h"
#include "detect/tail_root.h"
#include "detect/format.h"
#include "rig/anatomy/skin_queries.h"
#include "rig/anatomy/roles.h"

namespace detect {

namespace {

// Why a region got its class: the measured numbers against the thresholds.
std::string explain(const Context& x, const RegionFacts& f, const Region& r) {
  const ClassifyParams& p = x.params.classify;
  std::string s =
      "hangs from " + (r.attachment >= 0 ? x.sk.names[r.attachment] + " (" +
                                               rig::role_name(x.sk.roles[r.attachment]) + ")"
                                         : std::string("nothing"));
  s += x.body.pelvis_zone.empty() || r.attachment < 0 || !x.body.pelvis_zone[r.attachment]
           ? ""
           : ", pelvis zone";
  s += "; centroid/reach " + fmt("%.2f", f.centroid_ratio) +
       (f.centroid_ratio >= p.protrusion ? " >= " : " < ") + fmt("%.2f", p.protrusion) +
       (f.centroid_ratio >= p.protrusion ? " (protrudes)" : " (wraps the body)");
  s += "; elongation " + ratio_text(f.elongation) +
       (f.elongation >= p.min_elongation ? " >= " : " < ") + fmt("%.2f", p.min_elongation);
  s += "; reach/H " + fmt("%.3f", f.reach) + (f.reach >= p.min_reach ? " >= " : " < ") +
       fmt("%.3f", p.min_reach);
  s += "; flatness " + ratio_text(f.flatness);
  if (ratio_text(f.elongation)[0] == '>' || ratio_text(f.flatness)[0] == '>')
    s += " (degenerate: its points lie on a line or in a plane)";
  if (static_cast<int>(r.welded.size()) < x.params.min_region_vertices) s += "; too few vertices";
  return s;
}

// A belt hangs within this x H of the hip sockets' height.
constexpr double kBeltBand = 0.15;

// A tail leaves the pelvis between the hip sockets. A tail-class region
// whose root, at hip height, lies farther out than halfway from the
// sockets to the body's side at the hips hangs beside the hip: a sword or
// scabbard at the belt, which a chain would swing like a tail (a no-tail
// humanoid got a Tail_* chain on one). Class worn, left as rigged; true
// when so. Not for a core split off at a raised threshold: its cut ring
// lies down a fused tail, wherever that swings.
bool beside_the_hip(const Analysis& a, const Context& x, Region& r) {
  Classification& k = r.classification;
  const BodyReading& b = x.body;
  if (k.cls != AppendageClass::kTail || r.cut_level != 0.0 || !(b.hip_half_width > 0.0)) return false;
  rig::Vec3 across = b.hip_across;
  across.y() = 0.0;
  if (!(across.norm() > 0.5)) return false;  // a hip line tilted past 60 deg tells no side
  across.normalize();
  const double H = a.height;
  const rig::Vec3 root = r.hang_point;  // the ring, or a separate shell's part near the bones
  if (std::abs(root.y() - b.hip_mid.y()) > kBeltBand * H) return false;
  const double aside = std::abs((root - b.hip_mid).dot(across));
  double side = b.hip_half_width;  // the body's side at the sockets' height, arms hanging there aside
  const int nj = static_cast<int>(b.arm.size());
  for (size_t w = 0; w < a.welded_positions.size(); ++w) {
    if (a.shell_of[w] != a.body_shell || a.region_of[w] == r.id) continue;
    const int v = a.welded.representative[w];
    const int d = v >= 0 && v < static_cast<int>(x.c.skin.influences.size()) ? rig::dominant_joint(x.c.skin.influences[v]) : -1;
    if (d >= 0 && d < nj && b.arm[d]) continue;
    const rig::Vec3& q = a.welded_positions[w];
    if (std::abs(q.y() - b.hip_mid.y()) <= 0.03 * H) side = std::max(side, std::abs((q - b.hip_mid).dot(across)));
  }
  const double limit = 0.5 * (b.hip_half_width + side);
  if (!(aside > limit)) return false;
  k.cls = AppendageClass::kWorn;
  k.action = Action::kUnchanged;
  r.reason += "; beside the hip, no tail: its root lies " + fmt("%.3f", aside / H) +
              " H from the midline, past halfway from the hip sockets (" + fmt("%.3f", b.hip_half_width / H) +
              " H) to the body's side at the hips (" + fmt("%.3f", side / H) + " H): a worn item at the belt, left as rigged";
  return true;
}

// The body's own limb skin a region holds (issue 45): its vertices on the
// body's shell (the largest welded shell, the skin the arms and legs are
// part of) that an arm or leg bone dominates, and the limb bone dominating
// most of them. A worn item is a thing apart: a shell of its own (a
// scabbard whose lower half a rigger spilled onto the thigh), or skin grown
// from the trunk; skin of the body's shell that a limb drives is that
// limb's (an Apatosaurus' thick legs and belly lie far from its bones and
// read as one long region hanging from its shoulders).
struct LimbSkin {
  int vertices = 0;
  int top = -1;        // the limb bone dominating most of them
  int top_count = 0;
};

LimbSkin limb_skin_on_body(const Analysis& a, const Context& x, const Region& r) {
  LimbSkin out;
  const std::vector<char>& limb = x.body.limb;
  std::vector<int> count(limb.size(), 0);
  for (int v : r.vertices) {
    if (a.shell_of[a.welded.weld_of[v]] != a.body_shell) continue;
    const int d = rig::dominant_joint(x.c.skin.influences[v]);
    if (d < 0 || d >= static_cast<int>(limb.size()) || !limb[d]) continue;
    ++out.vertices;
    if (++count[d] > out.top_count) out.top_count = count[d], out.top = d;
  }
  return out;
}

// Do no harm (issue 11): a region already driven by a non-body bone (a
// weapon, an existing tail, a prop) is already rigged; body limbs are never
// worn; a rig with tail bones is rewritten nowhere. The class stays, the
// action becomes "unchanged" and the reason says why.
void do_no_harm(const Analysis& a, const Context& x, Region& r) {
  Classification& k = r.classification;
  if (k.action == Action::kUnchanged) return;
  const Ownership& o = r.owner;
  if (already_rigged(o)) {
    k.action = Action::kUnchanged;
    r.reason += "; already rigged: " + fmt("%.0f", 100 * o.non_body) +
                " % of its vertices are driven by non-body bones (most by " +
                x.sk.names[o.top_non_body] + ")";
    return;
  }
  if (beside_the_hip(a, x, r)) return;
  // Issue 45 (curled_tail.h): a tail lying along the body short of its tip
  // has skin below the cut the region lacks; a chain would tear it there.
  if (k.cls == AppendageClass::kTail && r.lies_along) {
    k.action = Action::kUnchanged;
    r.reason += "; it lies along the body short of its tip (its ring touches the body there): the skin it lies "
                "on is no part of the region, so a chain would tear the tail; left as rigged";
    return;
  }
  if (k.cls == AppendageClass::kWorn && o.arm > kOwnedFraction) {
    k.action = Action::kUnchanged;
    r.reason += "; an arm, never worn: " + fmt("%.0f", 100 * o.arm) +
                " % of its vertices are driven by arm bones";
    return;
  }
  // Nor is what the arm drives a tail: a rigger gives a tail to the hips and
  // legs, never to a hand, so a tail-shaped region on the arm's bones is
  // what the hand holds (a sword skinned to the hand, no Weapon bone: the
  // Cyberpunk's hanging beside its thigh got a Tail_* chain) or the arm.
  if (k.cls == AppendageClass::kTail && o.arm > kOwnedFraction) {
    k.action = Action::kUnchanged;
    const bool top_on_arm = o.top_joint >= 0 && o.top_joint < static_cast<int>(x.body.arm.size()) && x.body.arm[o.top_joint];
    r.reason += "; held, no tail: " + fmt("%.0f", 100 * o.arm) + " % of its vertices are driven by arm bones" +
                (top_on_arm ? " (most by " + x.sk.names[o.top_joint] + ")" : std::string()) +
                ", which no rigger gives a tail";
    return;
  }
  // Body limbs are never worn, nor made rigid on request (issue 45): a
  // rigid rewrite of skin a limb drives on the body's own shell carries the
  // limb with the trunk (the Apatosaurus' hind feet moved 35 % of H, made
  // rigid on its shoulders). Unsure whether such skin is the limb's or an
  // item fused into it, fix leaves it as rigged. Not for tails: a rigger's
  // tail hangs on the leg bones, which is what its chain repairs.
  if (k.action == Action::kRigid && k.cls != AppendageClass::kTail) {
    const LimbSkin limb = limb_skin_on_body(a, x, r);
    if (limb.vertices > 0) {
      k.action = Action::kUnchanged;
      r.reason += "; a body limb, never worn: " + std::to_string(limb.vertices) + " of its " +
                  std::to_string(r.vertices.size()) + " vertices are the body's own skin driven by arm or leg bones (" +
                  std::to_string(limb.top_count) + " by " + x.sk.names[limb.top] + "), which a rigid rewrite on " +
                  x.sk.names[r.rigid_joint] + " would carry with the trunk";
      return;
    }
  }
  if (k.action == Action::kRigid && o.top_joint >= 0 && o.top_joint == r.rigid_joint &&
      o.top_fraction > kOwnedFraction) {
    k.action = Action::kUnchanged;
    r.reason += "; already follows " + x.sk.names[o.top_joint] + " (" +
                fmt("%.0f", 100 * o.top_fraction) +
                " % of its vertices): a rigid rewrite would not fix anything";
    return;
  }
  // A rig with tail bones is an artist's rig, not a humanoid rigger's: it
  // gets no second chain, and none of its weights is rewritten (a region
  // read as worn there is the artist's skinning, or a shard of a broken
  // mesh: a subdivided Rat's split faces read as four worn items).
  if (!x.body.tail_bones.empty()) {
    k.action = Action::kUnchanged;
    r.reason += "; the rig already has tail bones (" + x.sk.names[x.body.tail_bones.front()] + ", " +
                std::to_string(x.body.tail_bones.size()) + " joints): " +
                (k.cls == AppendageClass::kTail ? "no second chain" : "its weights are the artist's, none rewritten");
  }
}

}  // namespace

rig::Vec3 tail_leaves_at(const Analysis& a, const rig::Skeleton& sk) {
  if (a.body.hip_half_width > 0.0) return a.body.hip_mid;
  return a.hips >= 0 && a.hips < sk.size() ? joint_position(sk, a.hips) : rig::Vec3::Zero();
}

void attach(const Analysis& a, const rig::Skeleton& sk, const std::vector<char>& deforming,
            const Params& params, Region& r) {
  // The ring is every neighbour outside the region: for a component of far
  // vertices those are exactly its non-far neighbours; for a core split off
  // at a raised threshold (cut_level) they are the skin at the cut.
  std::vector<char> member(a.far.size(), 0);
  for (int v : r.welded) member[v] = 1;
  r.ring = attachment_ring(a.graph, r.welded, member);
  if (r.ring.empty()) {
    // A shell entirely far from the skeleton: its closest vertices stand in
    // for the ring.
    double best = std::numeric_limits<double>::infinity();
    for (int v : r.welded) best = std::min(best, a.skeleton_distance[v]);
    for (int v : r.welded) {
      if (a.skeleton_distance[v] <= best + 0.01 * a.height) r.ring.push_back(v);
    }
  }
  std::vector<rig::Vec3> pts;
  pts.reserve(r.ring.size());
  for (int v : r.ring) pts.push_back(a.welded_positions[v]);
  r.ring_centroid = centroid(pts);
  // Reading chosen: when the region lies on separate shells (not the body's
  // shell), the point it hangs from is the centroid of those shells' non-far
  // part (a scabbard's top, a tail shell's root), not only the ring.
  rig::Vec3 hang = r.ring_centroid;
  std::vector<char> shells(a.shell_count, 0);
  bool on_body = false;  // also stored in r.on_body
  for (int v : r.welded) {
    shells[a.shell_of[v]] = 1;
    on_body |= a.shell_of[v] == a.body_shell;
  }
  if (!on_body) {
    std::vector<rig::Vec3> root;
    for (int w = 0; w < static_cast<int>(a.shell_of.size()); ++w) {
      if (shells[a.shell_of[w]] && !a.far[w]) root.push_back(a.welded_positions[w]);
    }
    if (!root.empty()) hang = centroid(root);
  }
  r.hang_point = hang;
  r.on_body = on_body;
  auto choice = choose_attachment_joint(sk, hang, deforming, params.attachment_preference);
  // On an upright body, a region hanging below where the pelvis ends hangs
  // from the pelvis even when a spine joint is a little nearer (a tail
  // leaving a Bunny's rump level, nearest its `Abdomen`, was made rigid
  // there as a worn item); a scabbard on the back hangs above it.
  if (choice.joint >= 0 && sk.roles[choice.joint].part == rig::BodyPart::kSpine && hang.y() < a.body.pelvis_top) {
    std::vector<char> zone(a.body.pelvis_zone.begin(), a.body.pelvis_zone.end());
    for (size_t j = 0; j < zone.size() && j < deforming.size(); ++j) zone[j] = zone[j] && deforming[j];
    const auto pelvis = choose_attachment_joint(sk, hang, zone, 1.0);
    if (pelvis.joint >= 0 && pelvis.distance <= params.attachment_preference * choice.distance) choice = pelvis;
  }
  r.attachment = choice.joint;
  if (r.attachment >= 0) r.attachment_role = sk.roles[r.attachment];
  // A core split off a fused region (its ring is the cut) may be a curled
  // tail whose tip rests on the body: it hangs where its whole ring says
  // (the class is read as before), but only its base is its root, where g
  // and the chain start. A region of far skin as found is no tail yet (a
  // trunk's far skin has rings all round it).
  if (r.cut_level > 0.0) {
    std::vector<int> base =
        ring_without_resting_tip(a.graph, a.welded_positions, r.welded, r.ring, tail_leaves_at(a, sk), &r.lies_along);
    r.tip_rests = base.size() < r.ring.size();
    r.rest_patch.clear();
    if (r.tip_rests) {
      std::set_difference(r.ring.begin(), r.ring.end(), base.begin(), base.end(), std::back_inserter(r.rest_patch));
      r.ring = std::move(base);
      r.ring_centroid = centroid(positions_of(a, r.ring));
    }
  }
}

int chain_root(const Context& x, const rig::Vec3& p) {
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  for (int j = 0; j < x.sk.size(); ++j) {
    if (static_cast<size_t>(j) >= x.body.tail_roots.size() || !x.body.tail_roots[j]) continue;
    const double d = (joint_position(x.sk, j) - p).norm();
    if (d < best_d) {
      best_d = d;
      best = j;
    }
  }
  return best >= 0 ? best : x.body.pelvis;
}

Protrusion protrusion_of(const Analysis& a, const Context& x, const std::vector<int>& welded,
                         const rig::Vec3& centroid) {
  Protrusion p;
  for (int v : welded) p.reach = std::max(p.reach, a.skeleton_distance[v]);
  p.centroid_distance = distance_to_segments(centroid, x.segments);
  p.centroid_ratio = p.reach > 0.0 ? p.centroid_distance / p.reach : 0.0;
  return p;
}

std::vector<rig::Vec3> positions_of(const Analysis& a, const std::vector<int>& welded) {
  std::vector<rig::Vec3> pts;
  pts.reserve(welded.size());
  for (int v : welded) pts.push_back(a.welded_positions[v]);
  return pts;
}

void evaluate(const Analysis& a, const Context& x, Region& r) {
  const double H = a.height;
  attach(a, x.sk, x.deforming, x.params, r);
  const std::vector<rig::Vec3> pts = positions_of(a, r.welded);
  r.box = bounding_box(pts);
  r.shape = shape_of(pts);
  const Protrusion protrusion = protrusion_of(a, x, r.welded, r.shape.centroid);
  r.reach = protrusion.reach;
  r.centroid_distance = protrusion.centroid_distance;
  r.centroid_ratio = protrusion.centroid_ratio;
  RegionFacts facts;
  facts.attachment = r.attachment_role.part;
  facts.reach = r.reach / H;
  facts.centroid_ratio = r.centroid_ratio;
  facts.elongation = r.shape.elongation;
  facts.flatness = r.shape.flatness;
  facts.above_attachment = r.shape.centroid.y() > r.ring_centroid.y();
  facts.own_shells = !r.on_body;
  r.classification = Classification{};
  if (static_cast<int>(r.welded.size()) >= x.params.min_region_vertices) {
    r.classification = classify(facts, x.params.classify, true);
  }
  r.rigid_joint = r.classification.rigid_to_hips ? a.hips : r.attachment;
  if (r.classification.action == Action::kRigid && r.rigid_joint < 0) {
    r.classification.action = Action::kUnchanged;
  }
  r.root_joint = chain_root(x, r.ring_centroid);
  r.chain_parent = x.body.pelvis >= 0 ? x.body.pelvis : r.root_joint;
  r.owner = ownership(x.c.skin, r.vertices, x.body, x.sk.size());
  r.reason = explain(x, facts, r);
  do_no_harm(a, x, r);
}

}  // namespace detect
