// Geodesic distance on the edge graph by Dijkstra (SPEC §3 "coordinate along
// the tail"), edge lengths as weights.
#pragma once

#include <vector>

#include "detect/geometry/components.h"

namespace detect {

// Distance from the nearest source to every vertex, walking only through
// vertices with allowed[v] != 0 (empty `allowed`: every vertex), each edge
// weighted by edge_length of `positions` (one per graph vertex; another
// count gives all zeros). Sources start at 0 (and are allowed by
// definition); unreachable vertices get +infinity. Units: the positions'.
std::vector<double> geodesic_distance(const Graph& graph, const std::vector<rig::Vec3>& positions,
                                      const std::vector<int>& sources,
                                      const std::vector<char>& allowed = {});

// The p-th percentile (p in [0,1]) of the finite values: linear interpolation
// between the sorted values at rank p·(n-1); 0 when there are none.
double percentile(std::vector<double> values, double p);

}  // namespace detect
