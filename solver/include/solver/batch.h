// Batch: many tail chains of one rig stepped together (issue 14).
//
// The scalar step() (step.h) is the reference; Batch runs the same physics
// (SPEC §4: spring, rope, carry, bend coupling, elastic bend limit, forward
// plane, ground contact, teleports, non-finite hips rejection) for `count`
// chains that share one ChainDesc and one ChainParams, in structure-of-arrays
// float lanes, 16 chains per block. Differences from the scalar solver, all
// bounded by batch_equivalence_test:
//   - float instead of double;
//   - normalised lerp instead of slerp for the coupling blend, the hips
//     interpolation across a frame and the output interpolation (the
//     neighbour mean and the bend limit are exact: normalised sums and a
//     cosine test with precomputed cos/sin of half the limit);
//   - one clock for the batch: every chain takes the same internal steps;
//   - idle sway (params.h): its sines from polynomials in float, its clock
//     and smoothed speed per chain in double from the float hips lanes;
//   - colliders (colliders.h) only up to set_collider_capacity() per chain,
//     and a nearly parallel link and capsule axis (within ~0.1 deg) take
//     their closest points from the link's head (float cannot tell them).
// Nothing transcendental runs per step: decay factors, spring coefficients
// and the limit's cos/sin are computed when the params change.
//
// SIMD: the step kernel is compiled three times (baseline x86-64, AVX2 and
// AVX-512) and chosen at run time; all use the same operations in the same
// order, per lane, without FMA contraction, so they give the same bits
// (tested).
//
// Threads: set_threads(n) splits step() over the caller's thread and n - 1
// worker threads (std::thread, started there, not per step). Blocks of
// kBatchLanes chains are independent and each is computed the same way
// whichever thread runs it (the workers take the caller's floating-point
// environment every step): the same bits for any thread count (tested).
//
// Allocation: the constructor and set_threads() size everything; reset() and
// step() never allocate.
#pragma once

#include <Eigen/Geometry>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "solver/batch_lanes.h"
#include "solver/chain.h"
#include "solver/colliders.h"
#include "solver/params.h"
#include "solver/state.h"

namespace solver {

// Instruction set of the batch kernel.
enum class BatchIsa {
  kAuto,      // the best the CPU has: AVX-512, else AVX2, else baseline
  kBaseline,  // x86-64 baseline (SSE2) lanes, runs anywhere
  kAvx2,      // AVX2; falls back to baseline when the CPU lacks it
  kAvx512,    // AVX-512 F+DQ+VL+BW, 16 lanes per instruction; falls back to AVX2, then baseline
};

// The kernel kAuto picks on this CPU, and its name ("baseline", "avx2",
// "avx512").
BatchIsa best_batch_isa();
const char* batch_isa_name(BatchIsa isa);

class Batch {
 public:
  // `count` >= 1 chains of `desc` with `params` (copied). Every chain starts
  // uninitialised: its first step() resets it to that step's hips, as the
  // scalar step() does. Allocates.
  Batch(const ChainDesc& desc, const ChainParams& params, int count, BatchIsa isa = BatchIsa::kAuto);
  ~Batch();  // stops the worker threads
  Batch(Batch&&) noexcept;
  Batch& operator=(Batch&&) noexcept;
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // Runs the following step() calls on `threads` >= 1 threads: the caller's
  // and threads - 1 workers, each taking a contiguous range of the blocks of
  // kBatchLanes chains. Same results to the bit for any count. Starts and
  // stops threads and allocates: call it at set-up, never during step(). A
  // worker the system refuses to start is left out (threads() says how many
  // run).
  void set_threads(int threads);
  int threads() const;

  // Room for up to `per_chain` colliders per chain (0..kMaxColliders) in the
  // step() that takes FrameInputs; colliders beyond it are ignored. Allocates
  // (blocks x per_chain slots): call it at set-up, never during step().
  // Starts every chain's colliders afresh (no sweep from the last ones).
  void set_collider_capacity(int per_chain);
  int collider_capacity() const { return collider_capacity_; }

  // Replaces the step-time parameters (the [build] fields stay those of the
  // desc) and recomputes the constants. No allocation.
  void set_params(const ChainParams& params);

  // Resets one chain to its settled carry pose under `hips_world` (rig
  // units), with the scalar solver's reset() (double precision, same settle
  // rule), then rounded to float. Non-finite hips: ignored, counted.
  void reset(int chain, const Eigen::Affine3d& hips_world);

  // Advances every chain by `dt` seconds to its hips world transform
  // hips_world[c] (size count, rig units) and writes the interpolated local
  // rotations of chain c, link i to out_local[c * links() + i] (size
  // count * links(), or empty). Semantics per chain as scalar step(): first
  // call resets, teleports carry the chain rigidly, a non-finite hips
  // transform keeps the chain's state (counted in rejected_hips()), dt <= 0
  // or non-finite only re-writes the output.
  void step(double dt, std::span<const Eigen::Affine3d> hips_world, std::span<Eigen::Quaternionf> out_local);

  // The same with colliders: frames[c] (size count) is chain c's hips and
  // its colliders at the end of the frame (world, rig units), as the scalar
  // step(desc, params, state, dt, FrameInput, out); only the first
  // collider_capacity() usable colliders of each chain are used. No
  // allocation.
  void step(double dt, std::span<const FrameInput> frames, std::span<Eigen::Quaternionf> out_local);

  int size() const { return count_; }
  int links() const { return constants_.links; }
  BatchIsa isa() const { return isa_; }  // the kernel actually used
  const ChainDesc& desc() const { return desc_; }
  const ChainParams& params() const { return params_; }

  // Diagnostics of one chain (link i = 0..links()-1), world space, metres.
  Eigen::Vector3f position(int chain, int link) const;
  Eigen::Vector3f velocity(int chain, int link) const;
  bool contact(int chain, int link) const;
  // Output rotation of the latest step() (interpolated local rotation).
  Eigen::Quaternionf output_rotation(int chain, int link) const;
  // Displayed chain points (N + 1, metres) by FK from the latest output
  // rotations and hips, as ChainState::points.
  void points(int chain, std::span<Eigen::Vector3f> out) const;
  int teleports(int chain) const { return teleports_[static_cast<size_t>(chain)]; }
  int rejected_hips(int chain) const { return rejected_[static_cast<size_t>(chain)]; }
  int last_substeps() const { return last_substeps_; }

 private:
  struct HipsPose {
    Eigen::Quaterniond rot = Eigen::Quaterniond::Identity();
    Eigen::Vector3d trans = Eigen::Vector3d::Zero();
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  };
  HipsPose decompose(const Eigen::Affine3d& hips) const;
  HipsPose lane_hips(const std::vector<BatchHipsLanes>& lanes, int chain) const;
  void set_lane_hips(std::vector<BatchHipsLanes>& lanes, int chain, const HipsPose& hp);
  BatchLane* block(int b) { return &state_[static_cast<size_t>(b) * block_size_]; }
  const BatchLane* block(int b) const { return &state_[static_cast<size_t>(b) * block_size_]; }
  float& lane(int chain, int link, int set) {
    return block(chain / kBatchLanes)[link * kBatchLaneSets + set].v[chain % kBatchLanes];
  }
  float lane(int chain, int link, int set) const {
    return block(chain / kBatchLanes)[link * kBatchLaneSets + set].v[chain % kBatchLanes];
  }
  Eigen::Quaternionf lane_quat(int chain, int link, int set) const;
  void set_rest_state(int chain, const HipsPose& hp);
  // Carries one chain rigidly from hips `from` to lane chain % 8 of `to`.
  void teleport_lane(int chain, const HipsPose& from, const BatchHipsLanes& to);
  struct Frame;    // one step(): the clock, the hips and the output (batch.cpp)
  struct Workers;  // the worker threads of set_threads() (batch.cpp)
  // Advances blocks [first, last) by the frame, with the scratch of `worker`.
  void step_blocks(const Frame& f, int worker, int first, int last);
  // Per chain of block b: rejects non-finite hips, resets on first use.
  void admit_chains(const Frame& f, int worker, int b);
  void reset_with(int chain, const Eigen::Affine3d& hips_world, ChainState& scratch);
  // While block b steps, asks the cache for lane l's inputs of the blocks
  // after it, up to `last` (exclusive).
  void prefetch_inputs(const Frame& f, int b, int last, int l) const;
  // The same for lane l's share of the next block's state.
  void prefetch_state(int b, int last, int l) const;
  // Fills block b's colliders for the frame (lanes `teleported` start them
  // where they are); returns the slots in use.
  int load_colliders(std::span<const FrameInput> inputs, bool advance, int b, int worker,
                     const BatchLane& teleported);
  // After block b advanced: its colliders of this frame start the next one.
  void keep_colliders(int b, int worker);
  // Block b's colliders at the start and at the end of the frame (the
  // latter in the scratch of `worker`).
  struct ColliderSides {
    BatchColliderLanes* prev;
    BatchColliderLanes* next;
  };
  ColliderSides collider_sides(int b, int worker);
  // Sizes the per-thread scratch of the end-of-frame colliders.
  void size_collider_scratch();
  void run_frame(double dt, Frame& f);
  // Idle sway (batch_sway.cpp): block b's lanes for the frame from each
  // chain's clock and smoothed speed (false: no lane sways), and, for a
  // frame that advances (dt > 0), those advanced by how far the body carried
  // each tail (prev -> next hips, before `prev` takes `next`), as the scalar
  // step does.
  bool sway_lanes(const BatchFrame& clock, int b, BatchSwayLanes& out) const;
  void advance_sway(const BatchFrame& clock, int b, const BatchHipsLanes& prev,
                    const BatchHipsLanes& next);

  ChainDesc desc_;
  ChainParams params_;
  BatchConstants constants_;
  std::vector<BatchLinkConstants> link_constants_;  // size links
  BatchIsa isa_ = BatchIsa::kBaseline;
  int count_ = 0;
  int blocks_ = 0;
  size_t block_size_ = 0;               // lanes per block: links * kBatchLaneSets
  std::vector<BatchLane> state_;        // blocks * block_size
  std::vector<BatchLane> saved_blocks_;  // per thread, one block: lanes that must not advance
  // Per block: hips the chains advanced to (the next step starts there) and
  // the hips of the latest output (points()).
  std::vector<BatchHipsLanes> hips_prev_, hips_shown_;
  std::vector<std::uint8_t> initialized_, rejected_now_;
  std::vector<int> teleports_, rejected_;
  std::vector<ChainState> scalar_;  // per thread: reset() runs the scalar reference here
  // Colliders: per block collider_capacity_ slots where they are at the
  // start of the frame; per thread the same for one block at its end (the
  // gather writes there, in the cache, and a block that advanced copies
  // them over its own: half the bytes of two sides per block); per chain
  // the count the latest frame gave (-1 after a reset: the next frame
  // starts them where they are).
  int collider_capacity_ = 0;
  std::vector<BatchColliderLanes> colliders_, colliders_next_;
  std::vector<int> collider_count_, collider_count_now_;
  // Idle sway per chain: the clock and the body's smoothed speed at the
  // tail (ChainState::sway_time, sway_speed), seconds and m/s.
  std::vector<double> sway_time_, sway_speed_;
  double accumulator_ = 0.0;
  int last_substeps_ = 0;
  std::unique_ptr<Workers> workers_;  // none: step() runs on the caller's thread alone
};

}  // namespace solver
