// Where a tail stops being a tube (issue 11, find_appendages.cpp).
#pragma once

#include <array>
#include <vector>

#include "detect/geometry/components.h"
#include "rig/model/model.h"

namespace detect {

// Area-weighted vertex normals of a triangle mesh (not normalised: each
// vertex sums the cross products, twice the areas, of its triangles).
// Triangles with an index outside `positions` are skipped.
std::vector<rig::Vec3> area_normals(const std::vector<rig::Vec3>& positions,
                                    const std::vector<std::array<int, 3>>& triangles);

struct TubeCut {
  std::vector<int> kept;        // ascending: the core's vertices before the cut
  double cut_from_tip = 0.0;    // geodesic distance from the tip where it stops being a tube
  double open_closure = 0.0;    // that slice's closure (|sum n| / sum |n|)
  double slice = 0.0;          // the slice width used
  bool cut = false;
};

// Reading chosen (issue 11): a split-off tail core is skin far from the
// skeleton holding the tail's tip, but a fat belly is as far from the
// bones as a thin tail's base, so on a rat the core runs from the floor tail
// on along the belly's underside and the chain's root dives under the rump.
// A tail is a tube: a slice of it across its length (skin between two
// geodesic distances from the tip) has normals pointing all round, so their
// sum nearly cancels (closure |sum n| / sum |n| near 0; a flattened tail's
// top and bottom cancel too), while a strip of belly skin faces one way
// (closure near 1). `core` must be ascending (kept stays so); an id outside
// the graph keeps the whole core. Slices kRingsPerSlice (2) edge steps along the
// geodesic from the tip (`seed`) wide, and at least `min_slice`, slide a
// quarter slice at a time over `core` (ascending welded ids); once a slice
// has closed (below `max_closure`), the first slice that is open (at least
// `max_closure`) and stays open for a slice on ends the tail: the core is cut
// at its middle. A tube cut obliquely at the core's end opens only there,
// which is no strip. At most `max_bins` quarter slices (wider ones past
// that). No cut when no slice closes or none opens for long enough.
TubeCut trim_to_tube(const Graph& graph, const std::vector<rig::Vec3>& positions,
                     const std::vector<rig::Vec3>& normals, const std::vector<int>& core, int seed,
                     double min_slice, double max_closure, int max_bins = 4096);

}  // namespace detect
