// Vertex graph of a (welded) triangle mesh and connected components of a
// vertex subset on it (SPEC §1.3).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "rig/model/model.h"

namespace detect {

// Undirected edge graph in compressed rows. Vertex ids are those of the
// triangle list (welded ids in the pipeline); neighbours sorted ascending.
struct Graph {
  std::vector<int> offsets;    // size vertex_count + 1
  std::vector<int> neighbors;  // offsets[v] .. offsets[v+1]

  int size() const { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
  std::span<const int> neighbors_of(int v) const {
    return {neighbors.data() + offsets[v], neighbors.data() + offsets[v + 1]};
  }
};

// The length of edge v-u, the weight of geodesics. Computed from the
// positions when needed: a stored length per neighbour entry was 48 MB of
// fresh memory at 1 M vertices (issue 14).
inline double edge_length(const std::vector<rig::Vec3>& positions, int v, int u) {
  return (positions[static_cast<size_t>(v)] - positions[static_cast<size_t>(u)]).norm();
}

// Builds the edge graph of `triangles` over `vertex_count` vertices.
// Degenerate triangle edges (a == b) are skipped.
Graph build_graph(int vertex_count, const std::vector<std::array<int, 3>>& triangles);

// Connected components of the vertices with mask[v] != 0, using only edges
// whose both ends are in the mask. labels[v] = component id, or -1 outside the
// mask. Ids are 0..count-1, ordered by each component's smallest vertex.
// Returns count.
int connected_components(const Graph& graph, const std::vector<char>& mask,
                         std::vector<int>& labels);

// The component of `seed` alone (mask[seed] must be set): member[v] = 1 for
// its vertices, 0 elsewhere (graph-sized). Costs the component's size, not
// the graph's: the fused-tail split asks for one component per level.
// Returns the component's vertex count (0 when mask[seed] is not set).
int component_of(const Graph& graph, const std::vector<char>& mask, int seed,
                 std::vector<char>& member);

}  // namespace detect
