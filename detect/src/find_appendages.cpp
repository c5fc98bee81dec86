#include "detect/find_appendages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "detect/attachment.h"
#include "detect/body.h"
#include "detect/bone_distance.h"
#include "detect/geodesic.h"
#include "detect/rigid.h"
#include "detect/segment_distance.h"
#include "detect/tail_root.h"
#include "detect/tube.h"
#include "format.h"
#include "rig/roles.h"

namespace detect {

namespace {

// The region split raises its threshold at most this many times (issue 15:
// one vertex at 1e38 made the 0.0025 H steps run for hours); longer reaches
// take proportionally larger steps.
constexpr int kMaxSplitSteps = 2000;

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

int hips_joint(const rig::Skeleton& sk, const std::vector<char>& deforming) {
  for (int j = 0; j < sk.size(); ++j) {
    if (sk.roles[j].part == rig::BodyPart::kHips) return j;
  }
  // No hips role: the first deforming joint (topological order: root-most).
  for (int j = 0; j < sk.size(); ++j) {
    if (deforming[j]) return j;
  }
  return sk.size() > 0 ? 0 : -1;
}

// Ring, centroid and attachment joint of a region (welded ids in r.welded).
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
  const auto choice = choose_attachment_joint(sk, hang, deforming, params.attachment_preference);
  r.attachment = choice.joint;
  if (r.attachment >= 0) r.attachment_role = sk.roles[r.attachment];
}

struct Context {
  const rig::Character& c;
  const rig::Skeleton& sk;
  const std::vector<char>& deforming;
  const std::vector<BoneSegment>& segments;
  const Params& params;
  const BodyReading& body;
};

// The pelvis-zone joint nearest `p`: where a tail rooted at `p` starts
// (Quaternius' `Back` beside `Body`, the pelvis the chain hangs from); the
// rig's pelvis when the zone is empty.
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
  s += "; elongation " + fmt("%.2f", f.elongation) +
       (f.elongation >= p.min_elongation ? " >= " : " < ") + fmt("%.2f", p.min_elongation);
  s += "; reach/H " + fmt("%.3f", f.reach) + (f.reach >= p.min_reach ? " >= " : " < ") +
       fmt("%.3f", p.min_reach);
  s += "; flatness " + fmt("%.2f", f.flatness);
  if (static_cast<int>(r.welded.size()) < x.params.min_region_vertices) s += "; too few vertices";
  return s;
}

// Do no harm (issue 11): a region already driven by a non-body bone (a
// weapon, an existing tail, a prop) is already rigged; body limbs are never
// worn; a rig with tail bones gets no second chain. The class stays, the
// action becomes "unchanged" and the reason says why.
void do_no_harm(const Context& x, Region& r) {
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
  if (k.cls == AppendageClass::kWorn && o.arm > kOwnedFraction) {
    k.action = Action::kUnchanged;
    r.reason += "; an arm, never worn: " + fmt("%.0f", 100 * o.arm) +
                " % of its vertices are driven by arm bones";
    return;
  }
  if (k.action == Action::kRigid && o.top_joint >= 0 && o.top_joint == r.rigid_joint &&
      o.top_fraction > kOwnedFraction) {
    k.action = Action::kUnchanged;
    r.reason += "; already follows " + x.sk.names[o.top_joint] + " (" +
                fmt("%.0f", 100 * o.top_fraction) +
                " % of its vertices): a rigid rewrite would not fix anything";
    return;
  }
  if (k.cls == AppendageClass::kTail && !x.body.tail_bones.empty()) {
    k.action = Action::kUnchanged;
    r.reason += "; the rig already has tail bones (" + x.sk.names[x.body.tail_bones.front()] +
                ", " + std::to_string(x.body.tail_bones.size()) + " joints): no second chain";
  }
}

// How far a region (welded ids) sticks out, classify's protrusion: its reach
// (the farthest skeleton distance), its centroid's skeleton distance, and
// their ratio.
struct Protrusion {
  double reach = 0.0, centroid_distance = 0.0, centroid_ratio = 0.0;
};
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

// Attachment, reach, shape, classification and bone distance of a region
// whose `welded` ids are set.
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
  do_no_harm(x, r);
}

// Geodesic length (the chain's L percentile) of a region from its ring.
double length_from_ring(const Analysis& a, const Region& r, double percentile_p) {
  std::vector<char> allowed(a.far.size(), 0);
  for (int v : r.welded) allowed[v] = 1;
  const std::vector<double> g = geodesic_distance(a.graph, a.welded_positions, r.ring, allowed);
  std::vector<double> values;
  values.reserve(r.welded.size());
  for (int v : r.welded) values.push_back(g[v]);
  return percentile(values, percentile_p);
}

// The component of {v in domain : skeleton distance > level x H} holding
// `seed`, with its welded and mesh vertices in the domain's order; empty when
// the seed is not above the level.
Region core_at(const Analysis& a, const Region& domain, double level, int seed) {
  Region core;
  core.cut_level = level;
  std::vector<char> mask(a.far.size(), 0);
  for (int v : domain.welded) mask[v] = a.skeleton_distance[v] > level * a.height;
  if (!mask[seed]) return core;
  std::vector<char> in_core;
  component_of(a.graph, mask, seed, in_core);
  for (int v : domain.welded) {
    if (in_core[v]) core.welded.push_back(v);
  }
  for (int v : domain.vertices) {
    if (in_core[a.welded.weld_of[v]]) core.vertices.push_back(v);
  }
  return core;
}

// Evaluates `core` as a region cut at its level; false when it fails to be a
// tail core (a round tail at least split_min_length x H long from its cut).
bool passes_as_tail_core(const Analysis& a, const Context& x, Region& core) {
  const Params& p = x.params;
  if (static_cast<int>(core.welded.size()) < p.min_region_vertices) return false;
  // A tail protrudes (classify): the protrusion evaluate would find (the
  // centroid of shape_of is this mean) decides most levels without evaluating
  // the whole core.
  const rig::Vec3 mean = centroid(positions_of(a, core.welded));
  if (!(protrusion_of(a, x, core.welded, mean).centroid_ratio >= p.classify.protrusion))
    return false;
  evaluate(a, x, core);
  if (core.classification.cls != AppendageClass::kTail) return false;
  if (core.shape.flatness > p.classify.max_flatness) return false;
  return length_from_ring(a, core, p.chain.length_percentile) >= p.split_min_length * a.height;
}

// A core that runs on past the tail's base along a fat belly (see
// trim_to_tube) ends where it stops being a tube, when what is left still
// passes as a tail core; else it stays as found.
void trim_core_to_tube(const Analysis& a, const Context& x, int seed, Region& core) {
  const std::vector<rig::Vec3> normals = area_normals(a.welded_positions, a.welded.triangles);
  const TubeCut t = trim_to_tube(a.graph, a.welded_positions, normals, core.welded, seed, 0.0,
                                 x.params.tube_max_closure);
  if (!t.cut) return;
  Region trimmed;
  trimmed.cut_level = core.cut_level;
  trimmed.welded = t.kept;
  for (int v : core.vertices)
    if (std::binary_search(t.kept.begin(), t.kept.end(), a.welded.weld_of[v])) trimmed.vertices.push_back(v);
  if (!passes_as_tail_core(a, x, trimmed)) return;
  trimmed.tube_end = t.cut_from_tip;
  trimmed.tube_end_closure = t.open_closure;
  trimmed.reason += "; stops being a tube " + fmt("%.3f", t.cut_from_tip / a.height) +
                    " H from the tip (slice normals sum to " + fmt("%.2f", t.open_closure) + " of their length >= " +
                    fmt("%.2f", x.params.tube_max_closure) + "): " + std::to_string(core.welded.size() - t.kept.size()) +
                    " core vertices beyond it left to the body";
  core = std::move(trimmed);
}

// Fused tails. Reading chosen: a tail grown out of a thick torso (the T-Rex's,
// a fused fox's) shares one far region with the torso's far skin (belly,
// back, flanks), whose centroid falls back onto the spine, so the whole fails
// the protrusion test. Torso skin lies at about the trunk's radius from its
// bones while a tail's skin keeps getting farther along the tail, so raising
// the far threshold within that region cuts the torso skin away first: the
// lowest threshold at which one component passes as a tail is where the tail
// separates from the trunk (the saddle). Sheets (a skirt's or cape's hem,
// which also break into flaps) and short bumps do not count: the core must
// be round (flatness as for worn items) and at least split_min_length x H
// long from its cut. Returns true with the core in `out` (evaluated).
//
// Reading chosen (issue 11): only the component holding the region's
// farthest vertex is tried. A tail is the part that sticks out farthest; a
// rump, a belly or a back bulges less, and trying components in vertex order
// grew a chain through a rat's rump while its long tail lay on the floor.
// Cores shrink as the level rises (a higher level's core lies inside a lower
// one's), so each level searches only the previous core, and the search ends
// once the core is too small (issue 14: 19 levels over a 158 k-vertex region
// rescanned it whole each time).
bool find_tail_core(const Analysis& a, const Context& x, const Region& r, Region& out) {
  const double H = a.height;
  const Params& p = x.params;
  if (!(p.split_step > 0.0) || r.welded.empty()) return false;
  int seed = r.welded.front();
  for (int v : r.welded) {
    if (a.skeleton_distance[v] > a.skeleton_distance[seed]) seed = v;
  }
  if (!std::isfinite(a.skeleton_distance[seed])) return false;
  const double first = p.far_fraction * H;
  const double step = std::max(p.split_step * H, (r.reach - first) / kMaxSplitSteps);
  if (!(step > 0.0) || !std::isfinite(step)) return false;
  const Region* domain = &r;  // the previous level's core once there is one
  Region previous;
  for (int k = 1; k <= kMaxSplitSteps; ++k) {
    const double level = (first + k * step) / H;
    if (level * H >= r.reach) return false;
    Region core = core_at(a, *domain, level, seed);
    if (static_cast<int>(core.welded.size()) < p.min_region_vertices)
      return false;  // so is every higher core
    if (!passes_as_tail_core(a, x, core)) {
      previous = std::move(core);
      domain = &previous;
      continue;
    }
    // The saddle's cut ring still runs over the fillet where tail and
    // trunk skin blend; cut split_margin x H higher when the core still
    // passes there (inside this core; a negative margin searches the region).
    const double higher = level + p.split_margin;
    Region cut = core_at(a, higher >= level ? core : r, higher, seed);
    if (passes_as_tail_core(a, x, cut)) {
      out = std::move(cut);
    } else {
      out = std::move(core);
    }
    trim_core_to_tube(a, x, seed, out);
    return true;
  }
  return false;
}

}  // namespace

rig::Status find_appendages(const rig::Character& c, const Params& params, Analysis& a) {
  using rig::Status;
  a = Analysis{};
  if (!c.has_skin()) return Status::Error(Status::Code::kBadData, "no skinned mesh");
  const int nj = c.skeleton.size();
  if (nj == 0) return Status::Error(Status::Code::kBadData, "no skeleton");
  if (static_cast<int>(c.skeleton.bind_world.size()) != nj ||
      static_cast<int>(c.skeleton.parents.size()) != nj) {
    return Status::Error(Status::Code::kBadData, "skeleton arrays disagree in size");
  }
  if (c.skin.influences.size() != c.mesh.positions.size()) {
    return Status::Error(Status::Code::kBadData, "skin and mesh disagree in vertex count");
  }
  rig::Skeleton sk = c.skeleton;  // a copy: roles may be assigned or read below
  bool any_role = false;
  if (static_cast<int>(c.skeleton.roles.size()) == nj) {
    for (const auto& r : c.skeleton.roles) any_role |= r.part != rig::BodyPart::kNone;
  }
  if (!any_role) {  // roles missing or never assigned: assign them on the copy
    rig::assign_roles(sk);
    if (static_cast<int>(sk.roles.size()) != nj) sk.roles.assign(nj, rig::Role{});
  }

  a.height = rig::model_height(c.mesh.positions);
  if (!(a.height > 0.0) || !std::isfinite(a.height)) {
    return Status::Error(Status::Code::kBadData, "model height is zero");
  }
  const double H = a.height;
  a.welded = rig::weld_by_position(c.mesh.positions, c.mesh.triangles, params.weld_fraction * H);
  const int nw = a.welded.count();
  a.welded_positions.resize(nw);
  for (int w = 0; w < nw; ++w) a.welded_positions[w] = c.mesh.positions[a.welded.representative[w]];
  a.graph = build_graph(nw, a.welded.triangles);

  const std::vector<char> deforming = deforming_joints(c.skin, nj);
  const auto segments = skeleton_segments(sk, deforming, params.end_extension);
  a.skeleton_distance = distance_field(a.welded_positions, segments);
  a.far.assign(nw, 0);
  for (int w = 0; w < nw; ++w) a.far[w] = a.skeleton_distance[w] > params.far_fraction * H;
  // The pelvis from the skeleton's shape (body.h): its zone reads as hips and
  // the hind legs' upper joints as thighs for attachment and classification,
  // whatever roles the names gave (a quadruped's `BackLeg.L` is no pelvis).
  a.body = read_body(sk, deforming);
  // A rump bone a tail may hang from (BodyReading::tail_roots) reads as
  // pelvis too: a tail core cut at its base hangs from it.
  for (int j = 0; j < nj; ++j) {
    if (a.body.pelvis_zone[j] || a.body.tail_roots[j]) {
      sk.roles[j].part = rig::BodyPart::kHips;
    } else if (a.body.hind_leg_root[j]) {
      sk.roles[j].part = rig::BodyPart::kThigh;
    }
  }
  a.hips = a.body.pelvis >= 0 ? a.body.pelvis : hips_joint(sk, deforming);
  a.roles = sk.roles;

  a.shell_count = connected_components(a.graph, std::vector<char>(nw, 1), a.shell_of);
  {
    std::vector<int> sizes(a.shell_count, 0);
    for (int w = 0; w < nw; ++w) ++sizes[a.shell_of[w]];
    a.body_shell = static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  }
  std::vector<int> labels;
  const int count = connected_components(a.graph, a.far, labels);
  std::vector<Region> parts(count);
  for (int w = 0; w < nw; ++w) {
    if (labels[w] >= 0) parts[labels[w]].welded.push_back(w);
  }
  for (auto& r : parts) {
    attach(a, sk, deforming, params, r);
    std::vector<rig::Vec3> pts;
    for (int v : r.welded) pts.push_back(a.welded_positions[v]);
    r.box = bounding_box(pts);
  }

  // Merge shells at one attachment whose boxes overlap (SPEC §1.7).
  std::vector<int> uf(count);
  std::iota(uf.begin(), uf.end(), 0);
  for (int i = 0; i < count; ++i) {
    for (int j = i + 1; j < count; ++j) {
      if (parts[i].attachment != parts[j].attachment) continue;
      if (boxes_overlap(parts[i].box, parts[j].box, params.merge_overlap)) {
        uf[find_root(uf, j)] = find_root(uf, i);
      }
    }
  }
  std::vector<int> merged_id(count, -1);
  for (int i = 0; i < count; ++i) {
    const int root = find_root(uf, i);
    if (merged_id[root] < 0) {
      merged_id[root] = static_cast<int>(a.regions.size());
      a.regions.emplace_back();
    }
    merged_id[i] = merged_id[root];
    auto& dst = a.regions[merged_id[i]].welded;
    dst.insert(dst.end(), parts[i].welded.begin(), parts[i].welded.end());
  }
  a.region_of.assign(nw, -1);
  for (size_t ri = 0; ri < a.regions.size(); ++ri) {
    Region& r = a.regions[ri];
    r.id = static_cast<int>(ri);
    std::sort(r.welded.begin(), r.welded.end());
    for (int w : r.welded) a.region_of[w] = r.id;
  }
  for (int v = 0; v < c.mesh.vertex_count(); ++v) {
    const int ri = a.region_of[a.welded.weld_of[v]];
    if (ri >= 0) a.regions[ri].vertices.push_back(v);
  }

  const Context ctx{c, sk, deforming, segments, params, a.body};
  for (Region& r : a.regions) evaluate(a, ctx, r);

  // Split fused tails off regions that are no appendage (see find_tail_core);
  // the rest of the region stays one region and is classified again.
  const size_t before_split = a.regions.size();
  for (size_t ri = 0; ri < before_split; ++ri) {
    const AppendageClass cls = a.regions[ri].classification.cls;
    if (cls != AppendageClass::kWide && cls != AppendageClass::kOther) continue;
    Region core;
    if (!find_tail_core(a, ctx, a.regions[ri], core)) continue;
    core.id = static_cast<int>(a.regions.size());
    Region& rest = a.regions[ri];
    std::vector<int> kept;
    for (int w : rest.welded) {
      if (!std::binary_search(core.welded.begin(), core.welded.end(), w)) kept.push_back(w);
    }
    rest.welded = std::move(kept);
    std::vector<int> kept_vertices;
    for (int v : rest.vertices) {
      if (!std::binary_search(core.vertices.begin(), core.vertices.end(), v))
        kept_vertices.push_back(v);
    }
    rest.vertices = std::move(kept_vertices);
    for (int w : core.welded) a.region_of[w] = core.id;
    evaluate(a, ctx, rest);
    a.regions.push_back(std::move(core));
  }

  // Only for the regions that stay (the split evaluates many candidate cores,
  // and this was half of its time at 1 M vertices), before tails take root skin.
  for (Region& r : a.regions) {
    r.bone_distance_before = mean_bone_distance(c, r.vertices);
    r.bone_distance_after = r.bone_distance_before;
  }

  for (Region& r : a.regions) {
    if (r.classification.cls != AppendageClass::kTail) continue;
    std::vector<rig::Vec3> pts;
    pts.reserve(r.welded.size());
    for (int v : r.welded) pts.push_back(a.welded_positions[v]);
    // Coordinate along the tail (SPEC §3): Dijkstra from the ring.
    // Reading chosen: when the tail is a separate shell (or shells), the
    // part of the shell between its root inside the body and the ring is
    // tail too; g then counts from each shell's root (its vertices deepest
    // in the body), so L is the whole tail length and not only the far part.
    // A tail grown out of the body surface counts from the ring.
    std::vector<char> allowed(nw, 0);
    for (int v : r.welded) allowed[v] = 1;
    for (int v : r.ring) allowed[v] = 1;
    std::vector<int> sources = r.ring;
    if (!r.on_body) {
      std::vector<double> deepest(a.shell_count, std::numeric_limits<double>::infinity());
      for (int v : r.welded) deepest[a.shell_of[v]] = 0.0;  // marks the region's shells
      for (int w = 0; w < nw; ++w) {
        const int sh = a.shell_of[w];
        if (deepest[sh] == std::numeric_limits<double>::infinity()) continue;
        allowed[w] = 1;
      }
      std::vector<double> min_d(a.shell_count, std::numeric_limits<double>::infinity());
      for (int w = 0; w < nw; ++w) {
        if (allowed[w])
          min_d[a.shell_of[w]] = std::min(min_d[a.shell_of[w]], a.skeleton_distance[w]);
      }
      sources.clear();
      for (int w = 0; w < nw; ++w) {
        if (allowed[w] && a.skeleton_distance[w] <= min_d[a.shell_of[w]] + params.root_band * H) {
          sources.push_back(w);
        }
      }
    }
    std::vector<double> gw = geodesic_distance(a.graph, a.welded_positions, sources, allowed);
    // Reading chosen: a split-off tail's cut ring lies partway along the tail
    // (its root is fused with the trunk skin), so g counts from the joint it
    // hangs from, the straight line from that joint to the cut ring standing in
    // for the root; J0 is that joint.
    rig::Vec3 root = r.ring_centroid;
    int root_joint = r.root_joint >= 0 ? r.root_joint : r.attachment;
    if (r.cut_level > 0.0 && root_joint >= 0) {
      root = joint_position(sk, root_joint);
      r.root_offset = (r.ring_centroid - root).norm();
      for (int v : r.welded) gw[v] += r.root_offset;
    }
    // Shells not reached from the ring take g of the nearest reached vertex.
    std::vector<int> reached, unreached;
    for (int v : r.welded) (std::isfinite(gw[v]) ? reached : unreached).push_back(v);
    for (int v : unreached) {
      double best = std::numeric_limits<double>::infinity();
      double g = 0.0;
      for (int u : reached) {
        const double d = (a.welded_positions[u] - a.welded_positions[v]).squaredNorm();
        if (d < best) {
          best = d;
          g = gw[u];
        }
      }
      gw[v] = g;
    }
    std::vector<std::pair<int, int>> region_edges;  // welded indices, both ends in the region
    {
      std::vector<char> in_region(nw, 0);
      for (int v : r.welded) in_region[v] = 1;
      for (int v : r.welded)
        for (int u : a.graph.neighbors_of(v))
          if (u > v && in_region[u]) region_edges.emplace_back(v, u);
    }
    std::vector<double> g_region;
    auto grow = [&] {
      g_region.clear();
      for (int v : r.welded) g_region.push_back(gw[v]);
      r.length = percentile(g_region, params.chain.length_percentile);
      r.edge_step = edge_step_along(region_edges, gw);
      r.bones = bone_count(r.length, H, params.chain, r.edge_step);
      const RootLine line{r.ring_centroid, r.cut_level > 0.0 ? r.root_offset : 0.0};
      r.joints =
          chain_joints(pts, g_region, root, r.length, r.bones, params.chain.smoothing_passes, line);
    };
    grow();
    // Reading chosen (issue 11): a split-off tail's cut ring can lie far
    // along the tail and wrap odd ways (a rat's tail dips near its feet), so
    // the pelvis-zone joint it hangs from is the one nearest its first
    // interior joint on the skin, near its root; g is recounted from it.
    if (r.cut_level > 0.0 && r.joints.size() > 1) {
      // The first joint on the tail's skin (joints on the root line would
      // lead back to the joint they hang from).
      size_t first = 1;
      while (first + 1 < r.joints.size() && first * r.length / r.bones < r.root_offset) ++first;
      const int better = chain_root(ctx, r.joints[first]);
      if (better >= 0 && better != root_joint) {
        const double offset = (r.ring_centroid - joint_position(sk, better)).norm();
        for (int v : r.welded) gw[v] += offset - r.root_offset;
        r.root_joint = root_joint = better;
        r.root_offset = offset;
        root = joint_position(sk, better);
        grow();
      }
    }
    if (r.cut_level > 0.0 && r.joints.size() > 1) add_tail_root_skin(a, params, segments, r, gw);
    r.geodesic.reserve(r.vertices.size());
    for (int v : r.vertices) r.geodesic.push_back(gw[a.welded.weld_of[v]]);
  }
  return Status::Ok();
}

rig::Status fix(rig::Character c, Mode mode, const Params& params, FixResult& out) {
  out = FixResult{};
  rig::Status st = find_appendages(c, params, out.analysis);
  if (!st.ok()) return st;
  out.character = std::move(c);
  if (mode == Mode::kReport) return st;
  for (Region& r : out.analysis.regions) {
    const Classification& k = r.classification;
    if ((k.cls == AppendageClass::kTail && !params.rewrite_tails) ||
        (k.cls == AppendageClass::kWorn && !params.rewrite_worn)) {
      r.classification.action = Action::kUnchanged;
      r.reason += " (its class was switched off for this fix)";
      continue;
    }
    if (k.action == Action::kChain && mode == Mode::kChain && out.analysis.hips >= 0 &&
        r.length > 0.0) {
      out.character = add_chain(std::move(out.character),
                                r.chain_parent >= 0 ? r.chain_parent : out.analysis.hips, r.joints,
                                r.length, r.vertices, r.geodesic, params.chain, &r.chain_joint_ids);
      if (r.cut_level > 0.0) hold_root_on_parent(out.character, out.analysis, r, params);
      ++out.chains;
    } else if (k.action == Action::kChain || k.action == Action::kRigid) {
      const int joint = k.action == Action::kChain ? out.analysis.hips : r.rigid_joint;
      if (joint < 0) continue;
      r.classification.action = Action::kRigid;
      r.rigid_joint = joint;
      out.character = make_rigid(std::move(out.character), r.vertices, joint);
      ++out.rigid;
    }
  }
  for (Region& r : out.analysis.regions) {
    r.bone_distance_after = mean_bone_distance(out.character, r.vertices);
  }
  return st;
}

}  // namespace detect
