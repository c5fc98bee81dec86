/* Drives the solver through its C API (tailrig_solver.h), compiled as C, and
 * checks it against the C++ solver on the same rig and hips motion, bit for
 * bit: 600 frames of a walking, bobbing, yawing hips with mixed frame times,
 * a teleport, a zero dt and a reset. Also every refused input: NULLs,
 * NaN/inf in matrices, dt and params, a rig without a tail. The colliders'
 * checks are in c_api_collider_test.c. Exit 0 pass, 1 fail (each failure
 * printed). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c_api_test_rig.h"

int g_failures = 0;

const char* const kNames[kJoints] = {"Root",       "Hips",     "Spine",   "LeftUpLeg", "LeftLeg",
                                     "RightUpLeg", "RightLeg", "Tail_1",  "Tail_2",    "Tail_3",
                                     "Tail_4",     "Tail_5",   "Tail_End"};
const int32_t kParents[kJoints] = {-1, 0, 1, 1, 3, 1, 5, 1, 7, 8, 9, 10, 11};

/* Column-major rigid transform: rotation about unit axis (x, y, z) by angle,
 * then translation t. */
void rigid(double angle, double ax, double ay, double az, const double t[3], double m[16]) {
  const double c = cos(angle), s = sin(angle), k = 1.0 - c;
  const double len = sqrt(ax * ax + ay * ay + az * az);
  ax /= len;
  ay /= len;
  az /= len;
  const double r[9] = {/* row-major R */
                       c + ax * ax * k,      ax * ay * k - az * s, ax * az * k + ay * s,
                       ay * ax * k + az * s, c + ay * ay * k,      ay * az * k - ax * s,
                       az * ax * k - ay * s, az * ay * k + ax * s, c + az * az * k};
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) m[col * 4 + row] = r[row * 3 + col];
    m[12 + row] = t[row];
    m[row * 4 + 3] = 0.0;
  }
  m[15] = 1.0;
}

/* Inverse of a rigid column-major transform. */
void rigid_inverse(const double m[16], double out[16]) {
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) out[col * 4 + row] = m[row * 4 + col];
    out[row * 4 + 3] = 0.0;
  }
  for (int row = 0; row < 3; ++row) {
    out[12 + row] = -(out[row] * m[12] + out[4 + row] * m[13] + out[8 + row] * m[14]);
  }
  out[15] = 1.0;
}

/* Bind pose: hips at 1 m, legs, a 0.8 m five-bone tail hanging back and down
 * with a different bind rotation per tail bone (so local rotations are not
 * trivially world ones). */
void make_inverse_binds(double inverse_bind[kJoints * 16]) {
  const double positions[7][3] = {{0, 0, 0},     {0, 1, 0},       {0, 1.2, 0},   {0.1, 0.95, 0},
                                  {0.1, 0.5, 0}, {-0.1, 0.95, 0}, {-0.1, 0.5, 0}};
  double world[16];
  for (int j = 0; j < 7; ++j) {
    rigid(0.0, 0, 1, 0, positions[j], world);
    rigid_inverse(world, inverse_bind + 16 * j);
  }
  const double dir_len = sqrt(0.36 + 1.0);
  double p[3] = {0, 0.95, -0.1};
  for (int i = 0; i <= kBones; ++i) { /* Tail_1..Tail_5, Tail_End */
    rigid(0.7 * (i + 1), 0.3, 1.0, 0.2, p, world);
    rigid_inverse(world, inverse_bind + 16 * (7 + i));
    p[1] += -0.6 / dir_len * 0.8 / kBones;
    p[2] += -1.0 / dir_len * 0.8 / kBones;
  }
}

/* A walk: forward 1.2 m/s, sideways sway, vertical bob, yaw sway, a teleport
 * (+5 m in x from frame 250 on), mixed frame times, a zero dt at frame 300 and
 * a reset at frame 400. */
void make_frames(reference_frame frames[kFrames]) {
  const double dts[4] = {1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.05};
  double t = 0.0;
  for (int f = 0; f < kFrames; ++f) {
    const double dt = f == 300 ? 0.0 : dts[f % 4];
    t += dt;
    const double pos[3] = {0.3 * sin(1.3 * t) + (f >= 250 ? 5.0 : 0.0), 1.0 + 0.05 * sin(6.0 * t),
                           1.2 * t};
    rigid(0.6 * sin(0.9 * t), 0.1 * sin(2.0 * t), 1.0, 0.0, pos, frames[f].hips_world);
    frames[f].dt = dt;
    frames[f].reset = f == 400;
  }
}

static void test_matches_cpp_bit_for_bit(void) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  static reference_frame frames[kFrames];
  make_frames(frames);
  static double expected_rot[kFrames * kBones * 4], expected_heads[kFrames * kBones * 3];
  const double gravity = 2.5; /* not the default: params must reach the solver */
  const int32_t n = reference_run(kNames, kParents, inverse_bind, kJoints, gravity, frames, kFrames,
                                  expected_rot, expected_heads);
  CHECK(n == kBones, "reference bone count %d", n);
  if (n != kBones) return;

  tailrig_params params;
  tailrig_params_default(&params);
  params.gravity = gravity;
  tailrig_chain* chain = NULL;
  tailrig_status s =
      tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &chain);
  CHECK(s == TAILRIG_OK && chain, "create: %d %s", s, tailrig_last_error());
  if (!chain) return;
  CHECK(tailrig_chain_bone_count(chain) == kBones, "bone count %d",
        tailrig_chain_bone_count(chain));
  for (int i = 0; i < kBones; ++i) {
    CHECK(tailrig_chain_bone_joint(chain, i) == 7 + i, "bone %d joint %d", i,
          tailrig_chain_bone_joint(chain, i));
  }
  CHECK(tailrig_chain_bone_joint(chain, kBones) == -1, "bone past the end");

  double rot[kBones * 4], world[kBones * 16];
  int first_mismatch = -1;
  double worst_head_error = 0.0;
  for (int f = 0; f < kFrames; ++f) {
    if (f == 200) { /* refused inputs must leave the state untouched */
      double bad[16];
      memcpy(bad, frames[f].hips_world, sizeof bad);
      bad[13] = NAN;
      CHECK(tailrig_chain_step(chain, 1.0 / 60.0, bad) == TAILRIG_ERROR_NON_FINITE,
            "NaN hips accepted");
      CHECK(strstr(tailrig_last_error(), "hips_world") != NULL, "message '%s'",
            tailrig_last_error());
      bad[13] = INFINITY;
      CHECK(tailrig_chain_reset(chain, bad) == TAILRIG_ERROR_NON_FINITE,
            "inf hips accepted by reset");
      CHECK(tailrig_chain_step(chain, NAN, frames[f].hips_world) == TAILRIG_ERROR_NON_FINITE,
            "NaN dt accepted");
      CHECK(tailrig_chain_step(chain, -0.1, frames[f].hips_world) == TAILRIG_ERROR_INVALID_ARGUMENT,
            "negative dt accepted");
      CHECK(tailrig_chain_step(chain, 0.1, NULL) == TAILRIG_ERROR_INVALID_ARGUMENT,
            "NULL hips accepted");
    }
    s = frames[f].reset ? tailrig_chain_reset(chain, frames[f].hips_world)
                        : tailrig_chain_step(chain, frames[f].dt, frames[f].hips_world);
    CHECK(s == TAILRIG_OK, "frame %d: %s", f, tailrig_last_error());
    CHECK(tailrig_chain_local_rotations(chain, rot, kBones) == TAILRIG_OK, "rotations: %s",
          tailrig_last_error());
    if (first_mismatch < 0 && memcmp(rot, expected_rot + f * kBones * 4, sizeof rot) != 0)
      first_mismatch = f;
    CHECK(tailrig_chain_world_matrices(chain, world, kBones) == TAILRIG_OK, "world: %s",
          tailrig_last_error());
    for (int i = 0; i < kBones; ++i) {
      for (int k = 0; k < 3; ++k) {
        const double e = fabs(world[16 * i + 12 + k] - expected_heads[(f * kBones + i) * 3 + k]);
        if (!(e <= worst_head_error)) worst_head_error = e; /* NaN propagates as a failure */
      }
    }
  }
  CHECK(first_mismatch < 0, "C API differs from the C++ solver from frame %d on", first_mismatch);
  CHECK(worst_head_error < 1e-9,
        "world matrix translations differ from the solver's bone heads by %g", worst_head_error);
  CHECK(tailrig_chain_local_rotations(chain, rot, kBones - 1) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "small capacity accepted");
  printf("c_api: %d frames, %d bones: %s (first differing frame %d), world heads within %.3g\n",
         kFrames, kBones,
         first_mismatch < 0 ? "bit-identical to the C++ solver" : "DIFFERENT from the C++ solver",
         first_mismatch, worst_head_error);
  tailrig_chain_destroy(chain);
}

static void test_refuses_bad_input(void) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  tailrig_chain* chain = (tailrig_chain*)&g_failures; /* must be reset to NULL on failure */
  tailrig_params params;

  inverse_bind[16 * 9 + 5] = NAN;
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, NULL, &chain) ==
                TAILRIG_ERROR_NON_FINITE &&
            chain == NULL,
        "NaN inverse bind accepted");
  CHECK(strstr(tailrig_last_error(), "Tail_3") != NULL, "message '%s' names no joint",
        tailrig_last_error());
  make_inverse_binds(inverse_bind);

  tailrig_params_default(&params);
  params.damping_ratio = INFINITY;
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &chain) ==
            TAILRIG_ERROR_NON_FINITE,
        "inf parameter accepted");
  tailrig_params_default(&params);
  params.internal_step = 0.0;
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &chain) ==
            TAILRIG_ERROR_INVALID_ARGUMENT,
        "zero internal step accepted");
  CHECK(tailrig_chain_create(NULL, kParents, inverse_bind, kJoints, -1, NULL, &chain) ==
            TAILRIG_ERROR_INVALID_ARGUMENT,
        "NULL names accepted");
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, 0, -1, NULL, &chain) ==
            TAILRIG_ERROR_INVALID_ARGUMENT,
        "zero joints accepted");
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, 7, -1, NULL, &chain) ==
            TAILRIG_ERROR_NO_TAIL,
        "rig without tail accepted: %s", tailrig_last_error());
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, kJoints, NULL, &chain) ==
            TAILRIG_ERROR_INVALID_ARGUMENT,
        "hips out of range accepted");

  CHECK(
      tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, 1, NULL, &chain) == TAILRIG_OK,
      "create with explicit hips: %s", tailrig_last_error());
  double world[kBones * 16];
  CHECK(tailrig_chain_world_matrices(chain, world, kBones) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "world matrices before any hips");
  tailrig_params_default(&params);
  params.gravity = NAN;
  CHECK(tailrig_chain_set_params(chain, &params) == TAILRIG_ERROR_NON_FINITE,
        "NaN gravity accepted");
  tailrig_params_default(&params);
  params.carry_deg = 10.0; /* [build] field: ignored, not an error */
  CHECK(tailrig_chain_set_params(chain, &params) == TAILRIG_OK, "set_params: %s",
        tailrig_last_error());
  tailrig_chain_destroy(chain);
  tailrig_chain_destroy(NULL);
  CHECK(tailrig_chain_bone_count(NULL) == 0, "bone count of NULL");
}

int main(void) {
  test_matches_cpp_bit_for_bit();
  test_refuses_bad_input();
  test_colliders();
  test_sway();
  test_batch();
  if (g_failures) {
    fprintf(stderr, "c_api: %d failure(s)\n", g_failures);
    return 1;
  }
  printf("c_api: all checks passed\n");
  return 0;
}
