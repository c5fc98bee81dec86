// order_statistics against a full sort: bit-identical values at every asked
// rank for many sizes (the nth_element leaf, one and several radix levels)
// and distributions (ratios near 1, duplicates, negatives, signed zeros,
// infinities and NaN, values a few ulps apart).
#include "measure/order_statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "measure/edge_stretch.h"

namespace {

// IEEE totalOrder, the order order_statistics promises (std::sort's
// operator< for lists without NaN; -0 before +0).
bool total_less(double a, double b) {
  const auto key = [](double x) {
    const std::uint64_t u = std::bit_cast<std::uint64_t>(x);
    return (u >> 63) ? ~u : u | (std::uint64_t{1} << 63);
  };
  return key(a) < key(b);
}

using Gen = std::vector<double> (*)(std::mt19937_64&, size_t);

std::vector<double> ratios_near_one(std::mt19937_64& rng, size_t n) {
  std::normal_distribution<double> g(1.0, 0.02);
  std::vector<double> v(n);
  for (double& x : v) x = g(rng);
  if (n > 4) v[n / 3] = 40.0, v[n / 2] = 0.01;  // torn outliers widen the key span
  return v;
}

std::vector<double> few_distinct(std::mt19937_64& rng, size_t n) {
  std::uniform_int_distribution<int> u(0, 6);
  std::vector<double> v(n);
  for (double& x : v) x = 0.25 * u(rng);
  return v;
}

std::vector<double> signed_mixed(std::mt19937_64& rng, size_t n) {
  std::uniform_real_distribution<double> u(-1e3, 1e3);
  const double specials[] = {0.0,
                             -0.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::denorm_min(),
                             -std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN()};
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (rng() % 16 == 0) ? specials[rng() % 8] : u(rng);
  return v;
}

// Values under 2000 ulps apart: one radix level whose buckets hold one value.
std::vector<double> ulps_apart(std::mt19937_64& rng, size_t n) {
  std::vector<double> v(n);
  for (double& x : v) x = std::bit_cast<double>(std::bit_cast<std::uint64_t>(1.0) + rng() % 2000);
  return v;
}

// A crowd a few ulps apart and one far outlier: the crowd is one bucket of
// the first level, split by a second.
std::vector<double> crowd_and_outlier(std::mt19937_64& rng, size_t n) {
  std::vector<double> v(n);
  for (double& x : v) x = std::bit_cast<double>(std::bit_cast<std::uint64_t>(-1.0) + rng() % 50000);
  if (n > 1) v[rng() % n] = 1e300;
  return v;
}

std::vector<double> all_equal(std::mt19937_64&, size_t n) { return std::vector<double>(n, 0.75); }

std::vector<size_t> ranks_to_ask(std::mt19937_64& rng, size_t n) {
  std::vector<size_t> r = {0, n - 1, n / 2, (n - 1) / 2};
  for (double q : {1.0, 25.0, 75.0, 95.0, 99.0}) {
    const size_t lo = static_cast<size_t>(q / 100.0 * static_cast<double>(n - 1));
    r.push_back(lo);
    r.push_back(std::min(lo + 1, n - 1));
  }
  for (int i = 0; i < 6; ++i) r.push_back(rng() % n);
  if (n <= 40)
    for (size_t i = 0; i < n; ++i) r.push_back(i);
  return r;
}

TEST(OrderStatistics, SameBitsAsAFullSort) {
  std::mt19937_64 rng(47);
  const Gen gens[] = {ratios_near_one, few_distinct,      signed_mixed,
                      ulps_apart,      crowd_and_outlier, all_equal};
  const size_t sizes[] = {1, 2, 3, 7, 40, 1000, 2048, 2049, 5000, 16384, 16385, 40000, 300000};
  for (size_t g = 0; g < std::size(gens); ++g)
    for (size_t n : sizes)
      for (int two_ranks = 0; two_ranks < 2; ++two_ranks) {
        const std::vector<double> v = gens[g](rng, n);
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end(), total_less);
        std::vector<size_t> ranks = ranks_to_ask(rng, n);
        if (two_ranks) ranks = {ranks[8], ranks[9]};  // one percentile's pair (p75)
        const std::vector<double> got = measure::order_statistics(v, ranks);
        ASSERT_EQ(got.size(), ranks.size());
        for (size_t i = 0; i < ranks.size(); ++i)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i]),
                    std::bit_cast<std::uint64_t>(sorted[ranks[i]]))
              << "generator " << g << " n " << n << " rank " << ranks[i] << " got " << got[i]
              << " want " << sorted[ranks[i]];
      }
}

TEST(OrderStatistics, NoRanksAndRepeatedRanks) {
  const std::vector<double> v = {3, 1, 2};
  EXPECT_TRUE(measure::order_statistics(v, {}).empty());
  const size_t ranks[] = {2, 0, 2, 1, 0};
  EXPECT_EQ(measure::order_statistics(v, ranks), (std::vector<double>{3, 1, 3, 2, 1}));
}

// percentile and stretch_stats read the same ranks a sorted copy would.
TEST(OrderStatistics, PercentilesMatchTheSortedList) {
  std::mt19937_64 rng(7);
  for (size_t n : {1u, 2u, 5u, 3000u, 20000u, 100000u}) {
    const std::vector<double> v = ratios_near_one(rng, n);
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    for (double q : {0.0, 1.0, 33.3, 50.0, 99.0, 99.9, 100.0})
      EXPECT_EQ(measure::percentile(v, q), measure::percentile_sorted(sorted, q))
          << n << " q " << q;
    const measure::StretchStats s = measure::stretch_stats(v);
    EXPECT_EQ(s.p01, measure::percentile_sorted(sorted, 1)) << n;
    EXPECT_EQ(s.p50, measure::percentile_sorted(sorted, 50)) << n;
    EXPECT_EQ(s.p99, measure::percentile_sorted(sorted, 99)) << n;
    EXPECT_EQ(s.min, sorted.front()) << n;
    EXPECT_EQ(s.max, sorted.back()) << n;
  }
}

}  // namespace
