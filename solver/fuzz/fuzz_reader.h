// The fuzz targets' input: doubles and bytes read off the fuzzer's data in
// order; past its end every read is 0.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

struct FuzzReader {
  const uint8_t* p;
  size_t n;
  double next() {
    double v = 0;
    if (n >= sizeof v) {
      std::memcpy(&v, p, sizeof v);
      p += sizeof v, n -= sizeof v;
    } else {
      n = 0;
    }
    return v;
  }
  uint8_t byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  // A value in [lo, hi] from the next 8 bytes (finite or not).
  double in(double lo, double hi) {
    const double v = next();
    if (!std::isfinite(v)) return lo;
    return lo + (hi - lo) * (std::fabs(std::fmod(v, 1.0)));
  }
};
