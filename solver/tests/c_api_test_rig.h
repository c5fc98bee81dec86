/* What the C API tests share (c_api_test.c defines it, c_api_collider_test.c
 * uses it): the rig, the walk, the failure count. C99. */
#ifndef TAILRIG_C_API_TEST_RIG_H
#define TAILRIG_C_API_TEST_RIG_H

#include <stdint.h>
#include <stdio.h>

#include "c_api_reference.h"
#include "solver/tailrig_solver.h"

enum { kJoints = 13, kBones = 5, kFrames = 600 };

extern int g_failures;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      ++g_failures;                                        \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
    }                                                      \
  } while (0)

/* Joint names and parents of the test rig: hips, legs, Tail_1..Tail_5, Tail_End. */
extern const char* const kNames[kJoints];
extern const int32_t kParents[kJoints];

/* Column-major rigid transform: rotation about unit axis (x, y, z) by angle,
 * then translation t. */
void rigid(double angle, double ax, double ay, double az, const double t[3], double m[16]);
/* Inverse of a rigid column-major transform. */
void rigid_inverse(const double m[16], double out[16]);
/* The rig's inverse bind matrices (a 0.8 m five-bone tail, twisted binds). */
void make_inverse_binds(double inverse_bind[kJoints * 16]);
/* The walk: mixed frame times, a teleport at 250, dt 0 at 300, a reset at 400. */
void make_frames(reference_frame frames[kFrames]);

/* c_api_collider_test.c */
void test_colliders(void);
/* c_api_sway_test.c */
void test_sway(void);
/* c_api_batch_test.c */
void test_batch(void);

#endif
