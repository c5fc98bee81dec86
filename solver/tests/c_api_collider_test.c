/* The C API's colliders (issue 46), compiled as C, in solver_c_api_test:
 * tailrig_chain_step_frame with a leg the tail walks into equals
 * solver::step(..., FrameInput) bit for bit and keeps the tail out of the leg
 * it passes through without colliders; with no capsules it is
 * tailrig_chain_step, bit for bit; every refused frame and collider param
 * leaves the chain as it was; the versioned structs keep their layout. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c_api_test_rig.h"

/* A leg-like vertical capsule fixed in the hips frame, 6 cm to the side of
 * the tail's centred carry arc and 0.45 m behind the hips: the tail at rest
 * passes through it, so without colliders it penetrates. */
static const double kLegInHips[2][3] = {{0.06, -1.0, -0.45}, {0.06, 1.0, -0.45}};
static const double kLegRadius = 0.08;
/* Capsules per frame: the leg and a sphere at its foot. */
enum { kLegs = 2 };

static void transform_point(const double m[16], const double p[3], double out[3]) {
  for (int r = 0; r < 3; ++r) out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

/* Frame f's capsules in world space: the leg and a 5 cm sphere at its foot. */
static void make_capsules(const reference_frame* frame, tailrig_capsule out[kLegs]) {
  transform_point(frame->hips_world, kLegInHips[0], out[0].a);
  transform_point(frame->hips_world, kLegInHips[1], out[0].b);
  out[0].radius_a = out[0].radius_b = kLegRadius;
  memcpy(out[1].a, out[0].a, sizeof out[1].a);
  memcpy(out[1].b, out[0].a, sizeof out[1].b);
  out[1].radius_a = out[1].radius_b = 0.05;
}

/* Distance of p from the segment a..b. */
static double distance_to_segment(const double p[3], const double a[3], const double b[3]) {
  double ab[3], ap[3], t = 0.0, len2 = 0.0, d2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    ab[k] = b[k] - a[k];
    ap[k] = p[k] - a[k];
    t += ab[k] * ap[k];
    len2 += ab[k] * ab[k];
  }
  t = len2 > 0.0 ? fmin(fmax(t / len2, 0.0), 1.0) : 0.0;
  for (int k = 0; k < 3; ++k) d2 += (ap[k] - t * ab[k]) * (ap[k] - t * ab[k]);
  return sqrt(d2);
}

/* How far the displayed tail (sampled along the bones, tip included) comes
 * to the leg's axis at its closest. tip_local is the tip in the last bone's
 * frame. */
static double closest_to_leg(const double world[kBones * 16], const double tip_local[3],
                             const tailrig_capsule* leg) {
  double points[kBones + 1][3];
  for (int i = 0; i < kBones; ++i) memcpy(points[i], world + 16 * i + 12, sizeof points[i]);
  transform_point(world + 16 * (kBones - 1), tip_local, points[kBones]);
  double closest = 1e9;
  for (int i = 0; i < kBones; ++i) {
    for (int s = 0; s <= 10; ++s) {
      double p[3];
      for (int k = 0; k < 3; ++k)
        p[k] = points[i][k] + (points[i + 1][k] - points[i][k]) * s / 10.0;
      const double d = distance_to_segment(p, leg->a, leg->b);
      if (!(d >= closest)) closest = d; /* NaN propagates as a failure */
    }
  }
  return closest;
}

/* The tail tip (Tail_End's bind position) in Tail_5's frame. */
static void tip_in_last_bone(const double inverse_bind[kJoints * 16], double out[3]) {
  double end_bind[16];
  rigid_inverse(inverse_bind + 16 * (kJoints - 1), end_bind);
  transform_point(inverse_bind + 16 * (kJoints - 2), end_bind + 12, out);
}

/* Every refused step_frame input at this frame: the right code, a one-line
 * message, and the chain as it was (its output and world matrices). */
static void check_frame_refusals(tailrig_chain* chain, const tailrig_frame_input* good) {
  double rot_before[kBones * 4], rot_after[kBones * 4], world_before[kBones * 16],
      world_after[kBones * 16];
  tailrig_chain_local_rotations(chain, rot_before, kBones);
  tailrig_chain_world_matrices(chain, world_before, kBones);
  tailrig_capsule many[TAILRIG_MAX_CAPSULES + 1];
  for (int c = 0; c <= TAILRIG_MAX_CAPSULES; ++c) many[c] = good->capsules[0];
  for (int k = 0; k < 17; ++k) {
    tailrig_frame_input in = *good;
    tailrig_capsule caps[kLegs];
    memcpy(caps, good->capsules, sizeof caps);
    in.capsules = caps;
    double dt = 1.0 / 60.0;
    tailrig_chain* target = chain;
    const tailrig_frame_input* frame = &in;
    tailrig_status want = TAILRIG_ERROR_INVALID_ARGUMENT;
    switch (k) {
      case 0:
        target = NULL;
        break;
      case 1:
        frame = NULL;
        break;
      case 2:
        in.version = 0;
        break;
      case 3:
        in.version = TAILRIG_FRAME_INPUT_VERSION + 1;
        break;
      case 4:
        in.capsule_count = -1;
        break;
      case 5:
        in.capsule_count = TAILRIG_MAX_CAPSULES + 1, in.capsules = many;
        break;
      case 6:
        in.capsules = NULL;
        break;
      case 7:
        caps[1].a[1] = NAN, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 8:
        caps[0].radius_b = INFINITY, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 9:
        caps[1].b[2] = -INFINITY, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 10:
        caps[0].radius_a = -0.01;
        break;
      case 11:
        caps[0].a[0] = 1e10;
        break;
      case 12:
        in.hips_world[14] = NAN, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 13:
        dt = NAN, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 14:
        dt = -0.01;
        break;
      case 15:
        dt = 4000.0;
        break;
      case 16:
        in.hips_world[0] = INFINITY, caps[0].a[0] = NAN, want = TAILRIG_ERROR_NON_FINITE;
        break;
    }
    const tailrig_status s = tailrig_chain_step_frame(target, dt, frame);
    const char* message = tailrig_last_error();
    CHECK(s == want, "refusal case %d: status %d, want %d (%s)", k, s, want, message);
    CHECK(message[0] != '\0' && strchr(message, '\n') == NULL, "refusal case %d: message '%s'", k,
          message);
    if (k == 7)
      CHECK(strstr(message, "capsules[1].a[1]") != NULL, "message '%s' names no field", message);
    tailrig_chain_local_rotations(chain, rot_after, kBones);
    tailrig_chain_world_matrices(chain, world_after, kBones);
    CHECK(memcmp(rot_before, rot_after, sizeof rot_before) == 0 &&
              memcmp(world_before, world_after, sizeof world_before) == 0,
          "refusal case %d changed the chain", k);
  }
}

/* tailrig_chain_step_frame with two capsules the tail runs into equals
 * solver::step(..., FrameInput) bit for bit over the walk (teleport, zero dt,
 * reset included), with non-default collider params; the tail is pushed out
 * of the leg it would pass through without colliders. */
static void test_colliders_match_cpp_and_push(void) {
  double inverse_bind[kJoints * 16], tip_local[3];
  make_inverse_binds(inverse_bind);
  tip_in_last_bone(inverse_bind, tip_local);
  static reference_frame frames[kFrames];
  make_frames(frames);
  static tailrig_capsule capsules[kFrames * kLegs];
  for (int f = 0; f < kFrames; ++f) make_capsules(&frames[f], capsules + f * kLegs);
  const double gravity = 2.5, margin = 0.04, friction = 0.3;
  const reference_colliders colliders = {margin, friction, capsules, kLegs};
  static double expected_rot[kFrames * kBones * 4], expected_heads[kFrames * kBones * 3];
  const int32_t n =
      reference_run_colliders(kNames, kParents, inverse_bind, kJoints, gravity, &colliders, frames,
                              kFrames, expected_rot, expected_heads);
  CHECK(n == kBones, "reference bone count %d", n);
  if (n != kBones) return;

  tailrig_params params;
  tailrig_params_default(&params);
  params.gravity = gravity;
  tailrig_chain *with = NULL, *without = NULL;
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &with) ==
                TAILRIG_OK &&
            tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, &params, &without) ==
                TAILRIG_OK,
        "create: %s", tailrig_last_error());
  if (!with || !without) return;
  tailrig_collider_params cp;
  tailrig_collider_params_default(&cp);
  cp.margin = margin;
  cp.friction = friction;
  CHECK(tailrig_chain_set_collider_params(with, &cp) == TAILRIG_OK, "set collider params: %s",
        tailrig_last_error());

  tailrig_frame_input in;
  tailrig_frame_input_default(&in);
  double rot[kBones * 4], world[kBones * 16];
  int first_mismatch = -1;
  /* The tail's closest approach to the leg's axis: smallest, and the mean. */
  double min_with = 1e9, min_without = 1e9, mean_with = 0.0, mean_without = 0.0;
  int frames_through = 0;
  for (int f = 0; f < kFrames; ++f) {
    memcpy(in.hips_world, frames[f].hips_world, sizeof in.hips_world);
    in.capsules = capsules + f * kLegs;
    in.capsule_count = kLegs;
    if (f == 200) check_frame_refusals(with, &in);
    const tailrig_status s = frames[f].reset ? tailrig_chain_reset(with, frames[f].hips_world)
                                             : tailrig_chain_step_frame(with, frames[f].dt, &in);
    CHECK(s == TAILRIG_OK, "frame %d: %s", f, tailrig_last_error());
    CHECK(tailrig_chain_local_rotations(with, rot, kBones) == TAILRIG_OK, "rotations: %s",
          tailrig_last_error());
    if (first_mismatch < 0 && memcmp(rot, expected_rot + f * kBones * 4, sizeof rot) != 0)
      first_mismatch = f;
    tailrig_chain_world_matrices(with, world, kBones);
    double closest = closest_to_leg(world, tip_local, &capsules[f * kLegs]);
    /* A reset poses the tail without colliders; the next step pushes it out. */
    if (!frames[f].reset) min_with = fmin(min_with, closest);
    mean_with += closest / kFrames;

    CHECK((frames[f].reset
               ? tailrig_chain_reset(without, frames[f].hips_world)
               : tailrig_chain_step(without, frames[f].dt, frames[f].hips_world)) == TAILRIG_OK,
          "frame %d without colliders: %s", f, tailrig_last_error());
    tailrig_chain_world_matrices(without, world, kBones);
    closest = closest_to_leg(world, tip_local, &capsules[f * kLegs]);
    min_without = fmin(min_without, closest);
    mean_without += closest / kFrames;
    frames_through += closest < kLegRadius;
  }
  CHECK(first_mismatch < 0, "C API with colliders differs from the C++ solver from frame %d on",
        first_mismatch);
  CHECK(min_without < kLegRadius - 0.05 && frames_through > 100,
        "without colliders the tail should pass through the leg: %g m from its axis at the "
        "closest, %d frames",
        min_without, frames_through);
  CHECK(min_with > kLegRadius + 0.5 * margin,
        "with colliders the tail came %g m near the leg's axis (radius %g)", min_with, kLegRadius);
  CHECK(mean_with > mean_without + 0.02, "mean closest approach %g m with colliders, %g without",
        mean_with, mean_without);
  printf(
      "c_api colliders: %d frames, %d capsules: %s (first differing frame %d); tail to the leg's "
      "axis "
      "(radius %.2f m) at the closest: %.4f m without colliders (inside it in %d frames), %.4f m "
      "with "
      "(margin %.2f m); mean closest approach %.4f m -> %.4f m\n",
      kFrames, kLegs,
      first_mismatch < 0 ? "bit-identical to the C++ solver" : "DIFFERENT from the C++ solver",
      first_mismatch, kLegRadius, min_without, frames_through, min_with, margin, mean_without,
      mean_with);
  tailrig_chain_destroy(with);
  tailrig_chain_destroy(without);
}

/* No capsules: tailrig_chain_step_frame is tailrig_chain_step, bit for bit
 * (capsules NULL or not with count 0; the walk's teleport and reset too). */
static void test_no_capsules_is_the_plain_step(void) {
  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  static reference_frame frames[kFrames];
  make_frames(frames);
  tailrig_chain *plain = NULL, *framed = NULL;
  CHECK(tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, NULL, &plain) ==
                TAILRIG_OK &&
            tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, NULL, &framed) ==
                TAILRIG_OK,
        "create: %s", tailrig_last_error());
  if (!plain || !framed) return;
  const tailrig_capsule unused = {{0, 0, 0}, {0, 1, 0}, 0.1, 0.1};
  tailrig_frame_input in;
  tailrig_frame_input_default(&in);
  int first_mismatch = -1;
  for (int f = 0; f < kFrames; ++f) {
    memcpy(in.hips_world, frames[f].hips_world, sizeof in.hips_world);
    in.capsules = f % 2 ? &unused : NULL; /* count 0: never read */
    tailrig_status a, b;
    if (frames[f].reset) {
      a = tailrig_chain_reset(plain, frames[f].hips_world);
      b = tailrig_chain_reset(framed, frames[f].hips_world);
    } else {
      a = tailrig_chain_step(plain, frames[f].dt, frames[f].hips_world);
      b = tailrig_chain_step_frame(framed, frames[f].dt, &in);
    }
    CHECK(a == TAILRIG_OK && b == TAILRIG_OK, "frame %d: %s", f, tailrig_last_error());
    double ra[kBones * 4], rb[kBones * 4], wa[kBones * 16], wb[kBones * 16];
    tailrig_chain_local_rotations(plain, ra, kBones);
    tailrig_chain_local_rotations(framed, rb, kBones);
    tailrig_chain_world_matrices(plain, wa, kBones);
    tailrig_chain_world_matrices(framed, wb, kBones);
    if (first_mismatch < 0 && (memcmp(ra, rb, sizeof ra) != 0 || memcmp(wa, wb, sizeof wa) != 0))
      first_mismatch = f;
  }
  CHECK(first_mismatch < 0, "step_frame without capsules differs from step from frame %d on",
        first_mismatch);
  printf("c_api colliders: no capsules: %s tailrig_chain_step over %d frames\n",
         first_mismatch < 0 ? "bit-identical to" : "DIFFERENT from", kFrames);
  tailrig_chain_destroy(plain);
  tailrig_chain_destroy(framed);
}

/* The versioned structs: defaults, layout, and every refused collider param
 * (the chain keeps its values; tailrig_chain_set_params leaves them alone). */
static void test_collider_params_and_layout(void) {
  tailrig_frame_input in;
  memset(&in, 0xab, sizeof in);
  tailrig_frame_input_default(&in);
  CHECK(in.version == TAILRIG_FRAME_INPUT_VERSION && in.capsule_count == 0 && in.capsules == NULL &&
            in.hips_world[0] == 1.0 && in.hips_world[5] == 1.0 && in.hips_world[15] == 1.0 &&
            in.hips_world[1] == 0.0 && in.hips_world[12] == 0.0,
        "frame input defaults");
  CHECK(sizeof(tailrig_capsule) == 64 && offsetof(tailrig_frame_input, hips_world) == 8 &&
            offsetof(tailrig_frame_input, capsules) == 136,
        "frame input layout changed");
  CHECK(sizeof(tailrig_collider_params) == 24 && offsetof(tailrig_collider_params, margin) == 8,
        "collider params layout changed");

  double inverse_bind[kJoints * 16];
  make_inverse_binds(inverse_bind);
  tailrig_chain* chain = NULL;
  CHECK(
      tailrig_chain_create(kNames, kParents, inverse_bind, kJoints, -1, NULL, &chain) == TAILRIG_OK,
      "create: %s", tailrig_last_error());
  if (!chain) return;
  tailrig_collider_params p, got;
  tailrig_collider_params_default(&p);
  CHECK(p.version == TAILRIG_COLLIDER_PARAMS_VERSION && p.reserved == 0 && p.margin == 0.03 &&
            p.friction == 0.2,
        "collider params defaults %g %g", p.margin, p.friction);
  p.margin = 0.05;
  p.friction = 0.5;
  CHECK(tailrig_chain_set_collider_params(chain, &p) == TAILRIG_OK, "set: %s",
        tailrig_last_error());
  for (int k = 0; k < 9; ++k) {
    tailrig_collider_params bad = p;
    tailrig_chain* target = chain;
    const tailrig_collider_params* arg = &bad;
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
        bad.margin = NAN, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 5:
        bad.friction = INFINITY, want = TAILRIG_ERROR_NON_FINITE;
        break;
      case 6:
        bad.margin = -0.01;
        break;
      case 7:
        bad.friction = 1.5;
        break;
      case 8:
        bad.friction = -0.1;
        break;
    }
    const tailrig_status s = tailrig_chain_set_collider_params(target, arg);
    CHECK(s == want, "collider params case %d: status %d, want %d (%s)", k, s, want,
          tailrig_last_error());
  }
  tailrig_params params;
  tailrig_params_default(&params);
  params.gravity = 3.0;
  CHECK(tailrig_chain_set_params(chain, &params) == TAILRIG_OK, "set_params: %s",
        tailrig_last_error());
  memset(&got, 0, sizeof got);
  CHECK(tailrig_chain_get_collider_params(chain, &got) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "get with version 0 accepted");
  tailrig_collider_params_default(&got);
  CHECK(tailrig_chain_get_collider_params(chain, &got) == TAILRIG_OK && got.margin == 0.05 &&
            got.friction == 0.5,
        "collider params after refusals and set_params: %g %g (%s)", got.margin, got.friction,
        tailrig_last_error());
  CHECK(tailrig_chain_get_collider_params(NULL, &got) == TAILRIG_ERROR_INVALID_ARGUMENT,
        "get from NULL");
  tailrig_chain_destroy(chain);
}

void test_colliders(void) {
  test_collider_params_and_layout();
  test_no_capsules_is_the_plain_step();
  test_colliders_match_cpp_and_push();
}
