// Elbow bends the skin can take. A human clip bends the elbows further than
// many characters' skin allows (a low-poly sleeve's inner elbow folds through
// itself past about 100 deg): the retargeted run tears the arms while the
// character's own clips, made for its mesh, do not. At each sample, where
// more than max_torn_fraction of an arm's elbow edges (the upper arm's and
// forearm's skin) would be torn (SPEC §7: stretched past 1.5 or crushed below
// 0.67), the forearm's rotation from its bind local is scaled down to the
// largest share that keeps the skin within it; the cut is smoothed over time
// (a max filter then a moving average; tearing need not fall monotonically
// with the bend, so between needed cuts this is a smooth guess, not a
// guarantee). A bend that tears even at the bind elbow (the shoulder's pose
// tears it) is not cut for itself (a neighbour's smoothed cut may reach it).
// Elbows whose indices do not hold for the character, and a
// max_torn_fraction that is not finite and >= 0, change nothing.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "rig/retarget/clearance/arm_clearance.h"
#include "rig/model/model.h"

namespace rig {

struct ElbowSkin {
  int forearm = -1;  // the joint whose bend is limited (role kForearm)
  // Mesh vertices on the upper arm's or the forearm's skin (ascending; twist
  // helpers' skin is not counted, so a rig that moves the elbow's skin onto
  // them is judged on what is left), the
  // edges between them (as indices into `vertices`, each once) and their
  // bind lengths (> 0).
  std::vector<int> vertices;
  std::vector<std::pair<int, int>> edges;
  std::vector<double> bind_length;
  bool operator==(const ElbowSkin&) const = default;
};

// One entry per arm of `arms` that has a forearm below its upper arm (roles
// missing at the skeleton's end read as none).
std::vector<ElbowSkin> elbow_skins(const Character& character, std::span<const ArmSkin> arms);

struct ElbowBendOptions {
  double max_torn_fraction = 0.05;  // of an elbow's edges
  double max_stretch = 1.5;         // SPEC §7 torn edge thresholds
  double min_stretch = 0.67;
  int bisection_steps = 10;         // share resolution 2^-steps
  double smoothing_radius_s = 0.08; // max filter then moving average (smooth_lift)
};

struct ElbowBendResult {
  Clip clip;
  // Per elbow (elbow_skins order), per sample: the bend removed (rad, 0 where
  // the clip's bend was kept).
  std::vector<std::vector<double>> removed;
};

// Limits each elbow's bend to what its skin takes. The forearm tracks of
// limited elbows are keyed at `times` (ascending); other tracks are copied.
// Poses use the clip on top of the neutral (bind) locals.
ElbowBendResult limit_elbow_bends(const Character& character, std::span<const ElbowSkin> elbows, const Clip& clip,
                                  std::span<const double> times, const ElbowBendOptions& options = {});

}  // namespace rig
