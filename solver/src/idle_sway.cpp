// Idle sway (see idle_sway.h).
#include "idle_sway.h"

#include <algorithm>
#include <cmath>

namespace solver::detail {

namespace {

// A parameter as given when it is a usable positive number, else `fallback`
// (nothing non-finite reaches the state).
double positive_or(double x, double fallback) { return x > 0.0 && std::isfinite(x) ? x : fallback; }

}  // namespace

void advance_sway(const ChainParams& params, double& time, double& speed, double dt,
                  double root_moved) {
  if (!(params.idle_sway_deg > 0.0) || !(dt > 0.0) || !std::isfinite(dt)) return;
  // Exponential smoothing of the root's speed over idle_sway_fade seconds:
  // the sway fades in and out over about that long.
  const double keep = std::exp(-dt / std::max(positive_or(params.idle_sway_fade, 0.5), 1e-3));
  const double now = root_moved / dt;
  speed = keep * speed + (1.0 - keep) * (std::isfinite(now) ? now : 0.0);
  time += dt;
  // A day-long session loses no phase resolution: the clock wraps by whole
  // periods (sin is periodic).
  const double period = sway_period(params);
  if (time > 1e6 * period) time = std::fmod(time, period);
}

void advance_sway_clock(const ChainParams& params, ChainState& st, double dt, double root_moved) {
  advance_sway(params, st.sway_time, st.sway_speed, dt, root_moved);
}

double sway_period(const ChainParams& params) {
  return std::max(positive_or(params.idle_sway_period, 2.4), 1e-3);
}

double sway_amplitude(const ChainParams& params, double speed) {
  if (!(params.idle_sway_deg > 0.0) || !std::isfinite(params.idle_sway_deg)) return 0.0;
  const double still = std::max(positive_or(params.idle_sway_still_speed, 0.1), 1e-6);
  const double weight = std::clamp((2.0 * still - speed) / still, 0.0, 1.0);
  if (!(weight > 0.0)) return 0.0;
  return params.idle_sway_deg * (M_PI / 180.0) * weight;
}

SwayTurn sway_turn(const ChainParams& params, const ChainState& st, double t, int links, const V3& up) {
  SwayTurn turn;
  if (links < 1) return turn;
  const double amplitude = sway_amplitude(params, st.sway_speed);
  if (!(amplitude > 0.0)) return turn;
  const double angle = amplitude * std::sin(2.0 * M_PI * t / sway_period(params));
  if (!std::isfinite(angle)) return turn;
  turn.on = true;
  turn.up = up;
  turn.cos_turn = std::cos(angle / links);
  turn.sin_turn = std::sin(angle / links);
  return turn;
}

}  // namespace solver::detail
