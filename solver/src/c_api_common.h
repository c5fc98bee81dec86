// What the C API's translation units share (tailrig_solver.cpp for single
// chains, tailrig_batch.cpp for batches): the chain handle, the error
// channel (tailrig_last_error) and the input checks, so a batch refuses
// exactly what a chain refuses, with the same messages.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "solver/solver.h"
#include "solver/tailrig_solver.h"

struct tailrig_chain {
  solver::ChainParams params;
  solver::ChainDesc desc;
  solver::ChainState state;
  // Root parent's world = hips world * this (bind pose between them), rig units.
  Eigen::Matrix4d hips_to_root_parent = Eigen::Matrix4d::Identity();
};

namespace tailrig_c_api {

// Sets tailrig_last_error() to `message` and returns `code`.
tailrig_status fail(tailrig_status code, std::string message);
bool all_finite(const double* values, int count);
Eigen::Matrix4d matrix_from(const double* column_major);
// Range checks of every field; the message names the first bad one.
tailrig_status check_params(const tailrig_params& p);
solver::ChainParams to_cpp(const tailrig_params& p);
// The per-step fields of `p` over `built`, whose [build] and collider
// fields stay (the desc depends on them).
solver::ChainParams merged_step_params(const solver::ChainParams& built, const tailrig_params& p);
tailrig_status check_dt(double dt);
tailrig_status check_hips(const double* hips_world);
// A frame's capsules: count, NULL, every value finite and in range.
tailrig_status check_capsules(const tailrig_frame_input& in);

// Runs `body` with every exception turned into a status.
template <class Body>
tailrig_status guarded(Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(TAILRIG_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(TAILRIG_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(TAILRIG_ERROR_INTERNAL, "internal error");
  }
}

}  // namespace tailrig_c_api
