// C API over solver::Batch (tailrig_batch.h). As tailrig_solver.cpp: every
// entry point validates its input before touching the batch and catches
// every exception. The hips and the output live in the handle, sized at
// create, so a step allocates nothing.
#include "solver/tailrig_batch.h"

#include <string>
#include <vector>

#include "c_api_common.h"
#include "solver/batch.h"

using namespace tailrig_c_api;

struct tailrig_batch {
  explicit tailrig_batch(const tailrig_chain& chain, int count)
      : batch(chain.desc, chain.params, count),
        hips(static_cast<size_t>(count), Eigen::Affine3d::Identity()),
        out(static_cast<size_t>(count) * static_cast<size_t>(chain.desc.size())),
        inputs(static_cast<size_t>(count)) {
    for (int c = 0; c < count; ++c) refresh_output(c);
  }
  // Chain c's rotations as the batch holds them (after create or a reset,
  // which do not run the output kernel).
  void refresh_output(int c) {
    const int n = batch.links();
    for (int i = 0; i < n; ++i) out[static_cast<size_t>(c * n + i)] = batch.output_rotation(c, i);
  }

  solver::Batch batch;
  std::vector<Eigen::Affine3d> hips;    // the step's input, converted
  std::vector<Eigen::Quaternionf> out;  // the latest output, chain-major
  // tailrig_batch_step_frames: collider_capacity capsules per chain.
  int collider_capacity = 0;
  std::vector<solver::Capsule> capsules;
  std::vector<solver::FrameInput> inputs;
};

namespace {

// Finite hips for every chain; the message names the first bad one.
tailrig_status check_batch_hips(const double* hips_world, int32_t count) {
  if (!hips_world) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "hips_world is NULL");
  if (all_finite(hips_world, 16 * count)) return TAILRIG_OK;
  for (int32_t c = 0; c < count; ++c) {
    if (!all_finite(hips_world + 16 * c, 16))
      return fail(TAILRIG_ERROR_NON_FINITE,
                  "hips_world of chain " + std::to_string(c) + " has a NaN or infinite element");
  }
  return fail(TAILRIG_ERROR_INTERNAL, "non-finite hips not found again");
}

// Every chain's frame input: version, dt-independent checks, the capacity.
tailrig_status check_frames(const tailrig_frame_input* frames, int32_t count, int capacity) {
  if (!frames) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "frames is NULL");
  for (int32_t c = 0; c < count; ++c) {
    const tailrig_frame_input& in = frames[c];
    const auto chain = [&] { return "chain " + std::to_string(c) + ": "; };
    if (in.version != TAILRIG_FRAME_INPUT_VERSION) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  chain() + "frame version " + std::to_string(in.version) + " is unknown");
    }
    tailrig_status s = check_hips(in.hips_world);
    if (s == TAILRIG_OK) s = check_capsules(in);
    if (s != TAILRIG_OK) return fail(s, chain() + tailrig_last_error());
    if (in.capsule_count > capacity) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  chain() + "capsule_count " + std::to_string(in.capsule_count) +
                      " is above the collider capacity " + std::to_string(capacity));
    }
  }
  return TAILRIG_OK;
}

}  // namespace

extern "C" {

tailrig_status tailrig_batch_create(const tailrig_chain* chain, int32_t chain_count,
                                    tailrig_batch** out_batch) {
  return guarded([&]() -> tailrig_status {
    if (!out_batch) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "out_batch is NULL");
    *out_batch = nullptr;
    if (!chain) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain is NULL");
    if (chain_count < 1 || chain_count > TAILRIG_MAX_BATCH_CHAINS) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain_count " + std::to_string(chain_count) +
                                                      " is outside 1.." +
                                                      std::to_string(TAILRIG_MAX_BATCH_CHAINS));
    }
    *out_batch = new tailrig_batch(*chain, chain_count);
    return TAILRIG_OK;
  });
}

void tailrig_batch_destroy(tailrig_batch* batch) { delete batch; }

int32_t tailrig_batch_size(const tailrig_batch* batch) { return batch ? batch->batch.size() : 0; }

int32_t tailrig_batch_bone_count(const tailrig_batch* batch) {
  return batch ? batch->batch.links() : 0;
}

const char* tailrig_batch_isa(const tailrig_batch* batch) {
  return batch ? solver::batch_isa_name(batch->batch.isa()) : "";
}

tailrig_status tailrig_batch_set_threads(tailrig_batch* batch, int32_t threads) {
  return guarded([&]() -> tailrig_status {
    if (!batch) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch is NULL");
    if (threads < 1 || threads > 256)
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "threads must be 1..256");
    batch->batch.set_threads(threads);
    return TAILRIG_OK;
  });
}

int32_t tailrig_batch_threads(const tailrig_batch* batch) {
  return batch ? batch->batch.threads() : 0;
}

tailrig_status tailrig_batch_set_params(tailrig_batch* batch, const tailrig_params* params) {
  return guarded([&]() -> tailrig_status {
    if (!batch || !params) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch or params is NULL");
    if (const tailrig_status s = check_params(*params); s != TAILRIG_OK) return s;
    batch->batch.set_params(merged_step_params(batch->batch.params(), *params));
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_batch_reset(tailrig_batch* batch, int32_t chain_index,
                                   const double hips_world[16]) {
  return guarded([&]() -> tailrig_status {
    if (!batch) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch is NULL");
    if (chain_index < 0 || chain_index >= batch->batch.size()) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain_index " + std::to_string(chain_index) +
                                                      " is outside 0.." +
                                                      std::to_string(batch->batch.size() - 1));
    }
    if (const tailrig_status s = check_hips(hips_world); s != TAILRIG_OK) return s;
    batch->batch.reset(chain_index, Eigen::Affine3d(matrix_from(hips_world)));
    batch->refresh_output(chain_index);
    return TAILRIG_OK;
  });
}

namespace {

// A step's arrays hold one entry per chain of the batch.
tailrig_status check_chain_count(const tailrig_batch& batch, int32_t chain_count) {
  if (chain_count == batch.batch.size()) return TAILRIG_OK;
  return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "chain_count " + std::to_string(chain_count) +
                                                  " is not the batch's size " + std::to_string(batch.batch.size()));
}

}  // namespace

tailrig_status tailrig_batch_step(tailrig_batch* batch, double dt, const double* hips_world,
                                  int32_t chain_count) {
  return guarded([&]() -> tailrig_status {
    if (!batch) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch is NULL");
    if (const tailrig_status s = check_chain_count(*batch, chain_count); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_dt(dt); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_batch_hips(hips_world, chain_count); s != TAILRIG_OK)
      return s;
    // Affine3d from the matrix as tailrig_chain_step does.
    for (size_t c = 0; c < batch->hips.size(); ++c)
      batch->hips[c] = Eigen::Affine3d(matrix_from(hips_world + 16 * c));
    batch->batch.step(dt, batch->hips, batch->out);
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_batch_set_collider_capacity(tailrig_batch* batch, int32_t per_chain) {
  return guarded([&]() -> tailrig_status {
    if (!batch) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch is NULL");
    if (per_chain < 0 || per_chain > TAILRIG_MAX_CAPSULES) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT,
                  "per_chain must be 0.." + std::to_string(TAILRIG_MAX_CAPSULES));
    }
    const auto count = static_cast<size_t>(batch->batch.size());
    batch->capsules.assign(count * static_cast<size_t>(per_chain), solver::Capsule{});
    batch->batch.set_collider_capacity(per_chain);
    batch->collider_capacity = per_chain;
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_batch_step_frames(tailrig_batch* batch, double dt,
                                         const tailrig_frame_input* frames, int32_t chain_count) {
  return guarded([&]() -> tailrig_status {
    if (!batch) return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch is NULL");
    if (const tailrig_status s = check_chain_count(*batch, chain_count); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_dt(dt); s != TAILRIG_OK) return s;
    if (const tailrig_status s = check_frames(frames, chain_count, batch->collider_capacity);
        s != TAILRIG_OK)
      return s;
    const auto capacity = static_cast<size_t>(batch->collider_capacity);
    for (size_t c = 0; c < batch->inputs.size(); ++c) {
      const tailrig_frame_input& in = frames[c];
      solver::Capsule* slots = batch->capsules.data() + c * capacity;
      const auto n = static_cast<size_t>(in.capsule_count);
      for (size_t k = 0; k < n; ++k) {
        const tailrig_capsule& from = in.capsules[k];
        slots[k] = solver::Capsule{Eigen::Vector3d(from.a[0], from.a[1], from.a[2]),
                                   Eigen::Vector3d(from.b[0], from.b[1], from.b[2]), from.radius_a,
                                   from.radius_b};
      }
      batch->inputs[c].hips_world = Eigen::Affine3d(matrix_from(in.hips_world));
      batch->inputs[c].capsules = std::span<const solver::Capsule>(slots, n);
    }
    batch->batch.step(dt, batch->inputs, batch->out);
    return TAILRIG_OK;
  });
}

tailrig_status tailrig_batch_local_rotations(const tailrig_batch* batch, float* out_xyzw,
                                             int32_t capacity) {
  return guarded([&]() -> tailrig_status {
    if (!batch || !out_xyzw)
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "batch or out_xyzw is NULL");
    const size_t need = batch->out.size();
    if (capacity < 0 || static_cast<size_t>(capacity) < need) {
      return fail(TAILRIG_ERROR_INVALID_ARGUMENT, "capacity " + std::to_string(capacity) +
                                                      " < chains * bones " + std::to_string(need));
    }
    for (size_t q = 0; q < need; ++q) {
      const Eigen::Quaternionf& r = batch->out[q];
      out_xyzw[4 * q + 0] = r.x();
      out_xyzw[4 * q + 1] = r.y();
      out_xyzw[4 * q + 2] = r.z();
      out_xyzw[4 * q + 3] = r.w();
    }
    return TAILRIG_OK;
  });
}

}  // extern "C"
