/* The C API's idle sway (issue 46), compiled as C, in solver_c_api_test: a
 * chain given tailrig_sway_params_idle sways like solver::step with
 * solver::idle_sway(), bit for bit, over a stand then a walk (mixed frame
 * times); it really sways (a chain without it hangs elsewhere); every
 * refused sway param leaves the chain's as they were; tailrig_chain_set_params
 * leaves them alone; the versioned struct keeps its layout. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c_api_test_rig.h"

/* Standing (the hips breathing 4 mm) for 400 frames, then walking 1.2 m/s
 * with the hips yawing 8 deg per step; frame times mixed as in the walk. */
static void make_stand_then_walk(reference_frame frames[kFrames]) {
  const double dts[4] = {1.0 / 60.0, 1.0 / 30.0, 1.0 / 144.0, 0.05};
  double t = 0.0, walked = 0.0;
  for (int f = 0; f < kFrames; ++f) {
    const double dt = dts[f % 4];
    t += dt;
    const int walking = f >= 400;
    if (walking) walked += 1.2 * dt;
    const double pos[3] = {0.0, 1.0 + 0.004 * sin(2.0 * t) + (walking ? 0.03 * cos(12.0 * t) : 0.0),
                           walked};
    rigid(walking ? 0.14 * sin(6.0 * t) : 0.0, 0.0, 1.0, 0.0, pos, frames[f].hips_world);
    frames[f].dt = dt;
    frames[f].reset = 0;
  }
}

static tailrig_chain* make_chain(const double inverse_bind[kJoints * 16], double gravity) {
  tailrig_params params;
  tailrig_params_default(&params);
  params.gravity = gravity;
  tailrig_chain* chain = NULL;
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &chain) ==
            TAILRIG_OK,
        "create: %s", tailrig_last_error());
  return chain;
}

/* Steps `chain` over the frames; bone heads (rig units) per frame into heads. */
static void run_chain(tailrig_chain* chain, const reference_frame* frames, double* rotations,
                      double* heads) {
  double world[kBones * 16];
  for (int f = 0; f < kFrames; ++f) {
    CHECK(tailrig_chain_step(chain, frames[f].dt, frames[f].hips_world) == TAILRIG_OK,
          "step %d: %s", f, tailrig_last_error());
    tailrig_chain_local_rotations(chain, rotations + f * kBones * 4, kBones);
    tailrig_chain_world_matrices(chain, world, kBones);
    for (int i = 0; i < kBones; ++i)
      memcpy(heads + (f * kBones + i) * 3, world + 16 * i + 12, 3 * sizeof(double));
  }
}

static void test_sway_matches_cpp_and_sways(void) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  static reference_frame frames[kFrames];
  make_stand_then_walk(frames);
  tailrig_sway_params sway;
  tailrig_sway_params_idle(&sway);
  const double gravity = 2.5;
  static double expected_rot[kFrames * kBones * 4], expected_heads[kFrames * kBones * 3];
  const int32_t n = reference_run_sway(kNames, kParents, inverse_bind, kJoints, gravity, &sway,
                                       frames, kFrames, expected_rot, expected_heads);
  CHECK(n == kBones, "reference bone count %d", n);
  if (n != kBones) return;
  tailrig_chain* swaying = make_chain(inverse_bind, gravity);
  tailrig_chain* calm = make_chain(inverse_bind, gravity);
  if (!swaying || !calm) return;
  CHECK(tailrig_chain_set_sway_params(swaying, &sway) == TAILRIG_OK, "set sway: %s",
        tailrig_last_error());
  static double rot[kFrames * kBones * 4], calm_rot[kFrames * kBones * 4];
  static double heads[kFrames * kBones * 3], calm_heads[kFrames * kBones * 3];
  run_chain(swaying, frames, rot, heads);
  run_chain(calm, frames, calm_rot, calm_heads);
  CHECK(memcmp(rot, expected_rot, sizeof rot) == 0,
        "swaying rotations differ from solver::step with idle_sway()");
  /* The heads come from the C API's world matrices, the reference's from
   * the state's points: equal to rounding, not to the bit. */
  double worst = 0.0, swayed = 0.0;
  for (int f = 0; f < kFrames; ++f) {
    for (int k = 0; k < kBones * 3; ++k)
      worst = fmax(worst, fabs(heads[f * kBones * 3 + k] - expected_heads[f * kBones * 3 + k]));
    if (f >= 100 && f < 400) {
      /* The last bone's head, standing: where the sway takes it from the calm hang. */
      const double* a = heads + (f * kBones + kBones - 1) * 3;
      const double* b = calm_heads + (f * kBones + kBones - 1) * 3;
      swayed = fmax(swayed, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[2] - b[2]) * (a[2] - b[2])));
    }
  }
  CHECK(worst < 1e-12, "swaying heads differ from the reference by %g", worst);
  printf("[c_api sway] standing: the last bone's head sways up to %.4f m from the calm hang\n",
         swayed);
  /* 20 deg over five links turns the last head (0.64 m down the tail) by
   * about 16 deg of its arc: centimetres, not rounding. */
  CHECK(swayed > 0.02, "the swaying chain does not sway (%.5f m from the calm one)", swayed);
  tailrig_chain_destroy(swaying);
  tailrig_chain_destroy(calm);
}

static void test_sway_params_and_layout(void) {
  CHECK(sizeof(tailrig_sway_params) == 40 && offsetof(tailrig_sway_params, amplitude_deg) == 8 &&
            offsetof(tailrig_sway_params, fade) == 32,
        "tailrig_sway_params layout changed");
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  tailrig_chain* chain = make_chain(inverse_bind, 1.0);
  if (!chain) return;
  tailrig_sway_params p, got;
  tailrig_sway_params_default(&p);
  CHECK(p.version == TAILRIG_SWAY_PARAMS_VERSION && p.reserved == 0 && p.amplitude_deg == 0.0 &&
            p.period == 2.4 && p.still_speed == 0.1 && p.fade == 0.5,
        "sway defaults %g %g %g %g", p.amplitude_deg, p.period, p.still_speed, p.fade);
  tailrig_sway_params_idle(&p);
  CHECK(p.version == TAILRIG_SWAY_PARAMS_VERSION && p.amplitude_deg == 20.0 && p.period == 2.4,
        "idle sway %g deg every %g s", p.amplitude_deg, p.period);
  p.amplitude_deg = 15.0;
  p.fade = 0.8;
  CHECK(tailrig_chain_set_sway_params(chain, &p) == TAILRIG_OK, "set: %s", tailrig_last_error());
  for (int k = 0; k < 12; ++k) {
    tailrig_sway_params bad = p;
    tailrig_chain* target = chain;
    const tailrig_sway_params* arg = &bad;
    tailrig_status want = TAILRIG_ERROR_INVALID_ARGUMENT;
    switch (k) {
      case 0:
        target = NULL;
        break;
      case 1:
        arg = NULL;
        break;
      case 2:
        bad.version = 2;
        break;
      case 3:
        bad.reserved = 1;
        break;
      case 4:
        bad.amplitude_deg = NAN, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 5:
        bad.fade = INFINITY, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 6:
        bad.amplitude_deg = -1.0;
        break;
      case 7:
        bad.amplitude_deg = 91.0;
        break;
      case 8:
        bad.period = 0.0;
        break;
      case 9:
        bad.still_speed = 0.0;
        break;
      case 10:
        bad.fade = 0.0;
        break;
      case 11:
        bad.period = -INFINITY, want = TAILRIG_ERROR_NON_FINITE;
        break;
    }
    const tailrig_status s = tailrig_chain_set_sway_params(target, arg);
    CHECK(s == want, "sway params case %d: status %d, want %d (%s)", k, s, want,
          tailrig_last_error());
  }
  tailrig_params params;
  tailrig_params_default(&params);
  params.gravity = 3.0;
  CHECK(tailrig_chain_set_params(chain, &params) == TAILRIG_OK, "set_params: %s",
        tailrig_last_error());
  memset(&got, 0, sizeof got);
  CHECK(tailrig_chain_get_sway_params(chain, &got) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "get with version 0 accepted");
  tailrig_sway_params_default(&got);
  CHECK(tailrig_chain_get_sway_params(chain, &got) == TAILRIG_OK && got.amplitude_deg == 15.0 &&
            got.fade == 0.8 && got.period == 2.4 && got.still_speed == 0.1,
        "sway params after refusals and set_params: %g %g (%s)", got.amplitude_deg, got.fade,
        tailrig_last_error());
  CHECK(tailrig_chain_get_sway_params(NULL, &got) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "get from NULL");
  tailrig_chain_destroy(chain);
}

void test_sway(void) {
  test_sway_params_and_layout();
  test_sway_matches_cpp_and_sways();
}
