#include "rig/anatomy/figures.h"

#include <algorithm>
#include <numeric>

#include "rig/anatomy/skin_queries.h"  // dominant_joint
#include "rig/anatomy/roles.h"

namespace rig {
namespace {

int find_set(std::vector<int>& up, int x) {
  while (up[x] != x) x = up[x] = up[up[x]];
  return x;
}

}  // namespace

std::vector<Figure> skinned_figures(const Character& c, std::span<const Role> roles) {
  const Skeleton& sk = c.skeleton;
  const int nj = sk.size();
  if (!c.has_skin() || static_cast<int>(sk.parents.size()) != nj || nj == 0) return {};
  // Each joint's tree: its root (parents come first, so one pass).
  std::vector<int> root(static_cast<size_t>(nj));
  for (int j = 0; j < nj; ++j) {
    const int p = sk.parents[j];
    root[j] = p >= 0 && p < j ? root[p] : j;
  }
  std::vector<int> up(static_cast<size_t>(nj));
  std::iota(up.begin(), up.end(), 0);
  // Trees one primitive's skin reaches are one character.
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  const bool by_primitive = static_cast<int>(c.mesh.source_primitive.size()) >= nv;
  std::vector<int> first_root_of_primitive(c.mesh.primitives.size() + 1, -1);
  std::vector<int> dominant(static_cast<size_t>(nv), -1);
  for (int v = 0; v < nv; ++v) {
    int prim = by_primitive ? c.mesh.source_primitive[v] : 0;
    if (prim < 0 || prim >= static_cast<int>(first_root_of_primitive.size())) prim = 0;
    for (const Influence& in : c.skin.influences[v]) {
      if (in.joint < 0 || in.joint >= nj || !(in.weight > 0.0)) continue;
      const int r = root[in.joint];
      int& first = first_root_of_primitive[prim];
      if (first < 0) first = r;
      up[find_set(up, r)] = find_set(up, first);
    }
    const int d = dominant_joint(c.skin.influences[v]);
    dominant[v] = d >= 0 && d < nj ? d : -1;
  }
  std::vector<int> vertices(static_cast<size_t>(nj), 0);
  std::vector<char> has_leg(static_cast<size_t>(nj), 0);
  for (int v = 0; v < nv; ++v)
    if (dominant[v] >= 0) ++vertices[find_set(up, root[dominant[v]])];
  for (int j = 0; j < nj && j < static_cast<int>(roles.size()); ++j)
    if (roles[j].part == BodyPart::kThigh) has_leg[find_set(up, root[j])] = 1;
  std::vector<Figure> out;
  std::vector<int> index(static_cast<size_t>(nj), -1);
  for (int j = 0; j < nj; ++j) {
    if (root[j] != j) continue;
    const int s = find_set(up, j);
    if (vertices[s] == 0 || !has_leg[s]) continue;
    if (index[s] < 0) {
      index[s] = static_cast<int>(out.size());
      out.push_back(Figure{{}, vertices[s]});
    }
    out[index[s]].roots.push_back(j);
  }
  return out;
}

std::string several_figures_reason(const Skeleton& sk, std::span<const Figure> figures) {
  if (figures.size() < 2) return {};
  std::string s = std::to_string(figures.size()) + " characters on separate skeletons (rooted at ";
  for (size_t i = 0; i < figures.size(); ++i) {
    const int r = figures[i].roots.empty() ? -1 : figures[i].roots.front();
    s += (i ? ", '" : "'") + (r >= 0 && r < sk.size() ? sk.names[r] : std::string("?")) + "'";
  }
  return s + ")";
}

}  // namespace rig
