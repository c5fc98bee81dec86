#include "detect/find_appendages.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "detect/attachment.h"
#include "detect/bone_distance.h"
#include "detect/geodesic.h"
#include "detect/rigid.h"
#include "detect/segment_distance.h"
#include "rig/roles.h"

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

// Ring, centroid and attachment joint of a region (welded ids in r.welded).
void attach(const Analysis& a, const rig::Skeleton& sk, const std::vector<char>& deforming,
            const Params& params, Region& r) {
  r.ring = attachment_ring(a.graph, r.welded, a.far);
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
  rig::Skeleton roled;
  const rig::Skeleton* skp = &c.skeleton;
  bool any_role = false;
  if (static_cast<int>(c.skeleton.roles.size()) == nj) {
    for (const auto& r : c.skeleton.roles) any_role |= r.part != rig::BodyPart::kNone;
  }
  if (!any_role) {  // roles missing or never assigned: assign them on a copy
    roled = c.skeleton;
    rig::assign_roles(roled);
    if (static_cast<int>(roled.roles.size()) != nj) roled.roles.assign(nj, rig::Role{});
    skp = &roled;
  }
  const rig::Skeleton& sk = *skp;
  a.roles = sk.roles;

  a.height = rig::model_height(c.mesh.positions);
  if (!(a.height > 0.0) || !std::isfinite(a.height)) {
    return Status::Error(Status::Code::kBadData, "model height is zero");
  }
  const double H = a.height;
  a.welded = rig::weld_by_position(c.mesh.positions, c.mesh.triangles, params.weld_fraction * H);
  const int nw = a.welded.count();
  a.welded_positions.resize(nw);
  for (int w = 0; w < nw; ++w) a.welded_positions[w] = c.mesh.positions[a.welded.representative[w]];
  a.graph = build_graph(nw, a.welded.triangles, &a.welded_positions);

  const std::vector<char> deforming = deforming_joints(c.skin, nj);
  const auto segments = skeleton_segments(sk, deforming, params.end_extension);
  a.skeleton_distance = distance_field(a.welded_positions, segments);
  a.far.assign(nw, 0);
  for (int w = 0; w < nw; ++w) a.far[w] = a.skeleton_distance[w] > params.far_fraction * H;
  a.hips = hips_joint(sk, deforming);

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

  for (Region& r : a.regions) {
    attach(a, sk, deforming, params, r);
    std::vector<rig::Vec3> pts;
    pts.reserve(r.welded.size());
    for (int v : r.welded) {
      pts.push_back(a.welded_positions[v]);
      r.reach = std::max(r.reach, a.skeleton_distance[v]);
    }
    r.box = bounding_box(pts);
    r.shape = shape_of(pts);
    r.centroid_distance = distance_field({r.shape.centroid}, segments)[0];
    r.centroid_ratio = r.reach > 0.0 ? r.centroid_distance / r.reach : 0.0;
    RegionFacts facts;
    facts.attachment = r.attachment_role.part;
    facts.reach = r.reach / H;
    facts.centroid_ratio = r.centroid_ratio;
    facts.elongation = r.shape.elongation;
    facts.flatness = r.shape.flatness;
    facts.above_attachment = r.shape.centroid.y() > r.ring_centroid.y();
    if (static_cast<int>(r.welded.size()) >= params.min_region_vertices) {
      r.classification = classify(facts, params.classify, true);
    }
    r.rigid_joint = r.classification.rigid_to_hips ? a.hips : r.attachment;
    if (r.classification.action == Action::kRigid && r.rigid_joint < 0) {
      r.classification.action = Action::kUnchanged;
    }
    r.bone_distance_before = mean_bone_distance(c, r.vertices);
    r.bone_distance_after = r.bone_distance_before;

    if (r.classification.cls != AppendageClass::kTail) continue;
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
        if (allowed[w]) min_d[a.shell_of[w]] = std::min(min_d[a.shell_of[w]], a.skeleton_distance[w]);
      }
      sources.clear();
      for (int w = 0; w < nw; ++w) {
        if (allowed[w] && a.skeleton_distance[w] <= min_d[a.shell_of[w]] + params.root_band * H) {
          sources.push_back(w);
        }
      }
    }
    std::vector<double> gw = geodesic_distance(a.graph, sources, allowed);
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
    std::vector<double> g_region;
    g_region.reserve(r.welded.size());
    for (int v : r.welded) g_region.push_back(gw[v]);
    r.length = percentile(g_region, params.chain.length_percentile);
    r.bones = bone_count(r.length, H, params.chain);
    r.joints = chain_joints(pts, g_region, r.ring_centroid, r.length, r.bones,
                            params.chain.smoothing_passes);
    r.geodesic.reserve(r.vertices.size());
    for (int v : r.vertices) r.geodesic.push_back(gw[a.welded.weld_of[v]]);
  }
  return Status::Ok();
}

rig::Status fix(const rig::Character& c, Mode mode, const Params& params, FixResult& out) {
  out = FixResult{};
  rig::Status st = find_appendages(c, params, out.analysis);
  if (!st.ok()) return st;
  out.character = c;
  if (mode == Mode::kReport) return st;
  for (Region& r : out.analysis.regions) {
    const Classification& k = r.classification;
    if (k.action == Action::kChain && mode == Mode::kChain && out.analysis.hips >= 0 &&
        r.length > 0.0) {
      out.character = add_chain(out.character, out.analysis.hips, r.joints, r.length, r.vertices,
                                r.geodesic, params.chain, &r.chain_joint_ids);
      ++out.chains;
    } else if (k.action == Action::kChain || k.action == Action::kRigid) {
      const int joint = k.action == Action::kChain ? out.analysis.hips : r.rigid_joint;
      if (joint < 0) continue;
      r.classification.action = Action::kRigid;
      r.rigid_joint = joint;
      out.character = make_rigid(out.character, r.vertices, joint);
      ++out.rigid;
    }
  }
  for (Region& r : out.analysis.regions) {
    r.bone_distance_after = mean_bone_distance(out.character, r.vertices);
  }
  return st;
}

}  // namespace detect
