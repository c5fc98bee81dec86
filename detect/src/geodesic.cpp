#include "detect/geodesic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace detect {

namespace {

// Dijkstra from `sources` through allowed vertices; length(v, i) is the
// length of v's i-th edge.
template <class EdgeLength>
std::vector<double> dijkstra(const Graph& graph, const std::vector<int>& sources,
                             const std::vector<char>& allowed, EdgeLength length) {
  const int n = graph.size();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(n, inf);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (int s : sources) {
    if (s < 0 || s >= n) continue;
    dist[s] = 0.0;
    queue.emplace(0.0, s);
  }
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > dist[v]) continue;
    const auto nb = graph.neighbors_of(v);
    for (size_t i = 0; i < nb.size(); ++i) {
      const int u = nb[i];
      if (!allowed.empty() && !allowed[u]) continue;
      const double nd = d + length(v, i);
      if (nd < dist[u]) {
        dist[u] = nd;
        queue.emplace(nd, u);
      }
    }
  }
  return dist;
}

}  // namespace

std::vector<double> geodesic_distance(const Graph& graph, const std::vector<int>& sources,
                                      const std::vector<char>& allowed) {
  if (graph.lengths.size() !=
      graph.neighbors.size()) {  // built without positions: nothing is reachable
    return dijkstra(graph, sources, allowed,
                    [](int, size_t) { return std::numeric_limits<double>::infinity(); });
  }
  return dijkstra(graph, sources, allowed,
                  [&graph](int v, size_t i) { return graph.lengths_of(v)[i]; });
}

std::vector<double> geodesic_distance_with_positions(const Graph& graph,
                                                     const std::vector<rig::Vec3>& positions,
                                                     const std::vector<int>& sources,
                                                     const std::vector<char>& allowed) {
  if (positions.size() != static_cast<size_t>(graph.size()))
    return std::vector<double>(graph.size(), 0.0);
  return dijkstra(graph, sources, allowed, [&graph, &positions](int v, size_t i) {
    return edge_length(positions, v, graph.neighbors_of(v)[i]);
  });
}

double percentile(std::vector<double> values, double p) {
  values.erase(
      std::remove_if(values.begin(), values.end(), [](double x) { return !std::isfinite(x); }),
      values.end());
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const double pos = std::clamp(p, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  const double f = pos - static_cast<double>(lo);
  return values[lo] * (1.0 - f) + values[hi] * f;
}

}  // namespace detect
