// Same rig and motion through the C++ solver and the C API: both must agree
// bit for bit. Prints "consumer_solver: ok" and exits 0, else exits 1.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "solver/solver.h"

extern "C" int run_c_api(const char* const* names, const int32_t* parents,
                         const double* inverse_bind, int32_t joint_count, double* out_rotations,
                         int32_t capacity);

int main() {
  const std::vector<std::string> names = {"Hips",   "LeftUpLeg", "RightUpLeg", "Tail_1",
                                          "Tail_2", "Tail_3",    "Tail_End"};
  const std::vector<int> parents = {-1, 0, 0, 0, 3, 4, 5};
  const double positions[7][3] = {{0, 1, 0},      {0.1, 0.95, 0},  {-0.1, 0.95, 0}, {0, 0.95, -0.1},
                                  {0, 0.8, -0.3}, {0, 0.65, -0.5}, {0, 0.5, -0.7}};
  std::vector<Eigen::Matrix4d> inverse_bind;
  for (const auto& p : positions) {
    Eigen::Affine3d bind = Eigen::Affine3d::Identity();
    bind.translate(Eigen::Vector3d(p[0], p[1], p[2]));
    inverse_bind.push_back(bind.inverse().matrix());
  }

  solver::ChainRigInput in;
  in.names = names;
  in.parents = parents;
  in.inverse_bind = inverse_bind;
  const solver::ChainParams params;
  solver::ChainDesc desc;
  if (const auto status = solver::build_chain(in, params, desc); !status.ok()) {
    std::fprintf(stderr, "consumer_solver: %s\n", status.message.c_str());
    return 1;
  }
  solver::ChainState state;
  solver::init_state(desc, state);
  std::vector<Eigen::Quaterniond> rotations(static_cast<size_t>(desc.size()));
  for (int f = 0; f < 120; ++f) {
    Eigen::Matrix4d hips = Eigen::Matrix4d::Identity();
    hips(1, 3) = 1.0;
    hips(0, 3) = 0.3 * std::sin(0.1 * f);
    solver::step(desc, params, state, 1.0 / 60.0, hips, rotations);
  }

  std::vector<const char*> c_names;
  for (const auto& n : names) c_names.push_back(n.c_str());
  std::vector<int32_t> c_parents(parents.begin(), parents.end());
  std::vector<double> c_inverse_bind;
  for (const auto& m : inverse_bind)
    c_inverse_bind.insert(c_inverse_bind.end(), m.data(), m.data() + 16);
  std::vector<double> c_rotations(rotations.size() * 4);
  if (run_c_api(c_names.data(), c_parents.data(), c_inverse_bind.data(),
                static_cast<int32_t>(names.size()), c_rotations.data(),
                static_cast<int32_t>(rotations.size())) != 0) {
    return 1;
  }
  for (size_t i = 0; i < rotations.size(); ++i) {
    const double cpp[4] = {rotations[i].x(), rotations[i].y(), rotations[i].z(), rotations[i].w()};
    if (std::memcmp(cpp, &c_rotations[i * 4], sizeof cpp) != 0) {
      std::fprintf(stderr, "consumer_solver: bone %zu differs between C++ and C API\n", i);
      return 1;
    }
  }
  std::printf("consumer_solver: ok (%d tail bones, C++ and C API identical)\n", desc.size());
  return 0;
}
