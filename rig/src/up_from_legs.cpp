#include "up_from_legs.h"

#include <cmath>
#include <cstddef>

#include "rig/roles.h"

namespace rig {

namespace {

constexpr double kLegsAgree = 0.9;       // length of the mean of the legs' unit directions
constexpr double kNearAxisCos = 0.9063;  // cos 25 deg

// The nearest descendant of `thigh` (breadth first) with the best foot part:
// a foot, else a toe, else a shin; -1 when none.
int leg_end(int thigh, const std::vector<std::vector<int>>& children,
            const std::vector<BodyPart>& part) {
  int best = -1, best_rank = 0;
  std::vector<int> frontier{thigh};
  // Each node is visited once (a tree), so the walk is bounded by its size.
  for (size_t head = 0; head < frontier.size(); ++head) {
    const int n = frontier[head];
    const int rank = part[n] == BodyPart::kFoot   ? 3
                     : part[n] == BodyPart::kToe  ? 2
                     : part[n] == BodyPart::kShin ? 1
                                                  : 0;
    if (n != thigh && rank > best_rank) best = n, best_rank = rank;
    if (best_rank == 3) break;
    for (int c : children[n]) frontier.push_back(c);
  }
  return best;
}

}  // namespace

std::optional<LegsDownTurn> turn_named_legs_down(const std::vector<std::string>& names,
                                                 const std::vector<int>& parents,
                                                 const std::vector<Vec3>& positions) {
  const size_t n = names.size();
  if (parents.size() != n || positions.size() != n) return std::nullopt;
  std::vector<std::vector<int>> children(n);
  std::vector<BodyPart> part(n);
  for (size_t i = 0; i < n; ++i) {
    part[i] = role_from_name(names[i]).part;
    // Parents come first (depth-first table); anything else is not a tree.
    if (parents[i] >= 0 && static_cast<size_t>(parents[i]) < i)
      children[parents[i]].push_back(static_cast<int>(i));
  }
  Vec3 sum = Vec3::Zero();
  int legs = 0;
  for (size_t i = 0; i < n; ++i) {
    if (part[i] != BodyPart::kThigh) continue;
    const int end = leg_end(static_cast<int>(i), children, part);
    if (end < 0) continue;
    const Vec3 leg = positions[end] - positions[i];
    const double length = leg.norm();
    if (!(length > 0) || !std::isfinite(length)) continue;
    sum += leg / length;
    ++legs;
  }
  if (legs < 2) return std::nullopt;
  const Vec3 mean = sum / legs;
  if (mean.norm() < kLegsAgree) return std::nullopt;
  int axis = 0;
  mean.cwiseAbs().maxCoeff(&axis);
  if (std::abs(mean[axis]) < kNearAxisCos * mean.norm()) return std::nullopt;
  const double sign = mean[axis] > 0 ? 1.0 : -1.0;
  if (axis == 1 && sign < 0) return std::nullopt;
  Vec3 down = Vec3::Zero();
  down[axis] = sign;
  Eigen::Matrix3d r = Eigen::Quaterniond::FromTwoVectors(down, Vec3(0, -1, 0)).toRotationMatrix();
  for (int k = 0; k < 9; ++k) r.data()[k] = std::round(r.data()[k]);  // an axis permutation: exact
  if (std::abs(r.determinant() - 1.0) > 1e-9) return std::nullopt;
  static const char* const kAxis[] = {"X", "Y", "Z"};
  return LegsDownTurn{r, std::string(sign > 0 ? "+" : "-") + kAxis[axis]};
}

}  // namespace rig
