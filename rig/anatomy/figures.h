// Characters in one file. A file can hold several, each on its own skeleton
// (a rider and its horse, a hero and its pet, two exports dropped into one
// scene); the readers merge every skin into one Skeleton, so a tool that
// reads "the" pelvis, legs and height would mix them. Callers that rewrite
// or animate one character refuse such a file (do no harm) instead.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct Figure {
  std::vector<int> roots;  // its root joints (ascending)
  int vertices = 0;        // mesh vertices whose largest weight is on one of its joints
};

// The skinned characters of `character`: the skeleton's trees, joined where
// one mesh primitive's skin reaches into two of them (a body and the IK
// targets hung under another root), that carry skin and have a leg (a joint
// with role kThigh in `roles`, one per joint). Props on their own skeleton
// (no leg) are not characters. Empty without a skin; ordered by first root.
std::vector<Figure> skinned_figures(const Character& character, std::span<const Role> roles);

// "2 characters on separate skeletons (rooted at 'Hips', 'Root')"
// style reason for a file with more than one figure; empty for one or none.
std::string several_figures_reason(const Skeleton& skeleton, std::span<const Figure> figures);

}  // namespace rig
