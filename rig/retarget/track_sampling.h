// Internal: track helpers of rig::retarget and rig::copy_own_rig_clip.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// A track of one key at time 0.
template <typename T>
Track<T> constant_track(const T& v) {
  Track<T> t;
  t.times = {0.0};
  t.values = {v};
  return t;
}

// Output key times over [0, duration]: k / rate, the last one exactly at the
// duration (one key for a zero-length clip). `rate` must be positive; a
// non-finite or negative duration counts as zero.
inline std::vector<double> sample_times(double duration, double rate) {
  duration = std::isfinite(duration) ? std::max(0.0, duration) : 0.0;
  const int frames = std::max(1, static_cast<int>(std::ceil(duration * rate - 1e-9))) + 1;
  std::vector<double> times(frames);
  for (int k = 0; k < frames; ++k) times[k] = std::min(duration, k / rate);
  if (duration == 0.0) times.resize(1);
  return times;
}

}  // namespace rig
