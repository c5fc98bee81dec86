#include "detect/rewrite/grow_chain.h"

#include <algorithm>
#include <cassert>
#include <utility>
#include <cmath>
#include <limits>

namespace detect {

int bone_count(double length, double height, const ChainParams& params, double mesh_step) {
  const double seg = params.segment_fraction * height;
  double k = seg > 0.0 ? std::round(length / seg) : 0.0;
  if (mesh_step > 0.0 && std::isfinite(mesh_step)) k = std::min(k, std::floor(length / mesh_step));
  const double clamped =
      std::clamp(k, static_cast<double>(params.min_bones), static_cast<double>(params.max_bones));
  return static_cast<int>(clamped);
}

double edge_step_along(const std::vector<std::pair<int, int>>& edges, const std::vector<double>& g) {
  std::vector<double> steps;
  steps.reserve(edges.size());
  for (const auto& [a, b] : edges) {
    const double d = std::abs(g[static_cast<size_t>(a)] - g[static_cast<size_t>(b)]);
    if (std::isfinite(d)) steps.push_back(d);
  }
  if (steps.empty()) return 0.0;
  const size_t i = static_cast<size_t>(0.9 * static_cast<double>(steps.size() - 1));
  std::nth_element(steps.begin(), steps.begin() + static_cast<long>(i), steps.end());
  return steps[i];
}

std::array<double, 3> blend_weights(double f) {
  const double w_prev = std::clamp(0.5 - 2.0 * f, 0.0, 0.5);
  const double w_next = std::clamp(2.0 * f - 1.5, 0.0, 0.5);
  return {w_prev, 1.0 - w_prev - w_next, w_next};
}

std::vector<rig::Vec3> chain_joints(const std::vector<rig::Vec3>& points,
                                    const std::vector<double>& g, const rig::Vec3& root,
                                    double length, int bones, int passes, const RootLine& root_line) {
  assert(points.size() == g.size());
  assert(bones >= 1);
  std::vector<rig::Vec3> j(bones + 1, root);
  const double seg = length / bones;
  for (int i = 1; i <= bones; ++i) {
    const double target = i * seg;
    if (root_line.length > 0.0 && target < root_line.length) {
      j[i] = root + (root_line.end - root) * (target / root_line.length);
      continue;
    }
    rig::Vec3 sum = rig::Vec3::Zero();
    int n = 0;
    for (size_t v = 0; v < points.size(); ++v) {
      if (std::isfinite(g[v]) && std::abs(g[v] - target) <= 0.5 * seg) {
        sum += points[v];
        ++n;
      }
    }
    if (n == 0) {  // empty window: the points nearest to the target
      double best = std::numeric_limits<double>::infinity();
      for (size_t v = 0; v < points.size(); ++v) {
        if (std::isfinite(g[v])) best = std::min(best, std::abs(g[v] - target));
      }
      for (size_t v = 0; v < points.size(); ++v) {
        if (std::isfinite(g[v]) && std::abs(g[v] - target) <= best * (1.0 + 1e-12)) {
          sum += points[v];
          ++n;
        }
      }
    }
    j[i] = n > 0 ? rig::Vec3(sum / n) : j[i - 1];
  }
  for (int pass = 0; pass < passes; ++pass) {
    const std::vector<rig::Vec3> old = j;
    for (int i = 1; i < bones; ++i) j[i] = 0.5 * old[i] + 0.25 * (old[i - 1] + old[i + 1]);
  }
  return j;
}

std::vector<rig::Influence> chain_influences(double g, double length, int bones, int parent,
                                             int first_bone) {
  double s = length > 0.0 ? bones * g / length : 0.0;
  if (!(s >= 0.0)) s = 0.0;  // also NaN
  s = std::min(s, static_cast<double>(bones));
  int k = static_cast<int>(std::floor(s));
  double f = s - k;
  if (k >= bones) {  // s == K: the tip, end of the last segment
    k = bones - 1;
    f = 1.0;
  }
  auto w = blend_weights(f);
  if (k == bones - 1) {  // no next bone: its share stays with the last bone
    w[1] += w[2];
    w[2] = 0.0;
  }
  const int self = first_bone + k;
  const int prev = k == 0 ? parent : self - 1;
  std::vector<rig::Influence> out;
  if (w[0] > 0.0) out.push_back({prev, w[0]});
  if (w[1] > 0.0) out.push_back({self, w[1]});
  if (w[2] > 0.0) out.push_back({self + 1, w[2]});
  return out;
}

rig::Character add_chain(rig::Character in, int parent, const std::vector<rig::Vec3>& joints,
                         double length, const std::vector<int>& vertices,
                         const std::vector<double>& g, const ChainParams& params,
                         std::vector<int>* joint_ids) {
  assert(parent >= 0 && parent < in.skeleton.size());
  assert(joints.size() >= 2);
  assert(vertices.size() == g.size());
  rig::Character out = std::move(in);
  rig::Skeleton& sk = out.skeleton;
  const int bones = static_cast<int>(joints.size()) - 1;
  const rig::Mat4 parent_world = sk.bind_world[parent];
  const Eigen::Matrix3d linear = parent_world.block<3, 3>(0, 0);
  const Eigen::Matrix3d linear_inv = linear.inverse();
  const int first = sk.size();
  const bool has_roles = static_cast<int>(sk.roles.size()) == sk.size();
  std::vector<int> ids;
  // One prefix for the whole chain (issue 11: a second chain was named
  // Tail_1.2..Tail_4.2 then Tail_5..): the first of "", "Chain2_",
  // "Chain3_", ... under which no name of the chain is taken, so every
  // chain reads as <prefix>Tail_1..Tail_K, Tail_End (solver/chain.h).
  std::string chain_prefix;
  for (int n = 2;; ++n) {
    bool taken = false;
    for (int i = 0; i <= bones && !taken; ++i) {
      taken = sk.find(chain_prefix + params.bone_prefix +
                      (i < bones ? std::to_string(i + 1) : std::string("End"))) >= 0;
    }
    if (!taken) break;
    chain_prefix = "Chain" + std::to_string(n) + "_";
  }
  for (int i = 0; i <= bones; ++i) {
    const std::string name = chain_prefix + params.bone_prefix +
                             (i < bones ? std::to_string(i + 1) : std::string("End"));
    const int id = sk.size();
    const int par = i == 0 ? parent : id - 1;
    rig::Mat4 world = parent_world;
    world.block<3, 1>(0, 3) = joints[i];
    const rig::Vec3 parent_pos = sk.bind_world[par].block<3, 1>(0, 3);
    rig::Transform local;
    local.translation = linear_inv * (joints[i] - parent_pos);
    sk.names.push_back(name);
    sk.parents.push_back(par);
    if (has_roles) sk.roles.push_back(rig::Role{});
    sk.bind_world.push_back(world);
    sk.inverse_bind.push_back(world.inverse());
    if (!sk.neutral_local.empty() || first == 0) sk.neutral_local.push_back(local);
    if (!sk.stored_local.empty() || first == 0) sk.stored_local.push_back(local);
    if (!sk.root_parent_world.empty() || first == 0)
      sk.root_parent_world.push_back(rig::Mat4::Identity());
    ids.push_back(id);
  }
  for (size_t i = 0; i < vertices.size(); ++i) {
    out.skin.influences[vertices[i]] = chain_influences(g[i], length, bones, parent, first);
  }
  if (joint_ids) *joint_ids = ids;
  return out;
}

}  // namespace detect
