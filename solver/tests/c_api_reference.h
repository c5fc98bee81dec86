/* Test-only bridge for c_api_test.c: runs the C++ solver (solver::build_chain,
 * reset, step) directly on the same plain arrays the C API gets, so the C
 * program can compare both bit for bit. Not part of any installed library. */
#ifndef TAILRIG_C_API_REFERENCE_H
#define TAILRIG_C_API_REFERENCE_H

#include <stdint.h>

#include "solver/tailrig_solver.h" /* tailrig_capsule as plain data */

#ifdef __cplusplus
extern "C" {
#endif

/* One frame of the drive: dt seconds and the hips world matrix (column-major);
 * reset != 0 means solver::reset to these hips instead of a step. */
typedef struct reference_frame {
  double dt;
  double hips_world[16];
  int32_t reset;
} reference_frame;

/* Runs the frames with default solver::ChainParams (gravity overridden by
 * `gravity`). Writes bone_count * 4 quaternion components (x, y, z, w) per
 * frame to out_rotations and bone_count * 3 tail bone head positions (rig
 * units) per frame to out_heads. Returns the bone count, or -1 with a message
 * on stderr when the chain cannot be built. */
int32_t reference_run(const char* const* names, const int32_t* parents, const double* inverse_bind,
                      int32_t joint_count, double gravity, const reference_frame* frames,
                      int32_t frame_count, double* out_rotations, double* out_heads);

/* Colliders for reference_run_colliders: ChainParams::collider_margin and
 * collider_friction, and capsules_per_frame capsules per frame (frame f's at
 * capsules + f * capsules_per_frame), converted to solver::Capsule here. */
typedef struct reference_colliders {
  double margin;
  double friction;
  const tailrig_capsule* capsules;
  int32_t capsules_per_frame;
} reference_colliders;

/* reference_run with solver::step(..., solver::FrameInput, ...) per frame. */
int32_t reference_run_colliders(const char* const* names, const int32_t* parents,
                                const double* inverse_bind, int32_t joint_count, double gravity,
                                const reference_colliders* colliders, const reference_frame* frames,
                                int32_t frame_count, double* out_rotations, double* out_heads);

/* reference_run with the idle sway of `sway` (ChainParams::idle_sway_deg,
 * _period, _still_speed, _fade; solver/params.h) set on the params. */
int32_t reference_run_sway(const char* const* names, const int32_t* parents,
                           const double* inverse_bind, int32_t joint_count, double gravity,
                           const tailrig_sway_params* sway, const reference_frame* frames,
                           int32_t frame_count, double* out_rotations, double* out_heads);

/* solver::Batch of chain_count chains driven directly (its own ISA choice,
 * one thread): frames[f * chain_count + c] is chain c's frame f (dt and
 * reset read from chain 0's: one clock). Writes chain_count * bone_count
 * float quaternions (x, y, z, w) per frame, chain-major, to out_rotations
 * (after a reset: solver::Batch::output_rotation). With colliders (may be
 * NULL): margin, friction, and capsules_per_frame capsules per chain per
 * frame (chain c of frame f at capsules + (f * chain_count + c) *
 * capsules_per_frame), through Batch::step(..., FrameInput, ...). Returns
 * the bone count, or -1 with a message on stderr. */
int32_t reference_run_batch(const char* const* names, const int32_t* parents,
                            const double* inverse_bind, int32_t joint_count, double gravity,
                            const reference_colliders* colliders, int32_t chain_count,
                            const reference_frame* frames, int32_t frame_count,
                            float* out_rotations);

#ifdef __cplusplus
}
#endif

#endif
