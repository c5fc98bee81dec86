// reset()'s settle loop stops at a fixed point of the internal step
// (step.cpp): this is what it compares.
#pragma once

#include <array>
#include <cstring>

#include <Eigen/Geometry>

#include "solver/state.h"

namespace solver {

// What an internal step reads of the state it advances: pos, vel and the
// bend snapshot (everything else it writes from them). pos and vel are kept
// here before the step, on the stack (reset allocates nothing); the bend
// read is in bend_scratch after the step's swap. A chain longer than this
// holds is settled for the whole settle time, as before.
struct SettleState {
  static constexpr int kMaxLinks = 64;
  std::array<Eigen::Vector3d, kMaxLinks> pos, vel;
  int n = -1;  // -1: not kept
  void take(const ChainState& st) {
    n = st.size() <= kMaxLinks ? st.size() : -1;
    for (int i = 0; i < n; ++i) {
      pos[static_cast<size_t>(i)] = st.pos[static_cast<size_t>(i)];
      vel[static_cast<size_t>(i)] = st.vel[static_cast<size_t>(i)];
    }
  }
  // Whether the step since take() changed no bit of what the next one reads.
  bool unchanged_by_step(const ChainState& st) const {
    if (n < 0 || n != st.size()) return false;
    const size_t k = static_cast<size_t>(n);
    return std::memcmp(pos.data(), st.pos.data(), k * sizeof(Eigen::Vector3d)) == 0 &&
           std::memcmp(vel.data(), st.vel.data(), k * sizeof(Eigen::Vector3d)) == 0 &&
           std::memcmp(st.bend.data(), st.bend_scratch.data(), k * sizeof(Eigen::Quaterniond)) == 0;
  }
};

}  // namespace solver
