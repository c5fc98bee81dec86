// rig-internal: rig::lowest_skinned when only a lowest point under a height
// matters (the floor steps: above the floor nothing is lifted or deep). The
// groups whose bound is at or under `cap` are searched, lowest bound first,
// by lowest_skinned's own rule (the least height, the first item among
// equal heights): when some kept item lies under `cap` this is the item and
// height lowest_skinned gives; else nothing (item -1, +infinity), without
// ordering or searching the groups above it.
#pragma once

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "rig/model/lowest_skin.h"

namespace rig {

template <class Keep, class HeightOf>
LowestItem lowest_skinned_below(const LowestSkinIndex& index, std::span<const Eigen::RowVector4d> height, double cap,
                                Keep&& keep, HeightOf&& y_of, std::vector<std::pair<double, int>>& order) {
  order.clear();
  for (size_t g = 0; g < index.groups.size(); ++g) {
    const double bound = lowest_possible(index.groups[g], height);
    // NaN bounds too: lowest_skinned searches them (a NaN never stops it).
    if (!(bound > cap)) order.emplace_back(bound, static_cast<int>(g));
  }
  const auto later = [](const std::pair<double, int>& a, const std::pair<double, int>& b) { return a > b; };
  std::make_heap(order.begin(), order.end(), later);
  LowestItem out;
  for (auto end = order.end(); end != order.begin(); --end) {
    std::pop_heap(order.begin(), end, later);
    const auto& [bound, g] = *(end - 1);
    if (bound > out.y) break;
    for (int i : index.groups[static_cast<size_t>(g)].items) {
      if (!keep(i)) continue;
      const double y = y_of(index.vertices[static_cast<size_t>(i)]);
      if (y < out.y || (y == out.y && i < out.item)) out.y = y, out.item = i;
    }
  }
  if (!(out.y < cap)) return LowestItem{};
  return out;
}

}  // namespace rig
