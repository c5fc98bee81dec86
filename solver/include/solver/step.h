// The per-frame entry points of the tail spring chain (SPEC §4).
// No allocation, no failure path (asserts on preconditions), deterministic.
#pragma once

#include <Eigen/Geometry>

#include <span>

#include "solver/chain.h"
#include "solver/colliders.h"
#include "solver/params.h"
#include "solver/state.h"

namespace solver {

// Puts the tail in its carry pose at rest for the given hips world transform
// (rig units): particles on the corrected rest targets, zero velocity, then
// `params.reset_settle_time` seconds simulated with the hips held still so the
// pose includes gravity sag and floor contact. `state` must be init_state()'d.
void reset(const ChainDesc& desc, const ChainParams& params, ChainState& state,
           const Eigen::Affine3d& hips_world);

// Advances the chain by `dt` seconds (the caller's frame time) to the new hips
// world transform `hips_world` (rig units, world space). Sub-steps with
// params.internal_step (hips interpolated across the frame) and writes the
// interpolated local rotation of every tail bone to `out_local_rotations`
// (size N, link order = desc.links order), parent-relative like a glTF node
// rotation: the bone's local transform is
// T(neutral_translation) * R(out) * S(neutral_scale).
// A hips jump beyond the teleport thresholds carries the tail rigidly.
// dt <= 0 only re-writes the latest output. First call without reset()
// resets to the given hips.
void step(const ChainDesc& desc, const ChainParams& params, ChainState& state, double dt,
          const Eigen::Affine3d& hips_world, std::span<Eigen::Quaterniond> out_local_rotations);

// Same with colliders: `input.hips_world` as above, `input.capsules` the
// collider shapes at the end of the frame (world, rig units; the first
// kMaxColliders are used). With no capsules it is the step above, bit for bit.
void step(const ChainDesc& desc, const ChainParams& params, ChainState& state, double dt, const FrameInput& input,
          std::span<Eigen::Quaterniond> out_local_rotations);

// Same with a 4x4 column-major matrix (rig units, world space).
void step(const ChainDesc& desc, const ChainParams& params, ChainState& state, double dt,
          const Eigen::Matrix4d& hips_world, std::span<Eigen::Quaterniond> out_local_rotations);

// World position of the tail root head for a hips transform, metres.
Eigen::Vector3d root_head_world(const ChainDesc& desc, const Eigen::Affine3d& hips_world);

// Hips frame (X lateral, Y up, Z forward) in world space for a hips transform.
Eigen::Quaterniond hips_frame_world(const ChainDesc& desc, const Eigen::Affine3d& hips_world);

}  // namespace solver
