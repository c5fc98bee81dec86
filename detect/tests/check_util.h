// Invariant checks shared by the end-to-end tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "detect/find_appendages.h"

namespace detect_test {

inline bool same_influences(const std::vector<rig::Influence>& a,
                            const std::vector<rig::Influence>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].joint != b[i].joint || a[i].weight != b[i].weight) return false;
  }
  return true;
}

// Weights ≥ 0, summing to 1, joints valid; vertices outside the rewritten
// regions bit-identical to the input. Returns the number of changed vertices.
inline int check_weights(const rig::Character& in, const detect::FixResult& r) {
  const auto& out = r.character;
  EXPECT_EQ(out.skin.influences.size(), in.skin.influences.size());
  std::vector<char> rewritten(in.mesh.vertex_count(), 0);
  for (const auto& reg : r.analysis.regions) {
    if (reg.classification.action == detect::Action::kUnchanged) continue;
    for (int v : reg.vertices) rewritten[v] = 1;
  }
  int changed = 0;
  for (int v = 0; v < in.mesh.vertex_count(); ++v) {
    const bool same = same_influences(in.skin.influences[v], out.skin.influences[v]);
    if (!same) ++changed;
    if (!rewritten[v]) {
      EXPECT_TRUE(same) << "vertex " << v << " changed outside every region";
      continue;
    }
    double sum = 0.0;
    for (const auto& i : out.skin.influences[v]) {
      EXPECT_GE(i.weight, 0.0);
      EXPECT_GE(i.joint, 0);
      EXPECT_LT(i.joint, out.skeleton.size());
      sum += i.weight;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12) << "vertex " << v;
  }
  return changed;
}

inline int count_action(const detect::Analysis& a, detect::Action action) {
  int n = 0;
  for (const auto& r : a.regions) n += r.classification.action == action;
  return n;
}

inline std::string describe(const rig::Character& c, const detect::Analysis& a) {
  std::string s = "H=" + std::to_string(a.height);
  for (const auto& r : a.regions) {
    s += "\n  region " + std::to_string(r.id) + " " + detect::class_name(r.classification.cls) +
         "/" + detect::action_name(r.classification.action) + " at " +
         (r.attachment >= 0 ? c.skeleton.names[r.attachment] : std::string("?")) +
         " n=" + std::to_string(r.vertices.size()) + " reach/H=" +
         std::to_string(r.reach / a.height) + " ratio=" + std::to_string(r.centroid_ratio) +
         " elong=" + std::to_string(r.shape.elongation) +
         " flat=" + std::to_string(r.shape.flatness) + " L/H=" + std::to_string(r.length / a.height) +
         " K=" + std::to_string(r.bones) + " bd=" + std::to_string(r.bone_distance_before) + "->" +
         std::to_string(r.bone_distance_after);
  }
  return s;
}

// Do no harm: nothing rewritten (no chain, no rigid region, every weight
// bit-identical) and, when `said` is given, some region's reason says it.
inline void expect_left_alone(const rig::Character& in, const detect::FixResult& r, const std::string& said = {}) {
  EXPECT_EQ(r.chains, 0);
  EXPECT_EQ(r.rigid, 0);
  EXPECT_EQ(check_weights(in, r), 0);
  if (said.empty()) return;
  bool found = false;
  for (const auto& reg : r.analysis.regions) found |= reg.reason.find(said) != std::string::npos;
  EXPECT_TRUE(found) << "no region says '" << said << "'";
}

}  // namespace detect_test
