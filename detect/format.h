// detect-internal: numbers in the reports' reason strings.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace detect {

// `v` printed with the printf format `f` (one double conversion).
inline std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// A shape ratio as a user reads it: a region of a few points on a line or
// in a plane has one of its spreads (near) zero, and the ratio is infinite
// or a rounding artefact (130746953.65 on a 3-vertex shard).
inline std::string ratio_text(double x) {
  return std::isfinite(x) && x < 1e3 ? fmt("%.2f", x) : std::string("> 1000");
}

}  // namespace detect
