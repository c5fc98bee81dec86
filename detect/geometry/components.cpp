#include "detect/geometry/components.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace detect {

Graph build_graph(int vertex_count, const std::vector<std::array<int, 3>>& triangles) {
  // Bucket the directed edges by their first vertex (counting sort), then
  // sort and de-duplicate each short row: the rows and their order are
  // those of one global (a, b) sort, in linear time and one pass of memory.
  std::vector<int> start(static_cast<size_t>(vertex_count) + 1, 0);
  auto edges_of = [&](auto&& emit) {
    for (const auto& t : triangles) {
      for (const auto& [a, b] : {std::pair{t[0], t[1]}, std::pair{t[1], t[2]}, std::pair{t[2], t[0]}}) {
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

  // Rows are de-duplicated in place: the bucketed edges become the
  // neighbour list (a second 8-edges-per-vertex array was fresh memory the
  // kernel zeroes, a tenth of detection at 1 M vertices, issue 14).
  Graph g;
  g.offsets.assign(vertex_count + 1, 0);
  size_t kept = 0;
  for (int v = 0; v < vertex_count; ++v) {
    const auto first = bucketed.begin() + start[v], last = bucketed.begin() + start[v + 1];
    if (last - first <= 16) {
      // A row holds ~12 ids: an inline insertion sort, not std::sort's calls
      // (issue 47: 3 % of a 1 M-vertex fix). Ids sort the same either way.
      for (auto it = first + (first != last); it < last; ++it) {
        const int id = *it;
        auto k = it;
        for (; k > first && id < *(k - 1); --k) *k = *(k - 1);
        *k = id;
      }
    } else {
      std::sort(first, last);
    }
    int previous = -1;  // ids are >= 0; writes never pass the read position
    for (auto it = first; it != last; ++it) {
      if (*it != previous) bucketed[kept++] = previous = *it;
    }
    g.offsets[v + 1] = static_cast<int>(kept);
  }
  bucketed.resize(kept);
  g.neighbors = std::move(bucketed);
  return g;
}

int connected_components(const Graph& graph, const std::vector<char>& mask,
                         std::vector<int>& labels) {
  // Union-find over the rows in vertex order (each set rooted at its
  // smallest vertex): mesh vertices come in runs along the surface, so the
  // rows and parents it reads are mostly in cache, where a depth-first walk
  // jumped around the whole mesh (issue 14). The labels are the walk's.
  const int n = graph.size();
  std::vector<int> parent(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) parent[v] = v;
  auto root_of = [&parent](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int v = 0; v < n; ++v) {
    if (!mask[v]) continue;
    for (int u : graph.neighbors_of(v)) {
      if (u <= v || !mask[u]) continue;
      const int a = root_of(v), b = root_of(u);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  labels.assign(n, -1);
  int count = 0;
  for (int v = 0; v < n; ++v) {
    if (!mask[v]) continue;
    const int r = root_of(v);
    labels[v] = r == v ? count++ : labels[r];
  }
  return count;
}

int component_of(const Graph& graph, const std::vector<char>& mask, int seed,
                 std::vector<char>& member) {
  const int n = graph.size();
  member.assign(n, 0);
  if (seed < 0 || seed >= n || !mask[seed]) return 0;
  int count = 1;
  member[seed] = 1;
  std::vector<int> stack{seed};
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int u : graph.neighbors_of(v)) {
      if (mask[u] && !member[u]) {
        member[u] = 1;
        ++count;
        stack.push_back(u);
      }
    }
  }
  return count;
}

}  // namespace detect
