// What a fixture goes through to look like a character handed over by an
// exporter (issue 13): written to GLB and read back through rig::load, and
// seam vertices that are no longer bit-identical.
#pragma once

#include <string>

#include "rig/io/io.h"

namespace harness {

// Moves every vertex that shares its exact position with an earlier vertex
// (the split copies at UV seams) by `drift` x H (model height) in a
// deterministic pseudo-random direction, as real exporters leave 1e-6..1e-4 H
// between seam copies: welding by exact position no longer joins them.
// Returns the number of vertices moved.
int add_seam_drift(rig::Character& c, double drift);

// Sets the stored (loaded) pose of every joint to `clip` at `time` over the
// neutral pose, as a file saved mid-animation stores it (SPEC §4: the loaded
// pose is not necessarily the bind pose), then turns every root joint by
// `root_turn_deg` about the vertical (a file saved with the character turned:
// a pitch alone is invisible to the chain set-up, whose carry turns about the
// same lateral axis). Bind data and mesh are unchanged. False when the
// character has no such clip.
bool store_clip_pose(rig::Character& c, const std::string& clip, double time, double root_turn_deg = 0.0);

// Writes `c` to a private temporary GLB with rig::save_glb, reads it back with
// rig::load into `c` and removes the file. `tag` makes the file name unique
// among concurrent scenarios.
rig::Status round_trip_glb(const std::string& tag, rig::Character& c);

}  // namespace harness
