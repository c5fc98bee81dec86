// A curled tail's tip resting on the body (issue 45, class 1).
#pragma once

#include <vector>

#include "detect/geometry/components.h"
#include "detect/region.h"
#include "rig/model/model.h"

namespace detect {

// Reading chosen (issue 45): a tail has one base. A tail that curls up over
// the back (a Shiba's, a husky's) can lay its tip on the back skin, so the
// ring of far skin around it comes in two pieces: the base where it leaves
// the body, and a patch where the tip rests. Counted from both, g runs up
// from both ends of the tail and meets at the top of the curl: the chain
// then runs up the middle of the curl instead of along the tail. The base is
// the piece whose centroid lies nearest `root` (the hip sockets' midpoint:
// a tail leaves the body at the pelvis, what rests on the back lies above
// it; by size, a Wolf's tip sunk into its back or a base ring the
// haunches had left won and the chain ran from the tip). A piece whose
// nearest vertex lies farther from the base, along the region, than the
// base's own radius (RMS about its centroid) and a quarter of the region's
// geodesic span is where the tail rests on the body (its tip, or a stretch
// of it lying along the back: a Wolf's tail curled over onto its back
// touches it 0.46 of its span from the base), and is no root. Pieces nearer
// the base (a base ring broken by the mesh) stay. Ring pieces are connected
// through graph edges between ring vertices. `region` and `ring` are welded
// ids, ascending; returns the ring without the resting pieces (ascending;
// the ring as given when it has one piece or none is far).
// `lies_along` (may be null) is set when a resting piece touches the
// region short of its last quarter: the tail lies along the body for a
// stretch, and its skin there, below the cut, is no part of the region (a
// chain would tear the tail where the region ends: unsure, so no rewrite).
std::vector<int> ring_without_resting_tip(const Graph& graph, const std::vector<rig::Vec3>& positions,
                                          const std::vector<int>& region, const std::vector<int>& ring,
                                          const rig::Vec3& root, bool* lies_along = nullptr);

// Reading chosen (issue 45): a tail that curls up over the back leaves the
// body going backwards, turns up and comes forward again over the body, its
// tip lying forward of its base. A spring chain along the whole curl would
// swing the part lying over the back into the back skin; the curl is held
// (an artist's last tail bone carries it whole). So the chain runs along the
// tail while it goes backwards, to its rearmost point, and the curl past it
// rides on the last bone. `points` and `g` (one per point, g from the root)
// are the tail's skin; `back` is the body's backward direction (unit, bind
// space). The skin is cut into slices of g; the rearmost slice (its mean
// position farthest along `back`) ends the chain when the tip's slice lies
// farther forward of it than the base's slice does (the tail came back
// past its own base): returns that slice's mean g, else `length`. Asked
// only of a tail whose tip rests on the body: a curl held in the air (a
// Wolf's tail curled by 33 deg a bone) is the chain's to follow whole.
double curl_turn_length(const std::vector<rig::Vec3>& points, const std::vector<double>& g,
                        const rig::Vec3& back, double length);

// The patch where such a tip rests (Region::rest_patch, set when the ring
// lost it) is the tip's own underside, below the cut only because it lies
// on the body: it joins the tail `r` (taken from unchanged regions or from
// none; the last bone carries it with the curl), so the body's skin begins
// past it. `r.rest_patch` is emptied.
void take_rest_patch(const rig::Character& c, Analysis& a, Region& r);

}  // namespace detect
