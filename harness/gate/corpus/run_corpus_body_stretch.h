// The corpus retarget checks' body edge stretch (run_corpus_retarget.cpp):
// the body edges of a character measured over a retargeted clip and over
// the character's own clip of the gait, skinning only the edges' ends.
#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "rig/model/model.h"
#include "rig/model/weld.h"
#include "rig/retarget/clip_transfer.h"

namespace harness::corpus {

// The body's welded edges (both ends on the body) and every welded vertex's
// bind position.
struct BodyEdges {
  const std::vector<std::pair<int, int>>& edges;
  const std::vector<rig::Vec3>& bind_w;
};

// The body edges' stretch over the retargeted clip.
struct BodyStretch {
  std::vector<double> ratios;      // every body edge at every sample
  std::vector<int> torn_by_joint;  // per joint: torn samples of edges whose first end is its skin
  long torn = 0;                   // ratios torn (measure::kTornAbove / kTornBelow), counted as sampled
  size_t samples = 0;
};

// SPEC §7: 24 evenly spaced times over the clip (as `harness stretch`,
// Blender's measure_stretch.py and the artist clip below), not keys: a
// short clip's keys would repeat.
BodyStretch sample_body_stretch(const rig::Character& c, const rig::Welded& w, const BodyEdges& b,
                                const rig::TransferResult& t);

// The character's own clip of the source's gait and its body torn fraction.
struct ArtistClip {
  std::string name;    // empty without one
  double torn = std::numeric_limits<double>::quiet_NaN();  // NaN without one
};

// The same body edges over the character's own clip of that gait, when it
// has one (reported): a rig whose skinning tears on its artist's own run
// cannot tear less on a mocap run, whatever the retarget does.
ArtistClip artist_clip_torn(const rig::Character& c, const std::string& gait, const rig::Welded& w,
                            const BodyEdges& b);

}  // namespace harness::corpus
