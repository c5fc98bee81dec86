#include "rig/anatomy/up_from_legs.h"

#include <cmath>
#include <cstddef>

#include "rig/anatomy/roles.h"

namespace rig {

namespace {

constexpr double kLegsAgree = 0.9;       // length of the mean of the legs' unit directions
constexpr double kNearAxisCos = 0.9063;  // cos 25 deg
// The file's own frame is kept unless its shape legs clearly do not hang:
// read lying down (the wrong up) they run sideways, cos near 0; a seated or
// crouched bind pose stays above this.
constexpr double kClearlyNotDownCos = 0.7;  // cos 45.6 deg
constexpr size_t kMaxShapeNodes = 1024;  // the shape reading runs six times: skeletons, not scenes

// The nearest descendant of `thigh` (breadth first) with the best foot part:
// a foot, else a toe, else a shin; -1 when none. The walk does not enter
// another thigh, so the walks of all thighs together visit each node once.
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
    for (int c : children[n])
      if (part[c] != BodyPart::kThigh) frontier.push_back(c);
  }
  return best;
}

// The mean of the legs' unit directions (thigh -> its leg end) and how
// many legs there are, from each node's body part.
struct LegDirections {
  Vec3 mean = Vec3::Zero();
  int legs = 0;
};
LegDirections leg_directions(const std::vector<std::vector<int>>& children,
                             const std::vector<BodyPart>& part,
                             const std::vector<Vec3>& positions) {
  LegDirections out;
  Vec3 sum = Vec3::Zero();
  for (size_t i = 0; i < part.size(); ++i) {
    if (part[i] != BodyPart::kThigh) continue;
    const int end = leg_end(static_cast<int>(i), children, part);
    if (end < 0) continue;
    const Vec3 leg = positions[end] - positions[i];
    const double length = leg.norm();
    if (!(length > 0) || !std::isfinite(length)) continue;
    sum += leg / length;
    ++out.legs;
  }
  if (out.legs > 0) out.mean = sum / out.legs;
  return out;
}

// The turn taking the model axis nearest `mean` onto -Y, when the legs
// agree and that axis is within kNearAxisCos of it; nothing otherwise or
// when it is -Y already.
std::optional<LegsDownTurn> turn_onto_down(const Vec3& mean) {
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
  return LegsDownTurn{r, std::string(sign > 0 ? "+" : "-") + kAxis[axis], true};
}

// How straight down the legs hang: the cosine of their mean unit direction
// with `down` when they agree (mean >= kLegsAgree long), else -1.
double hang_cos(const LegDirections& d, const Vec3& down) {
  const double length = d.mean.norm();
  if (d.legs < 2 || length < kLegsAgree) return -1.0;
  return d.mean.dot(down) / length;
}

// Without named legs: the roles read from the shape (assign_roles, which
// takes Y as up) in the file's frame and turned onto each other axis. Where
// Y is not up the shape reading finds no legs, or legs that run sideways.
// The file's frame is kept unless its legs clearly do not hang (fewer than
// two, or more than ~45 deg off -Y); then the one other axis whose legs hang
// straight down (agree, within 25 deg of -Y, as for names) is the file's
// up. Two such axes are no answer: the file's frame is kept.
std::optional<LegsDownTurn> turn_shape_legs_down(const std::vector<std::string>& names,
                                                 const std::vector<int>& parents,
                                                 const std::vector<Vec3>& positions,
                                                 const std::vector<std::vector<int>>& children) {
  const size_t n = names.size();
  if (n > kMaxShapeNodes) return std::nullopt;
  auto hang = [&](const Eigen::Matrix3d& turn) {
    Skeleton sk;
    sk.names = names;
    sk.parents = parents;
    for (size_t i = 0; i < n; ++i) {
      Mat4 m = Mat4::Identity();
      m.block<3, 1>(0, 3) = turn * positions[i];
      sk.bind_world.push_back(m);
    }
    assign_roles(sk);
    std::vector<BodyPart> part(n);
    std::vector<Vec3> turned(n);
    for (size_t i = 0; i < n; ++i) {
      part[i] = i < sk.roles.size() ? sk.roles[i].part : BodyPart::kNone;
      turned[i] = sk.bind_world[i].block<3, 1>(0, 3);
    }
    return hang_cos(leg_directions(children, part, turned), Vec3(0, -1, 0));
  };
  if (hang(Eigen::Matrix3d::Identity()) >= kClearlyNotDownCos) return std::nullopt;
  std::optional<LegsDownTurn> best;
  int hanging = 0;
  for (int axis = 0; axis < 3; ++axis)
    for (const double sign : {1.0, -1.0}) {
      if (axis == 1 && sign < 0) continue;
      Vec3 down = Vec3::Zero();
      down[axis] = sign;
      std::optional<LegsDownTurn> turn = turn_onto_down(down);
      if (!turn || hang(turn->rotation) < kNearAxisCos) continue;
      ++hanging;
      best = turn;
      best->by_name = false;
    }
  if (hanging != 1) return std::nullopt;
  return best;
}

}  // namespace

std::optional<LegsDownTurn> turn_legs_down(const std::vector<std::string>& names,
                                           const std::vector<int>& parents,
                                           const std::vector<Vec3>& positions) {
  const size_t n = names.size();
  if (parents.size() != n || positions.size() != n) return std::nullopt;
  std::vector<std::vector<int>> children(n);
  std::vector<BodyPart> part(n);
  std::vector<int> tree_parents(n, -1);
  for (size_t i = 0; i < n; ++i) {
    part[i] = role_from_name(names[i]).part;
    // Parents come first (depth-first table); anything else is not a tree.
    if (parents[i] >= 0 && static_cast<size_t>(parents[i]) < i) {
      children[parents[i]].push_back(static_cast<int>(i));
      tree_parents[i] = parents[i];
    }
  }
  const LegDirections named = leg_directions(children, part, positions);
  if (named.legs >= 2) return turn_onto_down(named.mean);  // names decide: turn or keep
  return turn_shape_legs_down(names, tree_parents, positions, children);
}

}  // namespace rig
