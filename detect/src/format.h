// detect-internal: numbers in the reports' reason strings.
#pragma once

#include <cstdio>
#include <string>

namespace detect {

// `v` printed with the printf format `f` (one double conversion).
inline std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace detect
