#include "detect/components.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace detect {

Graph build_graph(int vertex_count, const std::vector<std::array<int, 3>>& triangles,
                  const std::vector<rig::Vec3>* positions) {
  // Bucket the directed edges by their first vertex (counting sort), then
  // sort and de-duplicate each short row: the rows and their order are
  // those of one global (a, b) sort, in linear time and one pass of memory.
  std::vector<int> start(static_cast<size_t>(vertex_count) + 1, 0);
  auto edges_of = [&](auto&& emit) {
    for (const auto& t : triangles) {
      for (int e = 0; e < 3; ++e) {
        const int a = t[e], b = t[(e + 1) % 3];
        assert(a >= 0 && a < vertex_count && b >= 0 && b < vertex_count);
        if (a == b) continue;
        emit(a, b);
        emit(b, a);
      }
    }
  };
  edges_of([&](int a, int) { ++start[a + 1]; });
  for (int v = 0; v < vertex_count; ++v) start[v + 1] += start[v];
  std::vector<int> bucketed(static_cast<size_t>(start[vertex_count]));
  std::vector<int> fill(start.begin(), start.end() - 1);
  edges_of([&](int a, int b) { bucketed[fill[a]++] = b; });

  Graph g;
  g.offsets.assign(vertex_count + 1, 0);
  g.neighbors.reserve(bucketed.size());
  for (int v = 0; v < vertex_count; ++v) {
    const auto first = bucketed.begin() + start[v], last = bucketed.begin() + start[v + 1];
    std::sort(first, last);
    g.neighbors.insert(g.neighbors.end(), first, std::unique(first, last));
    g.offsets[v + 1] = static_cast<int>(g.neighbors.size());
  }
  g.lengths.assign(g.neighbors.size(), 0.0);
  if (positions) {
    for (int v = 0; v < vertex_count; ++v)
      for (int i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
        g.lengths[i] = ((*positions)[v] - (*positions)[g.neighbors[i]]).norm();
  }
  return g;
}

int connected_components(const Graph& graph, const std::vector<char>& mask,
                         std::vector<int>& labels) {
  const int n = graph.size();
  labels.assign(n, -1);
  int count = 0;
  std::vector<int> stack;
  for (int s = 0; s < n; ++s) {
    if (!mask[s] || labels[s] >= 0) continue;
    labels[s] = count;
    stack.push_back(s);
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int u : graph.neighbors_of(v)) {
        if (mask[u] && labels[u] < 0) {
          labels[u] = count;
          stack.push_back(u);
        }
      }
    }
    ++count;
  }
  return count;
}

}  // namespace detect
