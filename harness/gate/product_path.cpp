#include "harness/gate/product_path.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <tuple>
#include <vector>

#include "rig/model/pose.h"
#include "rig/io/io.h"

namespace harness {

namespace {

// splitmix64: a fixed, platform-independent sequence (no <random> engines,
// whose distributions differ between standard libraries).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double unit_from(std::uint64_t x) { return static_cast<double>(mix(x) >> 11) * 0x1.0p-53 * 2.0 - 1.0; }

}  // namespace

int add_seam_drift(rig::Character& c, double drift) {
  auto& pos = c.mesh.positions;
  if (pos.empty() || drift <= 0) return 0;
  double lo = pos[0].y(), hi = pos[0].y();
  for (const auto& p : pos) lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
  const double step = drift * (hi - lo);
  std::map<std::tuple<double, double, double>, int> first;  // exact position -> first vertex
  int moved = 0;
  for (size_t v = 0; v < pos.size(); ++v) {
    const auto key = std::make_tuple(pos[v].x(), pos[v].y(), pos[v].z());
    if (first.emplace(key, static_cast<int>(v)).second) continue;
    rig::Vec3 d(unit_from(3 * v), unit_from(3 * v + 1), unit_from(3 * v + 2));
    if (d.norm() < 1e-3) d = rig::Vec3::UnitX();
    pos[v] += step * d.normalized();
    ++moved;
  }
  return moved;
}

bool store_clip_pose(rig::Character& c, const std::string& clip, double time, double root_turn_deg) {
  for (const rig::Clip& k : c.clips)
    if (k.name == clip) {
      std::vector<rig::Transform> locals = c.skeleton.neutral_local;
      rig::apply_clip(k, time, locals);
      const rig::Quat turn(Eigen::AngleAxisd(root_turn_deg * 3.14159265358979323846 / 180.0, rig::Vec3::UnitY()));
      for (int j = 0; j < c.skeleton.size(); ++j)
        if (c.skeleton.parents[j] < 0) {
          locals[j].rotation = (turn * locals[j].rotation).normalized();
          locals[j].translation = turn * locals[j].translation;
        }
      c.skeleton.stored_local = locals;
      return true;
    }
  return false;
}

rig::Status round_trip_glb(const std::string& tag, rig::Character& c) {
  namespace fs = std::filesystem;
  static std::atomic<int> counter{0};
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec) / ("tailrig_product_path_" + std::to_string(::getpid()) + "_" +
                                                       tag + "_" + std::to_string(counter++));
  fs::create_directories(dir, ec);
  const std::string file = (dir / "character.glb").string();
  rig::Character back;
  rig::Status st = rig::save_glb(c, file);
  if (st.ok()) st = rig::load(file, back);
  fs::remove_all(dir, ec);
  if (st.ok()) c = std::move(back);
  return st;
}

}  // namespace harness
