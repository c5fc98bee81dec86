// Position welding for graph work (components, geodesics, edges).
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct Welded {
  std::vector<int> weld_of;          // per original vertex: welded vertex id
  std::vector<int> representative;   // per welded vertex: one original vertex
  std::vector<std::array<int, 3>> triangles;  // in welded ids, degenerate ones dropped
  int count() const { return static_cast<int>(representative.size()); }
};

// Welds vertices closer than `tolerance` (same units as positions).
// Deterministic: welded ids follow the first original vertex of each group.
Welded weld_by_position(const std::vector<Vec3>& positions,
                        const std::vector<std::array<int, 3>>& triangles, double tolerance);

// Unique undirected edges (a < b) of a triangle list, sorted.
std::vector<std::pair<int, int>> unique_edges(const std::vector<std::array<int, 3>>& triangles);

// Model height H: bind-pose bounding box height (Y extent) of the positions.
double model_height(const std::vector<Vec3>& positions);

}  // namespace rig
