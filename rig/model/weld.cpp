#include "rig/model/weld.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace rig {
namespace {

struct CellKey {
  int64_t x, y, z;
  bool operator==(const CellKey&) const = default;
};
size_t cell_hash(const CellKey& k) {
  uint64_t h = static_cast<uint64_t>(k.x) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<uint64_t>(k.y) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  h ^= static_cast<uint64_t>(k.z) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
  return static_cast<size_t>(h ^ (h >> 29));
}

// Cell -> its welded ids, ascending, as a singly linked list through
// `next_in_cell` (head and tail per cell): an open-addressing table with no
// allocation per cell or per id. A node-based map of vectors was a quarter
// of `fix` at 1 M vertices (issue 14). A slot holds no key: a cell is told
// by the cell of its first id's representative (`key_of`), checked only
// when a 32-bit fingerprint of the hash matches; 12-byte slots instead of
// 40 keep the 1 M-vertex table at 48 MB (it was 160 MB of page faults and
// cache misses, a fifth of `fix`).
template <class KeyOf>
class CellGrid {
 public:
  CellGrid(size_t max_ids, KeyOf key_of) : key_of_(key_of) {
    size_t n = 16;
    while (n < 2 * max_ids) n <<= 1;
    slots_.resize(n);
    occupied_.resize(n / 2);  // 32 bits per slot: few false hits (n >= 16)
    next_in_cell_.reserve(max_ids);
  }
  // First id of the cell, or -1; then next(id) until -1.
  int head(const CellKey& k) const {
    // Most searched cells are empty (the tolerance is far below the edge
    // length): a bit filter, a third of the table and mostly zeros,
    // answers them without a cache miss in the table.
    const size_t b = filter_bit(k);
    if (((occupied_[b >> 6] >> (b & 63)) & 1) == 0) return -1;
    const Slot* s = find(k, cell_hash(k));
    return s ? s->head : -1;
  }
  int next(int id) const { return next_in_cell_[static_cast<size_t>(id)]; }
  // Starts loading what head(k) and append(k, ...) will read: a vertex's own
  // cell is a random slot, a cache miss unless asked for well ahead. Always
  // inlined: GCC 12 takes an out-of-line call that only prefetches for one
  // without effect and deletes it.
  [[gnu::always_inline]] void prefetch(const CellKey& k) const {
    __builtin_prefetch(&slots_[cell_hash(k) & (slots_.size() - 1)]);
    __builtin_prefetch(&occupied_[filter_bit(k) >> 6]);
  }
  // Appends `id` (larger than every id already in the grid) to cell k.
  void append(const CellKey& k, int id) {
    next_in_cell_.push_back(-1);
    const size_t mask = slots_.size() - 1;
    const size_t hash = cell_hash(k);
    const size_t b = filter_bit(k);
    occupied_[b >> 6] |= uint64_t{1} << (b & 63);
    const uint32_t print = fingerprint(hash);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.head < 0) {
        s = {print, id, id};
        return;
      }
      if (s.print == print && key_of_(s.head) == k) {
        next_in_cell_[static_cast<size_t>(s.tail)] = id;
        s.tail = id;
        return;
      }
    }
  }

 private:
  struct Slot {
    uint32_t print = 0;
    int head = -1, tail = -1;
  };
  // The filter keeps the cells of one 8 x 8 x 8 block in one 64-byte line
  // (a bit per cell): vertices come in runs along the surface, so most
  // lookups hit a line already in cache, where a bit per hashed cell missed
  // for nearly every vertex (the weld's main cost at 1 M vertices).
  size_t filter_bit(const CellKey& k) const {
    const size_t lines = occupied_.size() / 8;
    const size_t line = cell_hash({k.x >> 3, k.y >> 3, k.z >> 3}) & (lines - 1);
    const size_t local = static_cast<size_t>((k.x & 7) | ((k.y & 7) << 3) | ((k.z & 7) << 6));
    return line * 512 + local;
  }
  static uint32_t fingerprint(size_t hash) {
    return static_cast<uint32_t>(static_cast<uint64_t>(hash) >> 32);
  }
  const Slot* find(const CellKey& k, size_t hash) const {
    const size_t mask = slots_.size() - 1;
    const uint32_t print = fingerprint(hash);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.head < 0) return nullptr;
      if (s.print == print && key_of_(s.head) == k) return &s;
    }
  }
  KeyOf key_of_;
  std::vector<Slot> slots_;         // at most half full: probes end
  std::vector<uint64_t> occupied_;  // bit filter_bit(k): some cell mapping there is in the table
  std::vector<int> next_in_cell_;
};

}  // namespace

Welded weld_by_position(const std::vector<Vec3>& positions,
                        const std::vector<std::array<int, 3>>& triangles, double tolerance) {
  Welded w;
  w.weld_of.assign(positions.size(), -1);
  // Cells of at least `tolerance`: any partner lies in the 27 surrounding
  // cells. They are also at least 2^-40 of the largest coordinate, so a cell
  // index stays far inside int64 (a 1e38 or 1e9 coordinate over a tiny
  // tolerance overflowed the cast: undefined behaviour, issue 15), and any
  // value that still does not fit (non-finite) is clamped, never cast raw.
  double extent = 0.0;
  for (const Vec3& p : positions) {
    if (p.allFinite()) extent = std::max(extent, p.cwiseAbs().maxCoeff());
  }
  // Cells are kCellTolerances x the tolerance (>= 2): a partner's cell index
  // lies between those of p - tolerance and p + tolerance on each axis
  // (floor is monotonic), so at most 2 x 2 x 2 cells are searched, and only
  // where p is within the tolerance of a cell face: ~1.3 cells on average
  // at 8 (all 8 at 2; 0.13 s of a 1 M-vertex fix). The cell size never
  // changes the result: every partner is in a searched cell, the lowest
  // matching id wins. Welding tolerances are far below edge lengths, so
  // cells stay nearly empty.
  constexpr double kCellTolerances = 8.0;
  const double cell = std::max(
      {kCellTolerances * tolerance, std::ldexp(extent, -40), std::numeric_limits<double>::min()});
  const double tol2 = tolerance * tolerance;
  // A product, not a quotient (9 per vertex): any monotonic cell index gives
  // the same welding, as long as partners' cells are the ones searched.
  const double per_cell = 1.0 / cell;
  auto index_of = [per_cell](double coordinate) {
    constexpr double kLimit = 0x1p62;  // neighbours (index +- 1) stay in range too
    const double i = std::floor(coordinate * per_cell);
    return std::isnan(i) ? int64_t{0} : static_cast<int64_t>(std::clamp(i, -kLimit, kLimit));
  };
  auto cell_of = [&](const Vec3& p) {
    return CellKey{index_of(p.x()), index_of(p.y()), index_of(p.z())};
  };
  w.representative.reserve(positions.size());
  // A welded id's cell is its representative's (where it was appended).
  auto key_of = [&](int id) {
    return cell_of(positions[static_cast<size_t>(w.representative[id])]);
  };
  CellGrid grid(positions.size(), key_of);
  // Cell keys are computed once, kPrefetchAhead vertices ahead, and kept in
  // a ring until their vertex comes.
  constexpr size_t kPrefetchAhead = 16;  // vertices: covers a miss's latency
  constexpr size_t kRing = 32;           // > kPrefetchAhead, a power of two
  std::array<CellKey, kRing> keys;
  for (size_t v = 0; v < std::min(kPrefetchAhead, positions.size()); ++v)
    keys[v] = cell_of(positions[v]);
  // The tolerance in cells, widened: a neighbour cell is searched when p
  // lies this close to the shared face. Searching a cell too many never
  // changes the result (only partners within the tolerance match); the
  // margins keep every cell the exact test (index_of(c -+ tolerance)) asks for.
  const double near_face = tolerance * per_cell * (1.0 + 1e-6);
  for (size_t v = 0; v < positions.size(); ++v) {
    const CellKey k = keys[v & (kRing - 1)];
    if (v + kPrefetchAhead < positions.size()) {
      const CellKey ahead = cell_of(positions[v + kPrefetchAhead]);
      keys[(v + kPrefetchAhead) & (kRing - 1)] = ahead;
      grid.prefetch(ahead);
    }
    const Vec3& p = positions[v];
    // At most one cell further on each axis (2 tolerance cells); a non-finite
    // coordinate searches its own cell only.
    auto span = [&](double c, int64_t i) {
      const double f = c * per_cell;
      if (!(std::abs(f) < 0x1p52)) {  // huge or not finite: the exact test
        return std::array<int64_t, 2>{index_of(c - tolerance) < i ? i - 1 : i,
                                      index_of(c + tolerance) > i ? i + 1 : i};
      }
      const double above_floor = f - static_cast<double>(i);  // in [0, 1) up to rounding
      const double slack = near_face + 1e-9 * (std::abs(f) + 1.0);
      return std::array<int64_t, 2>{above_floor <= slack ? i - 1 : i,
                                    1.0 - above_floor <= slack ? i + 1 : i};
    };
    const auto sx = span(p.x(), k.x), sy = span(p.y(), k.y), sz = span(p.z(), k.z);
    // The lowest matching welded id over every searched cell: ids ascend in
    // a cell, so each cell stops at its first match.
    int found = -1;
    for (int64_t x = sx[0]; x <= sx[1]; ++x)
      for (int64_t y = sy[0]; y <= sy[1]; ++y)
        for (int64_t z = sz[0]; z <= sz[1]; ++z)
          for (int id = grid.head({x, y, z}); id >= 0 && (found < 0 || id < found);
               id = grid.next(id)) {
            if ((positions[w.representative[id]] - p).squaredNorm() <= tol2) {
              found = id;
              break;
            }
          }
    if (found < 0) {
      found = static_cast<int>(w.representative.size());
      w.representative.push_back(static_cast<int>(v));
      grid.append(k, found);
    }
    w.weld_of[v] = found;
  }
  w.triangles.reserve(triangles.size());
  for (const auto& t : triangles) {
    std::array<int, 3> u = {w.weld_of[t[0]], w.weld_of[t[1]], w.weld_of[t[2]]};
    if (u[0] == u[1] || u[1] == u[2] || u[0] == u[2]) continue;
    w.triangles.push_back(u);
  }
  return w;
}

std::vector<std::pair<int, int>> unique_edges(const std::vector<std::array<int, 3>>& triangles) {
  std::vector<std::pair<int, int>> e;
  e.reserve(triangles.size() * 3);
  for (const auto& t : triangles) {
    for (int i = 0; i < 3; ++i) {
      int a = t[i], b = t[(i + 1) % 3];
      if (a == b) continue;
      e.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  return e;
}

double model_height(const std::vector<Vec3>& positions) {
  if (positions.empty()) return 0.0;
  double lo = positions[0].y(), hi = lo;
  for (const Vec3& p : positions) {
    lo = std::min(lo, p.y());
    hi = std::max(hi, p.y());
  }
  return hi - lo;
}

}  // namespace rig
