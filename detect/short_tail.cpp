#include "detect/short_tail.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "detect/attachment.h"
#include "detect/geometry/shape.h"

namespace detect {

namespace {
constexpr double kInsideShare = 0.5;  // of a shell's box inside the tail's: an inner shell
}  // namespace

int take_whole_shells(Analysis& a, const Params& params, Region& r) {
  if (r.on_body || r.welded.empty()) return 0;
  const int nw = a.welded.count();
  std::vector<char> shell(a.shell_count, 0);
  for (int w : r.welded) shell[a.shell_of[w]] = 1;
  // A shell of no region, no larger than the box of the region's shells and
  // mostly inside it, is the tail's too (the skin under its fur, all of it
  // near the bones; the fur thins at the root, where the skin pokes out).
  Box outer;
  std::vector<Box> boxes(a.shell_count);
  std::vector<char> taken(a.shell_count, 0);  // a vertex of the shell is in some region
  for (int w = 0; w < nw; ++w) {
    const int sh = a.shell_of[w];
    boxes[sh].extend(a.welded_positions[w]);
    if (shell[sh]) outer.extend(a.welded_positions[w]);
    taken[sh] |= a.region_of[w] >= 0;
  }
  for (int sh = 0; sh < a.shell_count; ++sh) {
    const double v = boxes[sh].volume();
    const bool inside = v > 0.0 && v <= outer.volume() && intersection_volume(boxes[sh], outer) >= kInsideShare * v;
    if (sh != a.body_shell && !taken[sh] && inside) shell[sh] = 1;
  }
  std::vector<double> least(a.shell_count, std::numeric_limits<double>::infinity());
  int added = 0;
  std::vector<int> welded;
  for (int w = 0; w < nw; ++w) {
    const int sh = a.shell_of[w];
    if (!shell[sh]) continue;
    least[sh] = std::min(least[sh], a.skeleton_distance[w]);
    if (a.region_of[w] == r.id) {
      welded.push_back(w);
    } else if (a.region_of[w] < 0) {
      a.region_of[w] = r.id;
      welded.push_back(w);
      ++added;
    }
  }
  r.welded = std::move(welded);  // ascending: w runs up
  std::vector<char> in(nw, 0);
  for (int w : r.welded) in[w] = 1;
  r.vertices.clear();
  for (int v = 0; v < static_cast<int>(a.welded.weld_of.size()); ++v)
    if (in[a.welded.weld_of[v]]) r.vertices.push_back(v);
  std::vector<rig::Vec3> root;
  for (int w : r.welded)
    if (a.skeleton_distance[w] <= least[a.shell_of[w]] + root_band(r, params, a.height))
      root.push_back(a.welded_positions[w]);
  if (!root.empty()) r.ring_centroid = centroid(root);
  return added;
}

}  // namespace detect

namespace detect {

double root_band(const Region& r, const Params& params, double height) {
  return params.root_band * (r.classification.short_tail ? r.reach : height);
}

}  // namespace detect
