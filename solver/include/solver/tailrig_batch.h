/* tailrig_batch.h: C API of the batch solver (solver/batch.h), since
 * TAILRIG_C_API_VERSION 3.
 *
 * Many tails of one rig (crowds, many characters of one model) stepped
 * together: the same physics as tailrig_chain_step, in float SIMD lanes
 * (SSE2 / AVX2 / AVX-512 chosen at run time natively, wasm SIMD128 in the
 * WebAssembly build). Results differ from the double-precision chain by
 * float rounding (bounded by solver/tests/batch_test.cpp), and are the same
 * to the bit for every instruction set and thread count.
 *
 * Conventions as tailrig_solver.h (column-major double matrices, statuses,
 * tailrig_last_error), except that rotations come out as FLOATS (the
 * batch's precision; what a renderer uploads). A batch handle is not
 * thread-safe. No call allocates after tailrig_batch_create and
 * tailrig_batch_set_threads.
 *
 * Typical use:
 *   tailrig_chain* c;  tailrig_chain_create(..., &c);   (the rig and params)
 *   tailrig_batch* b;  tailrig_batch_create(c, 1000, &b);
 *   per frame: tailrig_batch_step(b, dt, hips_world, 1000);   (16 * 1000 doubles)
 *              tailrig_batch_local_rotations(b, rotations, 1000 * bones);
 *   tailrig_batch_destroy(b); tailrig_chain_destroy(c);
 */
#ifndef TAILRIG_BATCH_H
#define TAILRIG_BATCH_H

#include <stdint.h>

#include "solver/tailrig_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tailrig_batch tailrig_batch; /* opaque */

/* Most chains one batch holds. */
#define TAILRIG_MAX_BATCH_CHAINS 1000000

/* chain_count (1..TAILRIG_MAX_BATCH_CHAINS) tails of `chain`'s rig with its
 * current params and collider params (copied: the chain may be destroyed
 * afterwards). Every tail starts unset: its first step puts it in the
 * settled carry pose at that step's hips, as a chain's. One thread. */
tailrig_status tailrig_batch_create(const tailrig_chain* chain, int32_t chain_count,
                                    tailrig_batch** out_batch);

/* Frees the batch (and stops its threads); NULL is a no-op. */
void tailrig_batch_destroy(tailrig_batch* batch);

/* Chains in the batch, and tail bones per chain; 0 for NULL. */
int32_t tailrig_batch_size(const tailrig_batch* batch);
int32_t tailrig_batch_bone_count(const tailrig_batch* batch);

/* The instruction set the batch runs: "baseline" (4 lanes: SSE2, or wasm
 * SIMD128 in WebAssembly), "avx2" or "avx512"; "" for NULL. */
const char* tailrig_batch_isa(const tailrig_batch* batch);

/* Runs the following steps on `threads` (1..256) threads: the caller's and
 * threads - 1 workers. Same bits for any count. Starts threads and
 * allocates: call it at set-up. Threads the system refuses to start (always,
 * in WebAssembly without pthreads) are left out: tailrig_batch_threads says
 * how many run. */
tailrig_status tailrig_batch_set_threads(tailrig_batch* batch, int32_t threads);
int32_t tailrig_batch_threads(const tailrig_batch* batch);

/* Replaces the per-step parameters of every chain ([build] fields are
 * ignored), as tailrig_chain_set_params. */
tailrig_status tailrig_batch_set_params(tailrig_batch* batch, const tailrig_params* params);

/* Puts tail `chain_index` at rest in its settled carry pose for this hips
 * world matrix, as tailrig_chain_reset. */
tailrig_status tailrig_batch_reset(tailrig_batch* batch, int32_t chain_index,
                                   const double hips_world[16]);

/* Advances every chain by dt seconds (0 <= dt <= 3600; 0 only refreshes the
 * output) to its new hips world matrix: hips_world[16 * c .. 16 * c + 15]
 * for chain c (column-major, rig units). chain_count must be the batch's
 * size. Refused, every chain kept: a count that does not match
 * (TAILRIG_ERROR_INVALID_ARGUMENT), a NaN or infinity in dt or any matrix
 * (TAILRIG_ERROR_NON_FINITE; the message names the chain). */
tailrig_status tailrig_batch_step(tailrig_batch* batch, double dt, const double* hips_world,
                                  int32_t chain_count);

/* Room for up to per_chain (0..TAILRIG_MAX_CAPSULES) capsules per chain in
 * tailrig_batch_step_frames (0 at create). Allocates: call it at set-up.
 * Starts every chain's colliders afresh (no sweep from the last ones). */
tailrig_status tailrig_batch_set_collider_capacity(tailrig_batch* batch, int32_t per_chain);

/* tailrig_batch_step with colliders: frames[c] (chain_count of them) is
 * chain c's hips and capsules at the end of the frame, as
 * tailrig_chain_step_frame takes them (same rules, same capsules in the
 * same order every frame). Refused, every chain kept, the message naming
 * the chain: what tailrig_chain_step_frame refuses, and a capsule_count
 * above the collider capacity (TAILRIG_ERROR_INVALID_ARGUMENT: capsules are
 * never dropped silently). */
tailrig_status tailrig_batch_step_frames(tailrig_batch* batch, double dt,
                                         const tailrig_frame_input* frames, int32_t chain_count);

/* Copies the local rotation of every tail bone of every chain after the
 * latest step/reset (before one: the carry rest rotations), x y z w floats:
 * out_xyzw[4 * (c * bones + i) ..] for chain c, bone i; the glTF
 * node.rotation to write, as tailrig_chain_local_rotations. capacity is the
 * number of quaternions out_xyzw has room for (>= size * bone count). */
tailrig_status tailrig_batch_local_rotations(const tailrig_batch* batch, float* out_xyzw,
                                             int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* TAILRIG_BATCH_H */
