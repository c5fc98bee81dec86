// Idle sway (issue 46): a standing tail sways side to side; a moving body's
// tail does what it always did. Internal to the scalar step.
//
// Each link's rest direction (the spring's target, and the rest the bend
// coupling and the bend limit measure from) turns about the hips' up axis,
// by angle(t) / N per link so the turn adds up along the tail
// and its tip swings by angle(t) = amplitude sin(2 pi t / period) x weight.
// t is the caller's clock (the sum of dt), so a loop of duration D baked
// with a period dividing D closes without a seam. weight is 1 while the
// body's smoothed speed at the tail (the root's speed plus the hips' turn
// rate times the tail's length) is below ChainParams::idle_sway_still_speed
// and falls to 0 at twice it: a walk, even in place, moves faster than that,
// a breathing idle does not.
#pragma once

#include "small_math.h"
#include "solver/params.h"
#include "solver/state.h"

namespace solver::detail {

// One internal step's turn of each link's rest target, about `up`.
struct SwayTurn {
  bool on = false;
  V3 up{0.0, 1.0, 0.0};
  double cos_turn = 1.0, sin_turn = 0.0;  // of angle(t) / N
};

// The clock and the smoothed speed as two numbers (the scalar state's, or a
// batch lane's): what advance_sway_clock does to a ChainState.
void advance_sway(const ChainParams& params, double& time, double& speed, double dt,
                  double root_moved);

// The sway's angle at the tip for the smoothed speed `speed`, radians at
// sin = 1 (amplitude times the weight of stillness; 0 when off or moving),
// and its period in seconds (the params' or their fallbacks).
double sway_amplitude(const ChainParams& params, double speed);
double sway_period(const ChainParams& params);

// After a frame of dt seconds in which the body carried the tail
// `root_moved` metres (the root's travel plus the hips' turn times the
// tail's length):
// the smoothed speed and the clock of the state advance. Teleports and dt
// <= 0 leave both alone (the caller does not call it then).
void advance_sway_clock(const ChainParams& params, ChainState& st, double dt, double root_moved);

// The turn at time `t` (seconds of the sway clock) for `links` links, hips
// up axis `up` (world, unit). Off (on = false) when the amplitude is 0.
SwayTurn sway_turn(const ChainParams& params, const ChainState& st, double t, int links, const V3& up);

// `r` turned by the sway (Rodrigues about turn.up).
inline V3 swayed(const SwayTurn& turn, const V3& r) {
  const V3 u = turn.up;
  return turn.cos_turn * r + turn.sin_turn * cross(u, r) + ((1.0 - turn.cos_turn) * dot(u, r)) * u;
}

}  // namespace solver::detail
