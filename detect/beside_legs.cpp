#include "detect/beside_legs.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "detect/format.h"
#include "detect/tail_core.h"

namespace detect {

namespace {

// As tail_core.cpp: at most this many raised thresholds.
constexpr int kMaxSteps = 2000;

bool is_leg_joint(const Context& x, int joint) {
  if (joint < 0 || joint >= static_cast<int>(x.sk.roles.size())) return false;
  const rig::BodyPart part = x.sk.roles[joint].part;
  return part == rig::BodyPart::kThigh || part == rig::BodyPart::kShin ||
         part == rig::BodyPart::kFoot || part == rig::BodyPart::kToe;
}

// The region's welded vertices and the skin of no region on its shells,
// with their mesh vertices: a tail's thin root may be near skin.
Region search_domain(const Analysis& a, const Region& region) {
  std::vector<char> shells(a.shell_count, 0);
  for (int w : region.welded) shells[a.shell_of[w]] = 1;
  std::vector<char> in(a.welded.count(), 0);
  Region domain;
  for (int w = 0; w < a.welded.count(); ++w) {
    if (!shells[a.shell_of[w]]) continue;
    if (a.region_of[w] >= 0 && a.region_of[w] != region.id) continue;
    in[w] = 1;
    domain.welded.push_back(w);
  }
  for (int v = 0; v < static_cast<int>(a.welded.weld_of.size()); ++v)
    if (in[a.welded.weld_of[v]]) domain.vertices.push_back(v);
  return domain;
}

// Per welded vertex: its distance to the bones that are no leg bone (0
// outside the domain).
std::vector<double> distance_without_legs(const Analysis& a, const Context& x,
                                          const Region& domain) {
  std::vector<BoneSegment> body;
  for (const BoneSegment& s : x.segments)
    if (!is_leg_joint(x, s.joint)) body.push_back(s);
  std::vector<double> d(a.welded.count(), 0.0);
  if (body.empty()) return d;
  const std::vector<double> dd = distance_field(positions_of(a, domain.welded), body);
  for (size_t i = 0; i < domain.welded.size(); ++i) d[domain.welded[i]] = dd[i];
  return d;
}

}  // namespace

bool cut_beside_a_leg(const Context& x, const Region& core) {
  std::vector<int> nearest;
  distance_field({core.ring_centroid}, x.segments, &nearest);
  const int s = nearest.empty() ? -1 : nearest[0];
  return s >= 0 && s < static_cast<int>(x.segments.size()) && is_leg_joint(x, x.segments[s].joint);
}

bool find_tail_beside_legs(const Analysis& a, const Context& x, const Region& region, int seed,
                           Region& out) {
  const double H = a.height;
  const Params& p = x.params;
  const Region domain = search_domain(a, region);
  const std::vector<double> d = distance_without_legs(a, x, domain);
  if (seed < 0 || seed >= static_cast<int>(d.size()) || !std::isfinite(d[seed])) return false;
  const double first = p.far_fraction * H;
  const double step = std::max(p.split_step * H, (d[seed] - first) / kMaxSteps);
  if (!(step > 0.0) || !std::isfinite(step)) return false;
  const Region* within = &domain;  // the previous level's core once there is one
  Region previous;
  for (int k = 1; k <= kMaxSteps; ++k) {
    const double level = (first + k * step) / H;
    if (level * H >= d[seed]) return false;
    Region core = core_at(a, *within, d, level, seed);
    if (static_cast<int>(core.welded.size()) < p.min_region_vertices) return false;
    if (!passes_as_tail_core(a, x, core)) {
      previous = std::move(core);
      within = &previous;
      continue;
    }
    Region cut = core_at(a, core, d, level + std::max(0.0, p.split_margin), seed);
    out = passes_as_tail_core(a, x, cut) ? std::move(cut) : std::move(core);
    out.reason += "; lies along the legs (a sheet's tail, beside_legs.h): cut at " +
                  fmt("%.3f", out.cut_level) + " H from the bones other than the legs'";
    return true;
  }
  return false;
}

}  // namespace detect
