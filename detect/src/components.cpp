#include "detect/components.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace detect {

Graph build_graph(int vertex_count, const std::vector<std::array<int, 3>>& triangles,
                  const std::vector<rig::Vec3>* positions) {
  std::vector<std::pair<int, int>> directed;
  directed.reserve(triangles.size() * 6);
  for (const auto& t : triangles) {
    for (int e = 0; e < 3; ++e) {
      const int a = t[e], b = t[(e + 1) % 3];
      assert(a >= 0 && a < vertex_count && b >= 0 && b < vertex_count);
      if (a == b) continue;
      directed.emplace_back(a, b);
      directed.emplace_back(b, a);
    }
  }
  std::sort(directed.begin(), directed.end());
  directed.erase(std::unique(directed.begin(), directed.end()), directed.end());
  Graph g;
  g.offsets.assign(vertex_count + 1, 0);
  for (const auto& [a, b] : directed) ++g.offsets[a + 1];
  for (int v = 0; v < vertex_count; ++v) g.offsets[v + 1] += g.offsets[v];
  g.neighbors.resize(directed.size());
  g.lengths.assign(directed.size(), 0.0);
  for (size_t i = 0; i < directed.size(); ++i) {
    g.neighbors[i] = directed[i].second;  // sorted by (a, b): rows are contiguous
    if (positions) {
      g.lengths[i] = ((*positions)[directed[i].first] - (*positions)[directed[i].second]).norm();
    }
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
