// Exact order statistics of many doubles without sorting them: the values a
// full ascending sort would hold at a few ranks (the percentiles' floor and
// next rank, min, max), by a radix select on the doubles' order-preserving
// integer keys.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace measure {

// The values an ascending sort of `values` holds at each of `ranks` (each
// < values.size(); any order, repeats allowed), in the order of `ranks`; bit
// for bit what std::sort then reading v[rank] gives for any list without NaN.
// The order is IEEE 754 totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf
// < +NaN. So a NaN sorts to the end its sign bit says (std::sort's operator<
// has no defined order with a NaN), and -0 before +0 (equal under operator<:
// both orders are sorted, a sort may leave either first).
std::vector<double> order_statistics(std::span<const double> values, std::span<const size_t> ranks);

}  // namespace measure
