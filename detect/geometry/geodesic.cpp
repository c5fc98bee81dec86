#include "detect/geometry/geodesic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace detect {

std::vector<double> geodesic_distance(const Graph& graph, const std::vector<rig::Vec3>& positions,
                                      const std::vector<int>& sources,
                                      const std::vector<char>& allowed) {
  const int n = graph.size();
  if (positions.size() != static_cast<size_t>(n)) return std::vector<double>(n, 0.0);
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
    for (int u : graph.neighbors_of(v)) {
      if (!allowed.empty() && !allowed[u]) continue;
      const double nd = d + edge_length(positions, v, u);
      if (nd < dist[u]) {
        dist[u] = nd;
        queue.emplace(nd, u);
      }
    }
  }
  return dist;
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
