// The C++ side of c_api_test.c: the solver driven directly, no C API.
#include "c_api_reference.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "solver/batch.h"
#include "solver/solver.h"

namespace {

// Frame f's colliders as the C++ solver takes them.
std::span<const solver::Capsule> capsules_of(const reference_colliders& c, size_t f,
                                             std::vector<solver::Capsule>& out) {
  const auto per_frame = static_cast<size_t>(c.capsules_per_frame);
  out.resize(per_frame);
  for (size_t k = 0; k < per_frame; ++k) {
    const tailrig_capsule& in = c.capsules[f * per_frame + k];
    out[k].a = Eigen::Vector3d(in.a[0], in.a[1], in.a[2]);
    out[k].b = Eigen::Vector3d(in.b[0], in.b[1], in.b[2]);
    out[k].radius_a = in.radius_a;
    out[k].radius_b = in.radius_b;
  }
  return out;
}

}  // namespace

extern "C" int32_t reference_run(const char* const* names, const int32_t* parents,
                                 const double* inverse_bind, int32_t joint_count, double gravity,
                                 const reference_frame* frames, int32_t frame_count,
                                 double* out_rotations, double* out_heads) {
  return reference_run_colliders(names, parents, inverse_bind, joint_count, gravity, nullptr,
                                 frames, frame_count, out_rotations, out_heads);
}

namespace {

// Every reference run: the chain of the plain arrays stepped with `params`
// (and `colliders` when given) over the frames.
int32_t run_with(const char* const* names, const int32_t* parents, const double* inverse_bind,
                 int32_t joint_count, solver::ChainParams params,
                 const reference_colliders* colliders, const reference_frame* frames,
                 int32_t frame_count, double* out_rotations, double* out_heads);

// The chain the C API builds from the same arrays; false (a message on
// stderr) when build_chain refuses them.
bool build_reference_chain(const char* const* names, const int32_t* parents, const double* inverse_bind,
                           int32_t joint_count, const solver::ChainParams& params, solver::ChainDesc& desc) {
  const auto count = static_cast<size_t>(joint_count);
  std::vector<std::string> name_list(names, names + count);
  std::vector<int> parent_list(parents, parents + count);
  std::vector<Eigen::Matrix4d> ibm(count);
  for (size_t j = 0; j < count; ++j)
    ibm[j] = Eigen::Map<const Eigen::Matrix4d>(inverse_bind + 16 * j);
  solver::ChainRigInput in;
  in.names = name_list;
  in.parents = parent_list;
  in.inverse_bind = ibm;
  const solver::ChainStatus status = solver::build_chain(in, params, desc);
  if (!status.ok()) std::fprintf(stderr, "reference: %s\n", status.message.c_str());
  return status.ok();
}

}  // namespace

extern "C" int32_t reference_run_sway(const char* const* names, const int32_t* parents,
                                      const double* inverse_bind, int32_t joint_count,
                                      double gravity, const tailrig_sway_params* sway,
                                      const reference_frame* frames, int32_t frame_count,
                                      double* out_rotations, double* out_heads) {
  solver::ChainParams params;
  params.gravity = gravity;
  params.idle_sway_deg = sway->amplitude_deg;
  params.idle_sway_period = sway->period;
  params.idle_sway_still_speed = sway->still_speed;
  params.idle_sway_fade = sway->fade;
  return run_with(names, parents, inverse_bind, joint_count, params, nullptr, frames, frame_count,
                  out_rotations, out_heads);
}

extern "C" int32_t reference_run_colliders(const char* const* names, const int32_t* parents,
                                           const double* inverse_bind, int32_t joint_count,
                                           double gravity, const reference_colliders* colliders,
                                           const reference_frame* frames, int32_t frame_count,
                                           double* out_rotations, double* out_heads) {
  solver::ChainParams params;
  params.gravity = gravity;
  if (colliders) {
    params.collider_margin = colliders->margin;
    params.collider_friction = colliders->friction;
  }
  return run_with(names, parents, inverse_bind, joint_count, params, colliders, frames, frame_count,
                  out_rotations, out_heads);
}

namespace {

int32_t run_with(const char* const* names, const int32_t* parents, const double* inverse_bind,
                 int32_t joint_count, solver::ChainParams params,
                 const reference_colliders* colliders, const reference_frame* frames,
                 int32_t frame_count, double* out_rotations, double* out_heads) {
  solver::ChainDesc desc;
  if (!build_reference_chain(names, parents, inverse_bind, joint_count, params, desc)) return -1;
  solver::ChainState state;
  solver::init_state(desc, state);
  const auto n = static_cast<size_t>(desc.size());
  std::vector<Eigen::Quaterniond> rotations(n);
  std::vector<solver::Capsule> capsules;
  for (size_t f = 0; f < static_cast<size_t>(frame_count); ++f) {
    const Eigen::Matrix4d hips = Eigen::Map<const Eigen::Matrix4d>(frames[f].hips_world);
    if (frames[f].reset) {
      solver::reset(desc, params, state, Eigen::Affine3d(hips));
      rotations = state.out_local;
    } else if (colliders) {
      const solver::FrameInput input{Eigen::Affine3d(hips), capsules_of(*colliders, f, capsules)};
      solver::step(desc, params, state, frames[f].dt, input, rotations);
    } else {
      solver::step(desc, params, state, frames[f].dt, hips, rotations);
    }
    for (size_t i = 0; i < n; ++i) {
      double* q = out_rotations + (f * n + i) * 4;
      q[0] = rotations[i].x();
      q[1] = rotations[i].y();
      q[2] = rotations[i].z();
      q[3] = rotations[i].w();
      // points[i] is the head of bone i, metres; the test rig is in metres.
      const Eigen::Vector3d head = state.points[i] / desc.meters_per_unit;
      for (int k = 0; k < 3; ++k) out_heads[(f * n + i) * 3 + static_cast<size_t>(k)] = head[k];
    }
  }
  return static_cast<int32_t>(n);
}

}  // namespace

extern "C" int32_t reference_run_batch(const char* const* names, const int32_t* parents,
                                       const double* inverse_bind, int32_t joint_count,
                                       double gravity, const reference_colliders* colliders,
                                       int32_t chain_count,
                                       const reference_frame* frames, int32_t frame_count,
                                       float* out_rotations) {
  solver::ChainParams params;
  params.gravity = gravity;
  if (colliders) {
    params.collider_margin = colliders->margin;
    params.collider_friction = colliders->friction;
  }
  solver::ChainDesc desc;
  if (!build_reference_chain(names, parents, inverse_bind, joint_count, params, desc)) return -1;
  solver::Batch batch(desc, params, chain_count);
  const auto chains = static_cast<size_t>(chain_count);
  const auto per_frame = colliders ? static_cast<size_t>(colliders->capsules_per_frame) : 0;
  if (colliders) batch.set_collider_capacity(static_cast<int>(per_frame));
  std::vector<solver::Capsule> capsules(chains * per_frame);
  std::vector<solver::FrameInput> inputs(chains);
  const auto n = static_cast<size_t>(desc.size());
  std::vector<Eigen::Affine3d> hips(chains);
  std::vector<Eigen::Quaternionf> rotations(chains * n);
  for (size_t f = 0; f < static_cast<size_t>(frame_count); ++f) {
    const reference_frame* frame = frames + f * chains;
    for (size_t c = 0; c < chains; ++c)
      hips[c] = Eigen::Affine3d(Eigen::Map<const Eigen::Matrix4d>(frame[c].hips_world));
    if (frame[0].reset) {
      for (size_t c = 0; c < chains; ++c) {
        batch.reset(static_cast<int>(c), hips[c]);
        for (size_t i = 0; i < n; ++i)
          rotations[c * n + i] = batch.output_rotation(static_cast<int>(c), static_cast<int>(i));
      }
    } else if (colliders) {
      for (size_t c = 0; c < chains; ++c) {
        std::vector<solver::Capsule> one;
        capsules_of(*colliders, f * chains + c, one);
        std::copy(one.begin(), one.end(), capsules.begin() + static_cast<std::ptrdiff_t>(c * per_frame));
        inputs[c] = solver::FrameInput{hips[c], std::span<const solver::Capsule>(capsules.data() + c * per_frame, per_frame)};
      }
      batch.step(frame[0].dt, inputs, rotations);
    } else {
      batch.step(frame[0].dt, hips, rotations);
    }
    for (size_t q = 0; q < chains * n; ++q) {
      float* out = out_rotations + (f * chains * n + q) * 4;
      out[0] = rotations[q].x();
      out[1] = rotations[q].y();
      out[2] = rotations[q].z();
      out[3] = rotations[q].w();
    }
  }
  return static_cast<int32_t>(n);
}
