#include "measure/file_stretch.h"

#include <algorithm>

#include "rig/anatomy/name_tokens.h"
#include "rig/anatomy/skin_queries.h"
#include "rig/model/pose.h"
#include "rig/model/weld.h"

namespace measure {

using rig::Status;

namespace {

Status bad(const std::string& m) { return Status::Error(Status::Code::kBadData, m); }

nlohmann::json stats_json(const StretchStats& s, long edges) {
  return {{"edges", edges}, {"samples", s.samples}, {"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99},
          {"max", s.max},   {"min", s.min},         {"torn_fraction", s.torn_fraction}};
}

}  // namespace

Status measure_file_stretch(const rig::Character& file, const rig::Clip& clip, const rig::Character& ref,
                            int samples, FileStretch& out, int worst_edges) {
  out = FileStretch{};
  if (samples < 1) return bad("samples must be >= 1");
  const int nv = file.mesh.vertex_count();
  if (ref.mesh.vertex_count() != nv || static_cast<int>(ref.skin.influences.size()) != nv)
    return bad("the reference has " + std::to_string(ref.mesh.vertex_count()) + " vertices, the file " +
               std::to_string(nv) + ": not the same mesh");
  const rig::Skeleton& rs = ref.skeleton;
  std::vector<char> tail_bone(static_cast<size_t>(rs.size()), 0);
  std::vector<int> depth(static_cast<size_t>(rs.size()), 0);
  for (int j = 0; j < rs.size(); ++j) {
    const int p = rs.parents[j];
    depth[j] = p >= 0 ? depth[p] + 1 : 0;
    tail_bone[j] = rig::name_has_token(rs.names[j], "tail") || (p >= 0 && tail_bone[p]);
  }
  std::vector<int> dom(static_cast<size_t>(nv));
  int deepest = -1, tail_root = -1;
  std::vector<char> in_tail(static_cast<size_t>(nv), 0);
  for (int v = 0; v < nv; ++v) {
    dom[v] = rig::dominant_joint(ref.skin.influences[v]);
    if (dom[v] < 0 || !tail_bone[dom[v]]) continue;
    in_tail[v] = 1;
    ++out.tail_vertices;
    if (deepest < 0 || depth[dom[v]] > depth[deepest]) deepest = dom[v];
  }
  // No tail (a tailless character, or one measured against itself): every
  // edge is body and there is no tip to follow.
  int frame = -1;
  std::vector<int> tip;
  if (deepest >= 0) {
    for (int j = 0; j < rs.size() && tail_root < 0; ++j)
      if (tail_bone[j] && (rs.parents[j] < 0 || !tail_bone[rs.parents[j]])) tail_root = j;
    if (tail_root < 0 || rs.parents[tail_root] < 0) return bad("the reference tail root has no parent bone");
    out.frame_bone = rs.names[rs.parents[tail_root]];
    frame = file.skeleton.find(out.frame_bone);
    if (frame < 0) return bad("the file has no bone '" + out.frame_bone + "' (the reference tail's parent)");
    for (int v = 0; v < nv; ++v)
      if (dom[v] == deepest) tip.push_back(v);
  }
  out.tip_vertices = static_cast<int>(tip.size());

  std::vector<std::pair<int, int>> tail_edges, body_edges;
  for (const auto& e : rig::unique_edges(file.mesh.triangles)) {
    if (in_tail[e.first] && in_tail[e.second]) tail_edges.push_back(e);
    else if (!in_tail[e.first] && !in_tail[e.second]) body_edges.push_back(e);
  }
  out.tail_edges = static_cast<long>(tail_edges.size());
  out.body_edges = static_cast<long>(body_edges.size());
  out.height = rig::model_height(file.mesh.positions);

  std::vector<double> tail_ratios, body_ratios;
  for (int i = 0; i < samples; ++i) {
    const double t = clip.duration * i / samples;
    out.times.push_back(t);
    const auto world = rig::pose_at(file.skeleton, clip, t);
    const auto posed = rig::skin_positions(file.mesh, file.skin, file.skeleton, world);
    append_edge_ratios(file.mesh.positions, posed, tail_edges, tail_ratios);
    append_edge_ratios(file.mesh.positions, posed, body_edges, body_ratios);
    if (tip.empty()) continue;
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int v : tip) c += posed[v];
    c /= static_cast<double>(tip.size());
    const Eigen::Matrix3d r = world[frame].block<3, 3>(0, 0).colwise().normalized();
    out.tip.push_back(r.transpose() * (c - world[frame].block<3, 1>(0, 3)));
  }
  const auto edge_worst = [&](const std::vector<std::pair<int, int>>& edges, const std::vector<double>& ratios,
                              bool tail) {
    // ratios are sample-major over the edges with a bind length (as
    // append_edge_ratios skips the others): sample i's edge e is at i * n + e.
    std::vector<std::pair<int, int>> measured;
    for (const auto& e : edges)
      if ((file.mesh.positions[e.first] - file.mesh.positions[e.second]).norm() > 0) measured.push_back(e);
    const size_t n = measured.size();
    if (ratios.size() != n * out.times.size()) return;  // defensive: definitions drifted apart
    for (size_t e = 0; e < n; ++e) {
      WorstEdge w{measured[e].first, measured[e].second, 1.0, 0.0, tail, {}};
      for (size_t i = 0; i < out.times.size(); ++i) {
        const double r = ratios[i * n + e];
        if (std::max(r, 1.0 / r) > std::max(w.ratio, 1.0 / w.ratio)) w.ratio = r, w.time = out.times[i];
      }
      out.worst.push_back(std::move(w));
    }
  };
  if (worst_edges > 0) {
    edge_worst(tail_edges, tail_ratios, true);
    edge_worst(body_edges, body_ratios, false);
    const auto dev = [](const WorstEdge& w) { return std::max(w.ratio, 1.0 / w.ratio); };
    const size_t keep = std::min(out.worst.size(), static_cast<size_t>(worst_edges));
    std::partial_sort(out.worst.begin(), out.worst.begin() + static_cast<long>(keep), out.worst.end(),
                      [&](const WorstEdge& x, const WorstEdge& y) { return dev(x) > dev(y); });
    out.worst.resize(keep);
    const auto name = [&](int v) {
      const int j = rig::dominant_joint(file.skin.influences[v]);
      return j >= 0 ? file.skeleton.names[j] : std::string("-");
    };
    for (WorstEdge& w : out.worst) w.bones = name(w.a) + " / " + name(w.b);
  }
  for (const auto& a : out.tip)
    for (const auto& b : out.tip) out.tip_range = std::max(out.tip_range, (a - b).norm());
  out.tail = stretch_stats(std::move(tail_ratios));
  out.body = stretch_stats(std::move(body_ratios));
  return Status::Ok();
}

nlohmann::json file_stretch_json(const FileStretch& s) {
  nlohmann::json tip = nlohmann::json::array();
  for (const auto& p : s.tip) tip.push_back({p.x(), p.y(), p.z()});
  nlohmann::json worst = nlohmann::json::array();
  for (const WorstEdge& w : s.worst)
    worst.push_back({{"vertices", {w.a, w.b}}, {"ratio", w.ratio}, {"time", w.time}, {"tail", w.tail},
                     {"bones", w.bones}});
  return {{"tail", stats_json(s.tail, s.tail_edges)},
          {"worst_edges", worst},
          {"body", stats_json(s.body, s.body_edges)},
          {"tail_vertices", s.tail_vertices},
          {"tip_vertices", s.tip_vertices},
          {"frame_bone", s.frame_bone},
          {"height", s.height},
          {"tip_range", s.tip_range},
          {"tip_range_rel_H", s.height > 0 ? s.tip_range / s.height : 0.0},
          {"times", s.times},
          {"tip", tip}};
}

}  // namespace measure
