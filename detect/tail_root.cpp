#include "detect/tail_root.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "detect/format.h"
#include "rig/anatomy/skin_queries.h"

namespace detect {

double polyline_distance(const std::vector<rig::Vec3>& joints, const rig::Vec3& p, double* arc) {
  const PolylinePoint n = nearest_on_polyline(joints, p);
  if (arc) *arc = n.arc;
  return n.distance;
}

RootSkin tail_root_skin(const Graph& graph, const std::vector<rig::Vec3>& positions,
                        const std::vector<int>& region, const std::vector<int>& ring,
                        const std::vector<char>& allowed, const std::vector<char>& leg_driven,
                        const std::vector<rig::Vec3>& joints, const std::vector<BoneSegment>& body,
                        const RootGrowth& growth) {
  RootSkin out;
  const int n = graph.size();
  if (joints.size() < 2 || ring.empty() || static_cast<int>(positions.size()) != n ||
      static_cast<int>(allowed.size()) != n || body.empty() ||
      !(leg_driven.empty() || static_cast<int>(leg_driven.size()) == n))
    return out;
  std::vector<double> ring_d;
  ring_d.reserve(ring.size());
  for (int v : ring) ring_d.push_back(polyline_distance(joints, positions[v], nullptr));
  std::nth_element(ring_d.begin(), ring_d.begin() + static_cast<long>(ring_d.size() / 2), ring_d.end());
  out.ring_radius = ring_d[ring_d.size() / 2];
  const double max_d = growth.radius * out.ring_radius;
  const double max_leg_d = growth.leg_radius * out.ring_radius;
  if (!(max_d > 0.0) || !std::isfinite(max_d)) return out;
  // 0 unvisited, 1 region or taken, 2 rejected.
  std::vector<char> state(static_cast<size_t>(n), 0);
  std::vector<int> stack;
  for (int v : region) {
    state[v] = 1;
    stack.push_back(v);
  }
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int u : graph.neighbors_of(v)) {
      if (state[u] != 0) continue;
      state[u] = 2;
      if (!allowed[u]) continue;
      double arc = 0.0;
      const double to_chain = polyline_distance(joints, positions[u], &arc);
      const double to_body = distance_to_segments(positions[u], body);
      const bool root_line = arc <= growth.ring_arc;
      const bool base = to_chain <= max_d && to_chain < (root_line ? growth.margin : growth.margin_past) * to_body;
      const bool spill = !base && root_line && !leg_driven.empty() && leg_driven[u] && std::isfinite(max_leg_d) &&
                         to_chain <= max_leg_d && to_chain < growth.leg_margin * to_body;
      if (!base && !spill) continue;
      state[u] = 1;
      out.welded.push_back(u);
      out.g.push_back(arc);
      stack.push_back(u);
    }
  }
  // Ascending welded ids (each id is taken once), their g alongside.
  std::vector<std::pair<int, double>> taken(out.welded.size());
  for (size_t i = 0; i < taken.size(); ++i) taken[i] = {out.welded[i], out.g[i]};
  std::sort(taken.begin(), taken.end());
  for (size_t i = 0; i < taken.size(); ++i) std::tie(out.welded[i], out.g[i]) = taken[i];
  return out;
}

// See tail_root.h.
std::vector<BoneSegment> shins_to_their_feet(const rig::Skeleton& sk, const std::vector<rig::Role>& roles,
                                             std::vector<BoneSegment> segments) {
  const int n = std::min({sk.size(), static_cast<int>(roles.size()), static_cast<int>(sk.parents.size()),
                          static_cast<int>(sk.bind_world.size())});
  auto below = [&](int j, int ancestor) {  // bounded: a parent cycle in bad data ends after n steps
    for (int x = j, steps = 0; x >= 0 && x < n && steps <= n; x = sk.parents[x], ++steps)
      if (x == ancestor) return true;
    return false;
  };
  for (BoneSegment& s : segments) {
    if (!s.extension || s.joint < 0 || s.joint >= n || roles[s.joint].part != rig::BodyPart::kShin) continue;
    const rig::Vec3 knee = joint_position(sk, s.joint);
    int foot = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int f = 0; f < n; ++f) {
      if (roles[f].part != rig::BodyPart::kFoot || roles[f].side != roles[s.joint].side ||
          roles[f].front != roles[s.joint].front || below(f, s.joint))
        continue;
      const double d = (joint_position(sk, f) - knee).norm();
      if (d < best) {
        best = d;
        foot = f;
      }
    }
    if (foot >= 0 && std::isfinite(best)) s = {knee, joint_position(sk, foot), s.joint, false};
  }
  return segments;
}

// See tail_root.h.
void add_tail_root_skin(Analysis& a, const rig::Character& c, const Params& p,
                        const std::vector<BoneSegment>& segments, Region& r, std::vector<double>& gw) {
  const int nw = static_cast<int>(a.welded_positions.size());
  std::vector<char> allowed(nw, 0);
  for (int w = 0; w < nw; ++w) {
    const int ri = a.region_of[w];
    allowed[w] = ri < 0 || (ri != r.id && a.regions[ri].classification.action == Action::kUnchanged &&
                            a.regions[ri].classification.cls != AppendageClass::kTail);
  }
  // Skin whose largest weight is on a shin, foot or toe (the roles detect
  // reads). Not a thigh: a humanoid rigger rightly gives the buttocks beside
  // a tail's root to the thighs (fox_fused's: IoU 0.93 -> 0.86 with them).
  std::vector<char> leg_driven(nw, 0);
  const int nj = static_cast<int>(a.roles.size());
  for (int w = 0; w < nw && w < static_cast<int>(a.welded.representative.size()); ++w) {
    const int v = a.welded.representative[w];
    if (v < 0 || v >= static_cast<int>(c.skin.influences.size())) continue;
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d < 0 || d >= nj) continue;
    const rig::BodyPart part = a.roles[d].part;
    leg_driven[w] = part == rig::BodyPart::kShin || part == rig::BodyPart::kFoot || part == rig::BodyPart::kToe;
  }
  // The chain continues the joint it starts at: that joint's end extension
  // is no body bone any more.
  std::vector<BoneSegment> body;
  for (const BoneSegment& s : shins_to_their_feet(c.skeleton, a.roles, segments))
    if (!(s.extension && s.joint == r.root_joint)) body.push_back(s);
  const RootGrowth growth{r.root_offset, p.root_grow_margin, p.root_grow_margin_past, p.root_grow_radius,
                          p.root_grow_leg_margin, p.root_grow_leg_radius};
  const RootSkin add = tail_root_skin(a.graph, a.welded_positions, r.welded, r.ring, allowed, leg_driven,
                                      r.joints, body, growth);
  if (add.welded.empty()) return;
  std::vector<char> added(nw, 0);
  r.leg_spill.clear();
  r.ring_radius = add.ring_radius;
  for (size_t i = 0; i < add.welded.size(); ++i) {
    const int w = add.welded[i];
    added[w] = 1;
    gw[w] = add.g[i];
    a.region_of[w] = r.id;
    if (leg_driven[w]) r.leg_spill.push_back(w);
  }
  std::vector<int> merged;
  std::merge(r.welded.begin(), r.welded.end(), add.welded.begin(), add.welded.end(), std::back_inserter(merged));
  r.welded = std::move(merged);
  std::vector<int> vertices;
  for (int v = 0; v < static_cast<int>(a.welded.weld_of.size()); ++v) {
    if (added[a.welded.weld_of[v]]) vertices.push_back(v);
  }
  // Out of the regions they came from (the body's remainder: unchanged, so
  // no rewrite of it changes), one pass per region.
  for (Region& o : a.regions) {
    if (o.id == r.id) continue;
    std::erase_if(o.welded, [&](int w) { return added[w] != 0; });
    std::erase_if(o.vertices, [&](int v) { return added[a.welded.weld_of[v]] != 0; });
  }
  std::vector<int> all;
  std::merge(r.vertices.begin(), r.vertices.end(), vertices.begin(), vertices.end(), std::back_inserter(all));
  r.vertices = std::move(all);
  r.reason += "; root skin below the cut: " + std::to_string(vertices.size()) +
              " vertices nearer the chain than " + fmt("%.2f", p.root_grow_margin) + " (past the ring " +
              fmt("%.2f", p.root_grow_margin_past) + ") x their body bone, within " +
              fmt("%.2f", p.root_grow_radius) + " x the ring radius " + fmt("%.3f", add.ring_radius / a.height) +
              " H (leg-driven skin: " + fmt("%.2f", p.root_grow_leg_margin) + " x, within " +
              fmt("%.2f", p.root_grow_leg_radius) + " x)";
}

void hold_root_on_parent(rig::Character& c, const Analysis& a, Region& r, const Params& p) {
  if (r.chain_parent < 0 || r.bones <= 0 || !(r.length > 0.0) || r.geodesic.size() != r.vertices.size()) return;
  // Only where the ring lies past the first joint: the first bone then
  // drives no skin and body skin meets the second bone's (a low-poly edge
  // spans the first segment); a ring inside the first segment already
  // blends into the body through it.
  const double segment = r.length / r.bones;
  if (r.root_offset < segment) return;
  const double band = p.root_hold_band * segment;
  if (!(band > 0.0)) return;
  // Only where the parent is the bone that drives most of the body skin at
  // the seam (a quadruped's rump bone): beside skin on other bones (a
  // humanoid rigger's thighs) a share on the parent would be a seam of its
  // own. The seam: skin outside the region next to the skin to be held.
  std::vector<char> seen(a.region_of.size(), 0);
  std::vector<int> count(static_cast<size_t>(c.skeleton.size()), 0);
  for (size_t i = 0; i < r.vertices.size(); ++i) {
    if (r.geodesic[i] - r.root_offset > band) continue;
    const int w = a.welded.weld_of[r.vertices[i]];
    for (int u : a.graph.neighbors_of(w)) {
      if (a.region_of[u] == r.id || seen[u]) continue;
      seen[u] = 1;
      const int d = rig::dominant_joint(c.skin.influences[a.welded.representative[u]]);
      if (d >= 0 && d < c.skeleton.size()) ++count[d];
    }
  }
  if (r.chain_parent >= c.skeleton.size()) return;
  for (int j = 0; j < c.skeleton.size(); ++j)
    if (count[j] >= count[r.chain_parent] && j != r.chain_parent) return;  // the parent must lead, strictly
  int kept = 0;
  for (size_t i = 0; i < r.vertices.size(); ++i) {
    const double past = r.geodesic[i] - r.root_offset;
    std::vector<rig::Influence>& infl = c.skin.influences[r.vertices[i]];
    // The parent holds, never takes over: the chain's largest weight stays
    // the vertex's largest (the tail keeps the skin it drives).
    double top = 0.0, held = 0.0;
    for (const rig::Influence& x : infl) {
      if (x.joint == r.chain_parent) {
        held = std::max(held, x.weight);
      } else {
        top = std::max(top, x.weight);
      }
    }
    const double cap = top > held ? 0.99 * (top - held) / (1.0 + top - held) : 0.0;
    const double share = std::min(cap, 0.5 * std::clamp(1.0 - past / band, 0.0, 1.0));
    if (!(share > 0.0)) continue;
    double to_parent = share;
    for (rig::Influence& x : infl) {
      x.weight *= 1.0 - share;
      if (x.joint == r.chain_parent) {
        x.weight += to_parent;
        to_parent = 0.0;
      }
    }
    if (to_parent > 0.0) infl.push_back({r.chain_parent, to_parent});
    ++kept;
  }
  if (kept > 0) {
    r.reason += "; root seam: " + std::to_string(kept) + " vertices keep up to half their weight on " +
                c.skeleton.names[r.chain_parent] + " (the ring lies past the first joint)";
  }
}

}  // namespace detect
