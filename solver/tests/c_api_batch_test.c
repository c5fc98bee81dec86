/* The batch C API (tailrig_batch.h) from C: bit for bit against
 * solver::Batch driven directly (c_api_reference.cpp), and every refused
 * input. C99. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c_api_test_rig.h"
#include "solver/tailrig_batch.h"

/* Not a multiple of the 16-lane block: the last block has padding lanes. */
enum { kChains = 37 };

/* Chain c walks the same path, shifted in time by 17 c frames (so teleports
 * fall on different frames) and in space by 2 c rig units along x; all
 * share frame f's dt and reset (one clock). */
static void make_batch_frames(const reference_frame walk[kFrames], reference_frame* out) {
  for (int f = 0; f < kFrames; ++f) {
    for (int c = 0; c < kChains; ++c) {
      reference_frame* r = out + f * kChains + c;
      memcpy(r->hips_world, walk[(f + 17 * c) % kFrames].hips_world, sizeof r->hips_world);
      r->hips_world[12] += 2.0 * c;
      r->dt = walk[f].dt;
      r->reset = walk[f].reset;
    }
  }
}

static tailrig_chain* make_chain(double gravity) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  tailrig_params params;
  tailrig_params_default(&params);
  params.gravity = gravity;
  tailrig_chain* chain = NULL;
  const tailrig_status s =
      tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &chain);
  CHECK(s == TAILRIG_OK && chain, "create chain: %d %s", s, tailrig_last_error());
  return chain;
}

/* Refused step inputs at one frame; each must leave every chain as it was. */
static void check_refused_steps(tailrig_batch* batch, const reference_frame* frame, float* before,
                                float* after) {
  const int32_t quats = kChains * kBones;
  static double bad[kChains * 16];
  for (int c = 0; c < kChains; ++c) memcpy(bad + 16 * c, frame[c].hips_world, 16 * sizeof(double));
  CHECK(tailrig_batch_local_rotations(batch, before, quats) == TAILRIG_OK, "rotations: %s",
        tailrig_last_error());
  bad[16 * 5 + 13] = NAN;
  CHECK(tailrig_batch_step(batch, 1.0 / 60.0, bad, kChains) == TAILRIG_ERROR_NON_FINITE,
        "NaN hips accepted");
  CHECK(strstr(tailrig_last_error(), "chain 5") != NULL, "message '%s' names no chain",
        tailrig_last_error());
  bad[16 * 5 + 13] = 0.0;
  bad[16 * 36] = INFINITY;
  CHECK(tailrig_batch_step(batch, 1.0 / 60.0, bad, kChains) == TAILRIG_ERROR_NON_FINITE,
        "inf hips accepted");
  CHECK(tailrig_batch_step(batch, NAN, bad, kChains) == TAILRIG_ERROR_NON_FINITE,
        "NaN dt accepted");
  CHECK(tailrig_batch_step(batch, -0.1, bad, kChains) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "negative dt accepted");
  CHECK(tailrig_batch_step(batch, 0.1, NULL, kChains) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL hips accepted");
  CHECK(tailrig_batch_step(batch, 0.1, bad, kChains - 1) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "wrong count accepted");
  CHECK(strstr(tailrig_last_error(), "37") != NULL, "message '%s' gives no size",
        tailrig_last_error());
  CHECK(tailrig_batch_step(NULL, 0.1, bad, kChains) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL batch accepted");
  CHECK(tailrig_batch_reset(batch, kChains, frame[0].hips_world) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "reset of a chain past the end accepted");
  CHECK(tailrig_batch_reset(batch, 0, bad + 16 * 36) == TAILRIG_ERROR_NON_FINITE,
        "reset to inf hips accepted");
  CHECK(tailrig_batch_local_rotations(batch, after, quats - 1) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "small capacity accepted");
  CHECK(tailrig_batch_local_rotations(batch, after, quats) == TAILRIG_OK, "rotations: %s",
        tailrig_last_error());
  CHECK(memcmp(before, after, (size_t)quats * 4 * sizeof(float)) == 0,
        "a refused call changed the batch");
}

static void test_batch_matches_cpp_bit_for_bit(void) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  static reference_frame walk[kFrames];
  make_frames(walk);
  reference_frame* frames = malloc(sizeof(reference_frame) * kFrames * kChains);
  const size_t floats_per_frame = (size_t)kChains * kBones * 4;
  float* expected = malloc(sizeof(float) * floats_per_frame * kFrames);
  float* got = malloc(sizeof(float) * floats_per_frame);
  float* scratch = malloc(sizeof(float) * floats_per_frame);
  make_batch_frames(walk, frames);
  const double gravity = 2.5; /* not the default: params must reach the batch */
  const int32_t n = reference_run_batch(kNames, kParents, inverse_bind, kJoints, gravity, kChains,
                                        frames, kFrames, expected);
  CHECK(n == kBones, "reference bone count %d", n);
  tailrig_chain* chain = make_chain(gravity);
  tailrig_batch* batch = NULL;
  CHECK(tailrig_batch_create(chain, kChains, &batch) == TAILRIG_OK && batch, "create: %s",
        tailrig_last_error());
  tailrig_chain_destroy(chain); /* the batch copied what it needs */
  if (!batch || n != kBones) return;
  CHECK(tailrig_batch_size(batch) == kChains && tailrig_batch_bone_count(batch) == kBones,
        "size %d x %d", tailrig_batch_size(batch), tailrig_batch_bone_count(batch));
  /* Two threads here, one in the reference: the same bits either way. */
  CHECK(tailrig_batch_set_threads(batch, 2) == TAILRIG_OK, "threads: %s", tailrig_last_error());
  static double hips[kChains * 16];
  int first_mismatch = -1;
  for (int f = 0; f < kFrames; ++f) {
    const reference_frame* frame = frames + f * kChains;
    if (f == 200) check_refused_steps(batch, frame, got, scratch);
    for (int c = 0; c < kChains; ++c)
      memcpy(hips + 16 * c, frame[c].hips_world, sizeof(double) * 16);
    if (frame[0].reset) {
      for (int c = 0; c < kChains; ++c)
        CHECK(tailrig_batch_reset(batch, c, hips + 16 * c) == TAILRIG_OK, "reset: %s",
              tailrig_last_error());
    } else {
      CHECK(tailrig_batch_step(batch, frame[0].dt, hips, kChains) == TAILRIG_OK, "frame %d: %s", f,
            tailrig_last_error());
    }
    CHECK(tailrig_batch_local_rotations(batch, got, kChains * kBones) == TAILRIG_OK,
          "rotations: %s", tailrig_last_error());
    if (first_mismatch < 0 &&
        memcmp(got, expected + f * floats_per_frame, floats_per_frame * sizeof(float)) != 0)
      first_mismatch = f;
  }
  CHECK(first_mismatch < 0, "batch C API differs from solver::Batch from frame %d on",
        first_mismatch);
  printf(
      "c_api batch: %d frames, %d chains x %d bones, %d thread(s), %s kernel: %s (first differing "
      "frame %d)\n",
      kFrames, kChains, kBones, tailrig_batch_threads(batch), tailrig_batch_isa(batch),
      first_mismatch < 0 ? "bit-identical to solver::Batch" : "DIFFERENT from solver::Batch",
      first_mismatch);
  tailrig_batch_destroy(batch);
  free(frames), free(expected), free(got), free(scratch);
}

static void test_batch_refuses_bad_input(void) {
  tailrig_chain* chain = make_chain(9.81);
  tailrig_batch* batch = (tailrig_batch*)&g_failures; /* must be reset to NULL on failure */
  CHECK(tailrig_batch_create(chain, 0, &batch) == TAILRIG_ERROR_INVALID_ARGUMENT && batch == NULL,
        "zero chains accepted");
  CHECK(strlen(tailrig_last_error()) > 0 && strchr(tailrig_last_error(), '\n') == NULL,
        "message '%s'", tailrig_last_error());
  CHECK(tailrig_batch_create(NULL, 4, &batch) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL chain accepted");
  CHECK(tailrig_batch_create(chain, TAILRIG_MAX_BATCH_CHAINS + 1, &batch) ==
            TAILRIG_ERROR_INVALID_ARGUMENT,
        "too many chains accepted");
  CHECK(tailrig_batch_create(chain, 4, NULL) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL out accepted");
  CHECK(tailrig_batch_create(chain, 4, &batch) == TAILRIG_OK, "create: %s", tailrig_last_error());
  CHECK(tailrig_batch_set_threads(batch, 0) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "zero threads accepted");
  tailrig_params params;
  tailrig_params_default(&params);
  params.tip_frequency_hz = NAN;
  CHECK(tailrig_batch_set_params(batch, &params) == TAILRIG_ERROR_NON_FINITE,
        "NaN frequency accepted");
  tailrig_params_default(&params);
  params.max_substeps = 0;
  CHECK(tailrig_batch_set_params(batch, &params) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "zero substeps accepted");
  CHECK(tailrig_batch_set_params(batch, NULL) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL params accepted");
  tailrig_params_default(&params);
  CHECK(tailrig_batch_set_params(batch, &params) == TAILRIG_OK, "set_params: %s",
        tailrig_last_error());
  CHECK(tailrig_batch_local_rotations(batch, NULL, 100) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL out accepted");
  tailrig_batch_destroy(batch);
  tailrig_batch_destroy(NULL);
  tailrig_chain_destroy(chain);
  CHECK(tailrig_batch_size(NULL) == 0 && tailrig_batch_bone_count(NULL) == 0, "size of NULL");
  CHECK(strcmp(tailrig_batch_isa(NULL), "") == 0, "isa of NULL");
}

void test_batch(void) {
  test_batch_matches_cpp_bit_for_bit();
  test_batch_refuses_bad_input();
}
