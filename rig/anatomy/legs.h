// A body's legs read from its skeleton: thigh, shin, foot and toe joints of
// each leg, front or hind, by role and by the tree (legs are chains that
// reach the floor in bind pose; a detached IK foot counts for its leg).
#pragma once

#include <vector>

#include "rig/model/model.h"

namespace rig {

struct Leg {
  Side side = Side::kCenter;
  bool front = false;  // a quadruped's front leg (Role::front)
  int thigh = -1, shin = -1, foot = -1;
  int toe = -1;  // optional (-1)
  // The foot is not below the shin in the tree (rigs that hang feet under
  // the root like IK targets): it is placed in world space, where the shin's
  // bind offset puts it.
  bool detached_foot = false;
  // The bind knee's offset from the hip->ankle line (world) when it is a
  // digitigrade hock: at least kBentKneeFraction of the thigh off the line
  // and bent away from the toes (more than 120 deg from them; the foot's
  // bind +Z without a toe). Zero for a straight or forward-bent bind knee,
  // which keeps solve_two_bone.
  Vec3 bind_knee_offset = Vec3::Zero();
};

inline constexpr double kBentKneeFraction = 0.05;

// One leg per (front, side) whose thigh, shin and foot roles occur exactly
// once and where the thigh is an ancestor of the shin; the foot is below the
// shin or detached; toe when unique and below the foot. Hind legs first,
// left before right.
std::vector<Leg> find_legs(const Skeleton& skeleton);

// A body lying level (a flying pose, issue 45 class 4): every leg read (a
// foot with a thigh above it), from its topmost thigh to its foot, runs
// closer to horizontal than to vertical (Y up), counting only the run along
// the body (not across it, from the right thighs to the left ones): standing
// legs hang down, and a sprawler's splay out to the side.
// False without such a leg. Its feet point like a diver's, so its toes tell
// no facing (roles.cpp), and its tail may lie along the legs
// (detect/beside_legs.h).
bool legs_lie_level(const Skeleton& skeleton);

}  // namespace rig
