#include "detect/find_appendages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "detect/body.h"
#include "detect/attachment.h"
#include "detect/curled_tail.h"
#include "detect/haunch_skin.h"
#include "detect/geometry/bone_distance.h"
#include "detect/geometry/geodesic.h"
#include "detect/rewrite/rigid.h"
#include "detect/geometry/segment_distance.h"
#include "detect/tail_root.h"
#include "detect/format.h"
#include "detect/region_evaluation.h"
#include "detect/root_seam.h"
#include "detect/short_tail.h"
#include "detect/tail_core.h"
#include "rig/anatomy/facing.h"
#include "rig/anatomy/figures.h"
#include "rig/anatomy/roles.h"

namespace detect {

namespace {

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

// Why the skin does not sit on its skeleton, or empty: most joints that
// carry weight lie outside the mesh's bounds grown by a quarter of its
// height on every side (an artist's skin wraps its deforming joints; IK and
// helper bones outside it carry little or no weight).
std::string skin_off_skeleton(const rig::Character& c, const std::vector<char>& deforming, double height) {
  rig::Vec3 lo = rig::Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const rig::Vec3& p : c.mesh.positions) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const rig::Vec3 margin = rig::Vec3::Constant(0.25 * height);
  lo -= margin;
  hi += margin;
  int weighted = 0, outside = 0;
  for (int j = 0; j < c.skeleton.size() && j < static_cast<int>(deforming.size()); ++j) {
    if (!deforming[j]) continue;
    ++weighted;
    const rig::Vec3 p = c.skeleton.bind_world[j].block<3, 1>(0, 3);
    outside += !(p.x() >= lo.x() && p.y() >= lo.y() && p.z() >= lo.z() && p.x() <= hi.x() && p.y() <= hi.y() &&
                 p.z() <= hi.z());
  }
  if (weighted < 2 || 2 * outside <= weighted) return {};
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "the skin does not sit on its skeleton: %d of the %d joints that carry weight lie outside the mesh "
                "(%.3g units tall); an export lost a transform (the mesh's or the armature's scale)",
                outside, weighted, height);
  return buf;
}

// Data errors of the input, before anything is read from it: a skinned
// mesh, a skeleton whose arrays agree, a skin of the mesh's vertex count.
rig::Status check_input(const rig::Character& c) {
  using rig::Status;
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
  return Status::Ok();
}

// A copy of the skeleton with roles: the file's when any was assigned, else
// assigned here (roles may be assigned or read below; the input stays as is).
rig::Skeleton skeleton_with_roles(const rig::Character& c) {
  const int nj = c.skeleton.size();
  rig::Skeleton sk = c.skeleton;
  bool any_role = false;
  if (static_cast<int>(c.skeleton.roles.size()) == nj) {
    for (const auto& r : c.skeleton.roles) any_role |= r.part != rig::BodyPart::kNone;
  }
  if (!any_role) {  // roles missing or never assigned: assign them on the copy
    rig::assign_roles(sk);
    if (static_cast<int>(sk.roles.size()) != nj) sk.roles.assign(nj, rig::Role{});
  }
  return sk;
}

// Do no harm: why a file is analysed no further, or empty. One character per
// analysis (a rider and its horse would share one pelvis, one H and each
// other's legs); a skin that does not sit on its skeleton (an export that
// lost the mesh's or the armature's scale: Blender's automatic weights under
// a scaled armature wrote a Witch 1/370 of its skeleton) reads as appendages
// everywhere.
std::string refusal_reason(const rig::Character& c, const rig::Skeleton& sk, const std::vector<char>& deforming,
                           double height) {
  if (const std::string several = rig::several_figures_reason(sk, rig::skinned_figures(c, sk.roles));
      !several.empty())
    return "the file holds " + several + ": one character per file is analysed (export each on its own to fix it)";
  return skin_off_skeleton(c, deforming, height);
}

// The welded mesh, its graph, each welded vertex's distance to the skeleton
// and the far vertices (SPEC §1.2-1.3); returns the skeleton's segments.
std::vector<BoneSegment> weld_and_mark_far(const rig::Character& c, const rig::Skeleton& sk,
                                           const std::vector<char>& deforming, const Params& params, Analysis& a) {
  const double H = a.height;
  a.welded = rig::weld_by_position(c.mesh.positions, c.mesh.triangles, params.weld_fraction * H);
  const int nw = a.welded.count();
  a.welded_positions.resize(nw);
  for (int w = 0; w < nw; ++w) a.welded_positions[w] = c.mesh.positions[a.welded.representative[w]];
  a.graph = build_graph(nw, a.welded.triangles);

  auto segments = skeleton_segments(sk, deforming, params.end_extension);
  a.skeleton_distance = distance_field(a.welded_positions, segments);
  a.far.assign(nw, 0);
  for (int w = 0; w < nw; ++w) a.far[w] = a.skeleton_distance[w] > params.far_fraction * H;
  return segments;
}

// The pelvis from the skeleton's shape (body.h): its zone reads as hips and
// the hind legs' upper joints as thighs for attachment and classification,
// whatever roles the names gave (a quadruped's `BackLeg.L` is no pelvis).
// Sets a.body, a.hips and a.roles; false (a.refused set) without legs.
bool read_pelvis(const std::vector<char>& deforming, rig::Skeleton& sk, Analysis& a) {
  a.body = read_body(sk, deforming);
  // Do no harm: without legs (no thigh at all) there is no pelvis a rigger
  // fell back on, and what protrudes is the body itself (a fish's fin
  // already on its last spine bone, a snake, a mermaid's tail).
  if (a.body.legs == 0) {
    a.refused = "the skeleton has no legs, so no pelvis a tail could hang from (a fish, a snake, a legless "
                "prop?): tails and worn items are only rewritten on a legged character";
    a.roles = sk.roles;
    return false;
  }
  // A rump bone a tail may hang from (BodyReading::tail_roots) reads as
  // pelvis too: a tail core cut at its base hangs from it.
  for (int j = 0; j < sk.size(); ++j) {
    if (a.body.pelvis_zone[j] || a.body.tail_roots[j]) {
      sk.roles[j].part = rig::BodyPart::kHips;
    } else if (a.body.hind_leg_root[j]) {
      sk.roles[j].part = rig::BodyPart::kThigh;
    }
  }
  a.hips = a.body.pelvis >= 0 ? a.body.pelvis : hips_joint(sk, deforming);
  a.roles = sk.roles;
  return true;
}

// The welded mesh's shells (connected components) and the largest, the body's.
void find_shells(Analysis& a) {
  const int nw = a.welded.count();
  a.shell_count = connected_components(a.graph, std::vector<char>(nw, 1), a.shell_of);
  std::vector<int> sizes(a.shell_count, 0);
  for (int w = 0; w < nw; ++w) ++sizes[a.shell_of[w]];
  a.body_shell = static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
}

// The connected parts of far skin, each with its attachment and box.
std::vector<Region> far_parts(const Analysis& a, const rig::Skeleton& sk, const std::vector<char>& deforming,
                              const Params& params) {
  std::vector<int> labels;
  const int count = connected_components(a.graph, a.far, labels);
  std::vector<Region> parts(count);
  for (int w = 0; w < a.welded.count(); ++w) {
    if (labels[w] >= 0) parts[labels[w]].welded.push_back(w);
  }
  for (auto& r : parts) {
    attach(a, sk, deforming, params, r);
    r.box = bounding_box(positions_of(a, r.welded));
  }
  return parts;
}

// Merge shells at one attachment whose boxes overlap (SPEC §1.7): the parts
// become a.regions, in the order of their first part.
void merge_parts(const std::vector<Region>& parts, const Params& params, Analysis& a) {
  const int count = static_cast<int>(parts.size());
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
}

// Region ids, sorted welded ids, a.region_of and each region's original vertices.
void index_regions(const rig::Character& c, Analysis& a) {
  a.region_of.assign(a.welded.count(), -1);
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
}

// Split fused tails off regions that are no appendage (see find_tail_core),
// and off sheets with the legs set aside (beside_legs.h: a body lying level);
// the rest of the region stays one region and is classified again.
void split_fused_tails(const Context& ctx, Analysis& a) {
  const size_t before_split = a.regions.size();
  for (size_t ri = 0; ri < before_split; ++ri) {
    const AppendageClass cls = a.regions[ri].classification.cls;
    if (cls != AppendageClass::kWide && cls != AppendageClass::kOther && cls != AppendageClass::kHair) continue;
    Region core;
    if (!find_tail_core(a, ctx, a.regions[ri], core, cls == AppendageClass::kHair)) continue;
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
}

// Coordinate along a tail (SPEC §3): Dijkstra from the ring, per welded
// vertex (infinite where not reached).
// Reading chosen: when the tail is a separate shell (or shells), the
// part of the shell between its root inside the body and the ring is
// tail too; g then counts from each shell's root (its vertices deepest
// in the body), so L is the whole tail length and not only the far part.
// A tail grown out of the body surface counts from the ring.
std::vector<double> geodesic_from_root(const Analysis& a, const Params& params, const Region& r) {
  const int nw = a.welded.count();
  const double band = root_band(r, params, a.height);
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
      if (allowed[w] && a.skeleton_distance[w] <= min_d[a.shell_of[w]] + band) {
        sources.push_back(w);
      }
    }
  }
  return geodesic_distance(a.graph, a.welded_positions, sources, allowed);
}

// Shells not reached from the ring take g of the nearest reached vertex.
void fill_unreached(const Analysis& a, const Region& r, std::vector<double>& gw) {
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
}

// The mesh edges with both ends in the region (welded indices).
std::vector<std::pair<int, int>> edges_within(const Analysis& a, const Region& r) {
  std::vector<std::pair<int, int>> region_edges;
  std::vector<char> in_region(a.welded.count(), 0);
  for (int v : r.welded) in_region[v] = 1;
  for (int v : r.welded)
    for (int u : a.graph.neighbors_of(v))
      if (u > v && in_region[u]) region_edges.emplace_back(v, u);
  return region_edges;
}

// A tail being grown: its points, g along it, its edges and where its chain
// starts (J0 and the joint it hangs from).
struct TailGrowth {
  std::vector<rig::Vec3> pts;                     // the region's welded positions
  std::vector<double> gw;                         // per welded vertex: g, bind units
  std::vector<std::pair<int, int>> region_edges;  // welded indices, both ends in the region
  rig::Vec3 root;                                 // J0
  int root_joint = -1;
  rig::Vec3 back = rig::Vec3::Zero();             // the body's backward direction (curled_tail.h)
};

// L, edge step, K and the joints J0..JK of a tail from its g (SPEC §3).
void grow_chain(const TailGrowth& t, double H, const Params& params, Region& r) {
  std::vector<double> g_region;
  for (int v : r.welded) g_region.push_back(t.gw[v]);
  r.length = percentile(g_region, params.chain.length_percentile);
  if (r.tip_rests) r.length = curl_turn_length(t.pts, g_region, t.back, r.length);
  r.edge_step = edge_step_along(t.region_edges, t.gw);
  r.bones = bone_count(r.length, H, params.chain, r.edge_step);
  const RootLine line{r.ring_centroid, r.cut_level > 0.0 ? r.root_offset : 0.0};
  r.joints = chain_joints(t.pts, g_region, t.root, r.length, r.bones, params.chain.smoothing_passes, line);
}

// Reading chosen (issue 11): a split-off tail's cut ring can lie far
// along the tail and wrap odd ways (a rat's tail dips near its feet), so
// the pelvis-zone joint it hangs from is the one nearest its first
// interior joint on the skin, near its root; g is recounted from it and
// the chain grown again.
void rehang_split_tail(const Context& ctx, double H, TailGrowth& t, Region& r) {
  if (!(r.cut_level > 0.0 && r.joints.size() > 1)) return;
  // The first joint on the tail's skin (joints on the root line would
  // lead back to the joint they hang from).
  size_t first = 1;
  while (first + 1 < r.joints.size() && first * r.length / r.bones < r.root_offset) ++first;
  const int better = chain_root(ctx, r.joints[first]);
  if (better >= 0 && better != t.root_joint) {
    const double offset = (r.ring_centroid - joint_position(ctx.sk, better)).norm();
    for (int v : r.welded) t.gw[v] += offset - r.root_offset;
    r.root_joint = t.root_joint = better;
    r.root_offset = offset;
    t.root = joint_position(ctx.sk, better);
    grow_chain(t, H, ctx.params, r);
  }
}

// A tail is a tube (shape.h section_flatness): a region hung from the
// pelvis whose sections about its chain are flat is a sheet (a
// loincloth's or a coat's back panel), and nothing of it is rewritten:
// the rigger's weights stay. True when `r` was found a sheet (and made hair).
bool reject_sheet(const std::vector<rig::Vec3>& pts, const Params& params, Region& r) {
  if (r.classification.action == Action::kUnchanged) return false;
  r.section = section_flatness(pts, r.joints);
  if (r.section.median <= params.classify.max_section_flatness) return false;
  r.sheet = true;
  r.classification = Classification{};
  r.classification.cls = AppendageClass::kHair;
  r.reason += "; a sheet, not a tail: its cross-section about the chain is flat (width/thickness " +
              ratio_text(r.section.median) + " > " + fmt("%.2f", params.classify.max_section_flatness) +
              ", lower median over " + std::to_string(r.section.segments) + " of its " +
              std::to_string(r.bones) + " bones), so nothing is rewritten";
  r.joints.clear();  // no chain is proposed for it
  r.length = 0.0;
  r.bones = 0;
  return true;
}

// g from the tail's root, L, K and the joints of a tail region (SPEC §3).
TailGrowth start_growth(const Context& ctx, Analysis& a, Region& r) {
  const double H = a.height;
  TailGrowth t;
  t.pts = positions_of(a, r.welded);
  t.gw = geodesic_from_root(a, ctx.params, r);
  t.back = -rig::facing_from_roles(ctx.sk).forward();
  // Reading chosen: a split-off tail's cut ring lies partway along the tail
  // (its root is fused with the trunk skin), so g counts from the joint it
  // hangs from, the straight line from that joint to the cut ring standing in
  // for the root; J0 is that joint.
  t.root = r.ring_centroid;
  t.root_joint = r.root_joint >= 0 ? r.root_joint : r.attachment;
  if (r.cut_level > 0.0 && t.root_joint >= 0) {
    t.root = joint_position(ctx.sk, t.root_joint);
    r.root_offset = (r.ring_centroid - t.root).norm();
    for (int v : r.welded) t.gw[v] += r.root_offset;
  }
  fill_unreached(a, r, t.gw);
  t.region_edges = edges_within(a, r);
  grow_chain(t, H, ctx.params, r);
  rehang_split_tail(ctx, H, t, r);
  return t;
}

constexpr int kHaunchPasses = 3;  // ShibaInu: 6, 6, 0 vertices

// A split-off core loses the haunch skin the cut let in (haunch_skin.h);
// its ring is read again. True when it lost any.
bool drop_haunch_skin(const Context& ctx, Analysis& a, Region& r) {
  const std::vector<int> kept = without_haunch_skin(a.welded_positions, r.welded, r.joints, leg_segments(ctx, a),
                                                ctx.params.haunch_margin);
  if (kept.size() == r.welded.size() || static_cast<int>(kept.size()) < ctx.params.min_region_vertices) return false;
  std::vector<char> in(a.welded.count(), 0);
  for (int w : kept) in[w] = 1;
  for (int w : r.welded)
    if (!in[w]) a.region_of[w] = -1;
  std::erase_if(r.vertices, [&](int v) { return !in[a.welded.weld_of[v]]; });
  r.reason += "; " + std::to_string(r.welded.size() - kept.size()) +
              " welded vertices of the cut nearer a leg bone than the chain left to the legs (haunch skin)";
  r.welded = kept;
  r.ring = ring_without_resting_tip(a.graph, a.welded_positions, r.welded, attachment_ring(a.graph, r.welded, in),
                                    tail_leaves_at(a, ctx.sk));
  r.ring_centroid = centroid(positions_of(a, r.ring));
  r.root_joint = chain_root(ctx, r.ring_centroid);
  return true;
}

// A tail region's chain (SPEC §3): g along it, L, K and its joints, the root
// skin of a split-off tail, and each vertex's g; nothing for a sheet.
void grow_tail(const Context& ctx, Analysis& a, Region& r) {
  take_rest_patch(ctx.c, a, r);
  TailGrowth t = start_growth(ctx, a, r);
  // The first chain is pulled toward the haunches it holds: once they are
  // dropped it runs up the tail, and skin it left behind reads again.
  for (int pass = 0; pass < kHaunchPasses && r.cut_level > 0.0 && drop_haunch_skin(ctx, a, r); ++pass)
    t = start_growth(ctx, a, r);
  if (reject_sheet(t.pts, ctx.params, r)) return;
  if (r.cut_level > 0.0 && r.joints.size() > 1) add_tail_root_skin(a, ctx.c, ctx.params, ctx.segments, r, t.gw);
  r.geodesic.reserve(r.vertices.size());
  for (int v : r.vertices) r.geodesic.push_back(t.gw[a.welded.weld_of[v]]);
  share_root_seam(ctx, a, r);
}

}  // namespace

// The composition of detection (SPEC §1): roles, refusals, weld and far
// vertices, the pelvis, regions of far skin merged and evaluated, fused
// tails split off, then each tail's chain.
rig::Status find_appendages(const rig::Character& c, const Params& params, Analysis& a) {
  using rig::Status;
  a = Analysis{};
  if (Status st = check_input(c); !st.ok()) return st;
  rig::Skeleton sk = skeleton_with_roles(c);

  a.height = rig::model_height(c.mesh.positions);
  if (!(a.height > 0.0) || !std::isfinite(a.height)) {
    return Status::Error(Status::Code::kBadData, "model height is zero");
  }
  // Do no harm: files nothing may be read from, analysed no further (no
  // regions, the reason in a.refused).
  const std::vector<char> deforming = deforming_joints(c.skin, c.skeleton.size());
  a.refused = refusal_reason(c, sk, deforming, a.height);
  if (!a.refused.empty()) {
    a.roles = sk.roles;
    return Status::Ok();
  }
  const auto segments = weld_and_mark_far(c, sk, deforming, params, a);
  if (!read_pelvis(deforming, sk, a)) return Status::Ok();

  find_shells(a);
  merge_parts(far_parts(a, sk, deforming, params), params, a);
  index_regions(c, a);

  const Context ctx{c, sk, deforming, segments, params, a.body};
  for (Region& r : a.regions) evaluate(a, ctx, r);
  split_fused_tails(ctx, a);
  // Issue 45 class 3: a short tail's chain drives its whole shells.
  for (Region& r : a.regions) {
    if (r.classification.short_tail && r.classification.action != Action::kUnchanged) {
      const int added = take_whole_shells(a, params, r);
      r.reason += "; a short tail on shells of its own: their " + std::to_string(added) +
                  " near welded vertices join it, its chain starts where they are deepest in the body";
    }
  }

  // Only for the regions that stay (the split evaluates many candidate cores,
  // and this was half of its time at 1 M vertices), before tails take root skin.
  for (Region& r : a.regions) {
    r.bone_distance_before = mean_bone_distance(c, r.vertices);
    r.bone_distance_after = r.bone_distance_before;
  }

  for (Region& r : a.regions) {
    if (r.classification.cls == AppendageClass::kTail) grow_tail(ctx, a, r);
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
      std::vector<std::vector<rig::Influence>> before;
      if (r.seam_share.size() == r.vertices.size())
        for (int v : r.vertices) before.push_back(out.character.skin.influences[static_cast<size_t>(v)]);
      out.character = add_chain(std::move(out.character),
                                r.chain_parent >= 0 ? r.chain_parent : out.analysis.hips, r.joints,
                                r.length, r.vertices, r.geodesic, params.chain, &r.chain_joint_ids);
      if (r.cut_level > 0.0) hold_root_on_parent(out.character, out.analysis, r, params);
      share_seam_with_body(out.character, r.vertices, r.seam_share, before);
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
