// The C++ side of c_api_test.c: the solver driven directly, no C API.
#include "c_api_reference.h"

#include <cstdio>
#include <string>
#include <vector>

#include "solver/solver.h"

extern "C" int32_t reference_run(const char* const* names, const int32_t* parents,
                                 const double* inverse_bind, int32_t joint_count, double gravity,
                                 const reference_frame* frames, int32_t frame_count,
                                 double* out_rotations, double* out_heads) {
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
  solver::ChainParams params;
  params.gravity = gravity;
  solver::ChainDesc desc;
  const solver::ChainStatus status = solver::build_chain(in, params, desc);
  if (!status.ok()) {
    std::fprintf(stderr, "reference: %s\n", status.message.c_str());
    return -1;
  }
  solver::ChainState state;
  solver::init_state(desc, state);
  const auto n = static_cast<size_t>(desc.size());
  std::vector<Eigen::Quaterniond> rotations(n);
  for (size_t f = 0; f < static_cast<size_t>(frame_count); ++f) {
    const Eigen::Matrix4d hips = Eigen::Map<const Eigen::Matrix4d>(frames[f].hips_world);
    if (frames[f].reset) {
      solver::reset(desc, params, state, Eigen::Affine3d(hips));
      rotations = state.out_local;
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
