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
  const int32_t n = reference_run_batch(kNames, kParents, inverse_bind, kJoints, gravity, NULL,
                                        kChains, frames, kFrames, expected);
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

/* Chain c's capsules at a frame: a leg fixed 0.45 m behind its hips, across
 * the tail's carry arc (c_api_collider_test.c's), radius 0.08, and a 5 cm
 * sphere at its foot. */
enum { kBatchLegs = 2 };
static void leg_capsules(const double hips[16], tailrig_capsule out[kBatchLegs]) {
  static const double kEnds[2][3] = {{0.06, -1.0, -0.45}, {0.06, 1.0, -0.45}};
  for (int r = 0; r < 3; ++r) {
    out[0].a[r] = hips[r] * kEnds[0][0] + hips[4 + r] * kEnds[0][1] + hips[8 + r] * kEnds[0][2] +
                  hips[12 + r];
    out[0].b[r] = hips[r] * kEnds[1][0] + hips[4 + r] * kEnds[1][1] + hips[8 + r] * kEnds[1][2] +
                  hips[12 + r];
    out[1].a[r] = out[1].b[r] = out[0].a[r];
  }
  out[0].radius_a = out[0].radius_b = 0.08;
  out[1].radius_a = out[1].radius_b = 0.05;
}

/* tailrig_batch_step_frames against Batch::step with FrameInputs; the legs
 * must change the tails (else this would test nothing), refusals keep the
 * batch. */
static void test_batch_colliders_bit_for_bit(void) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  static reference_frame walk[kFrames];
  make_frames(walk);
  reference_frame* frames = malloc(sizeof(reference_frame) * kFrames * kChains);
  tailrig_capsule* capsules = malloc(sizeof(tailrig_capsule) * kFrames * kChains * kBatchLegs);
  const size_t floats_per_frame = (size_t)kChains * kBones * 4;
  float* expected = malloc(sizeof(float) * floats_per_frame * kFrames);
  float* free_tails = malloc(sizeof(float) * floats_per_frame * kFrames);
  float* got = malloc(sizeof(float) * floats_per_frame);
  make_batch_frames(walk, frames);
  for (int i = 0; i < kFrames * kChains; ++i)
    leg_capsules(frames[i].hips_world, capsules + kBatchLegs * i);
  const reference_colliders colliders = {0.04, 0.3, capsules, kBatchLegs};
  reference_run_batch(kNames, kParents, inverse_bind, kJoints, 9.81, &colliders, kChains, frames,
                      kFrames, expected);
  reference_run_batch(kNames, kParents, inverse_bind, kJoints, 9.81, NULL, kChains, frames, kFrames,
                      free_tails);
  CHECK(memcmp(expected, free_tails, sizeof(float) * floats_per_frame * kFrames) != 0,
        "the legs change no tail");
  tailrig_chain* chain = make_chain(9.81);
  tailrig_collider_params cp;
  tailrig_collider_params_default(&cp);
  cp.margin = 0.04, cp.friction = 0.3;
  CHECK(tailrig_chain_set_collider_params(chain, &cp) == TAILRIG_OK, "%s", tailrig_last_error());
  tailrig_batch* batch = NULL;
  CHECK(tailrig_batch_create(chain, kChains, &batch) == TAILRIG_OK, "create: %s",
        tailrig_last_error());
  tailrig_chain_destroy(chain);
  CHECK(tailrig_batch_set_collider_capacity(batch, TAILRIG_MAX_CAPSULES + 1) ==
            TAILRIG_ERROR_INVALID_ARGUMENT,
        "capacity 17 accepted");
  CHECK(tailrig_batch_set_collider_capacity(batch, kBatchLegs) == TAILRIG_OK, "%s",
        tailrig_last_error());
  static tailrig_frame_input in[kChains];
  int first_mismatch = -1;
  for (int f = 0; f < kFrames && batch; ++f) {
    const reference_frame* frame = frames + f * kChains;
    for (int c = 0; c < kChains; ++c) {
      tailrig_frame_input_default(&in[c]);
      memcpy(in[c].hips_world, frame[c].hips_world, sizeof in[c].hips_world);
      in[c].capsules = capsules + kBatchLegs * (f * kChains + c);
      in[c].capsule_count = kBatchLegs;
    }
    if (f == 200) { /* refused: a third capsule, a NaN radius, an old version */
      in[7].capsule_count = 3;
      CHECK(tailrig_batch_step_frames(batch, 0.02, in, kChains) == TAILRIG_ERROR_INVALID_ARGUMENT,
            "capsules over capacity accepted");
      CHECK(strstr(tailrig_last_error(), "chain 7") != NULL, "message '%s'", tailrig_last_error());
      in[7].capsule_count = kBatchLegs;
      const tailrig_capsule* good = in[9].capsules;
      tailrig_capsule bad[kBatchLegs];
      memcpy(bad, good, sizeof bad);
      bad[1].radius_b = NAN;
      in[9].capsules = bad;
      CHECK(tailrig_batch_step_frames(batch, 0.02, in, kChains) == TAILRIG_ERROR_NON_FINITE,
            "NaN radius accepted");
      in[9].capsules = good;
      in[0].version = 0;
      CHECK(tailrig_batch_step_frames(batch, 0.02, in, kChains) == TAILRIG_ERROR_INVALID_ARGUMENT,
            "version 0 accepted");
      in[0].version = TAILRIG_FRAME_INPUT_VERSION;
    }
    tailrig_status s = TAILRIG_OK;
    for (int c = 0; frame[0].reset && c < kChains; ++c)
      s = tailrig_batch_reset(batch, c, frame[c].hips_world);
    if (!frame[0].reset) s = tailrig_batch_step_frames(batch, frame[0].dt, in, kChains);
    CHECK(s == TAILRIG_OK, "frame %d: %s", f, tailrig_last_error());
    CHECK(tailrig_batch_local_rotations(batch, got, kChains * kBones) == TAILRIG_OK, "%s",
          tailrig_last_error());
    if (first_mismatch < 0 &&
        memcmp(got, expected + f * floats_per_frame, floats_per_frame * sizeof(float)) != 0)
      first_mismatch = f;
  }
  CHECK(first_mismatch < 0, "batch with colliders differs from solver::Batch from frame %d on",
        first_mismatch);
  printf(
      "c_api batch colliders: %d frames, %d chains x %d capsules: %s (first differing frame %d)\n",
      kFrames, kChains, kBatchLegs,
      first_mismatch < 0 ? "bit-identical to solver::Batch" : "DIFFERENT", first_mismatch);
  tailrig_batch_destroy(batch);
  free(frames), free(capsules), free(expected), free(free_tails), free(got);
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
  test_batch_colliders_bit_for_bit();
}
