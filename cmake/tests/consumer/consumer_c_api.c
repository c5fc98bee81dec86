/* The C API from a C translation unit: 120 steps of a swaying hips; writes the
 * final local rotations (bone_count * 4 doubles) or returns the error code.
 * Every other step goes through tailrig_chain_step_frame without capsules
 * (the same bits as tailrig_chain_step): the installed header and library
 * have the collider entry points. */
#include <math.h>
#include <stdio.h>

#include "solver/tailrig_solver.h"

int run_c_api(const char* const* names, const int32_t* parents, const double* inverse_bind,
              int32_t joint_count, double* out_rotations, int32_t capacity) {
  tailrig_chain* chain = NULL;
  tailrig_status s =
      tailrig_chain_create(names, parents, inverse_bind, joint_count, -1, NULL, &chain);
  if (s != TAILRIG_OK) {
    fprintf(stderr, "consumer: %s\n", tailrig_last_error());
    return (int)s;
  }
  tailrig_frame_input frame;
  tailrig_frame_input_default(&frame);
  for (int f = 0; f < 120 && s == TAILRIG_OK; ++f) {
    double hips[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1};
    hips[12] = 0.3 * sin(0.1 * f);
    if (f % 2) {
      for (int k = 0; k < 16; ++k) frame.hips_world[k] = hips[k];
      s = tailrig_chain_step_frame(chain, 1.0 / 60.0, &frame);
    } else {
      s = tailrig_chain_step(chain, 1.0 / 60.0, hips);
    }
  }
  if (s == TAILRIG_OK) s = tailrig_chain_local_rotations(chain, out_rotations, capacity);
  if (s != TAILRIG_OK) fprintf(stderr, "consumer: %s\n", tailrig_last_error());
  tailrig_chain_destroy(chain);
  return (int)s;
}
