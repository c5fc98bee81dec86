// Growing a tail chain (SPEC §3, §11 "joint smoothing", "weights at the tip").
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "rig/model/model.h"

namespace detect {

struct ChainParams {
  double length_percentile = 0.99;  // L = this percentile of the geodesic g
  double segment_fraction = 0.1;    // K = clamp(round(L / (this x H)), min, max)
  int min_bones = 3;
  int max_bones = 8;
  int smoothing_passes = 2;         // Ji <- ½Ji + ¼(Ji-1 + Ji+1), interior joints only
  std::string bone_prefix = "Tail_";  // bones Tail_1..Tail_K, then Tail_End
};

// K = clamp(round(L / (segment_fraction · H)), min_bones, max_bones).
// Reading beyond the SPEC (issue 12): `mesh_step` > 0 is the tail mesh's
// typical edge step along the tail (90th percentile of |g_a - g_b| over its
// edges); K is also at most floor(L / mesh_step), so no segment is shorter
// than an edge. A low-poly tail whose edges span two joints compresses at
// every bend (T-Rex: 8 joints on 3.2-unit edges, 2.2-unit segments).
int bone_count(double length, double height, const ChainParams& params = {}, double mesh_step = 0.0);

// The 90th percentile of |g[a] - g[b]| over the edges (a, b) with both ends
// in the region and finite g: the tail mesh's edge step along the tail.
double edge_step_along(const std::vector<std::pair<int, int>>& edges, const std::vector<double>& g);

// Blend weights for the position f ∈ [0,1] inside a segment:
// {w_prev, w_self, w_next} with w_prev = clamp(0.5 − 2f, 0, 0.5),
// w_next = clamp(2f − 1.5, 0, 0.5), w_self = 1 − w_prev − w_next.
std::array<double, 3> blend_weights(double f);

// Joints J0..JK (K+1 points, bind space). J0 = `root` (the ring centroid);
// Ji = centroid of the points whose g lies within L/(2K) of i·L/K (when that
// window is empty: the points with g nearest to i·L/K). Then `passes`
// smoothing passes move J1..J(K-1); J0 and JK stay.
// `root_line`: when the root is a joint away from the tail's ring (a
// split-off tail, g offset by the straight line from the joint to the ring
// centroid), joints whose i·L/K lies on that line are placed on it, at their
// fraction of root_line_length, instead of on the nearest skin: the skin
// nearest the ring is one side of it, and a chain root bent sideways bends
// every rest pose away from the bind shape.
struct RootLine {
  rig::Vec3 end = rig::Vec3::Zero();  // the ring centroid
  double length = 0.0;                // g at the ring (the line's length)
};
std::vector<rig::Vec3> chain_joints(const std::vector<rig::Vec3>& points,
                                    const std::vector<double>& g, const rig::Vec3& root,
                                    double length, int bones, int passes = 2, const RootLine& root_line = {});

// Influences of a vertex at geodesic distance g (s = K·g/L clamped to [0,K)):
// segment k belongs to bone k+1 (joint `first_bone + k`), "prev" of the root
// segment is `parent` (Hips), and the last bone keeps its w_next share
// (Tail_End carries no weight). Zero weights are omitted; weights sum to 1.
std::vector<rig::Influence> chain_influences(double g, double length, int bones, int parent,
                                             int first_bone);

struct ChainResult {
  double length = 0.0;            // L, bind units
  int bones = 0;                  // K
  std::vector<rig::Vec3> joints;  // J0..JK, bind space
  std::vector<int> joint_ids;     // skeleton indices of Tail_1..Tail_K, Tail_End
};

// Returns a new character: `in` plus joints Tail_1..Tail_K, Tail_End appended
// at the end of the skeleton (Tail_1 child of `parent`, each next one child of
// the previous), every one with the parent's bind rotation/scale so each
// neutral local is a pure translation; inverse bind = bind_world⁻¹. Vertices
// in `vertices` (original ids) get chain_influences(g[i], ...) where g[i] is
// the geodesic distance of vertices[i]; every other weight is copied
// unchanged. Clips are copied unchanged (the new joints have no tracks;
// stored_local = neutral_local). When any name of the chain is taken, the
// whole chain gets the first free prefix "Chain2_", "Chain3_", ...
// `in` is taken by value: pass an rvalue to rewrite without a copy.
rig::Character add_chain(rig::Character in, int parent, const std::vector<rig::Vec3>& joints,
                         double length, const std::vector<int>& vertices,
                         const std::vector<double>& g, const ChainParams& params,
                         std::vector<int>* joint_ids = nullptr);

}  // namespace detect
