// What detection works on and finds: its parameters (every length a
// fraction of the model height H), the regions of far skin with their
// classification and proposed rewrite, and the whole analysis of a
// character. Shared by the building blocks and by find_appendages (SPEC §1).
#pragma once

#include <string>
#include <vector>

#include "detect/body.h"
#include "detect/rewrite/grow_chain.h"
#include "detect/classify.h"
#include "detect/geometry/components.h"
#include "detect/geometry/shape.h"
#include "rig/model/status.h"
#include "rig/model/model.h"
#include "rig/model/weld.h"

namespace detect {

// Every length is a fraction of the model height H (no absolute units).
struct Params {
  double far_fraction = 0.07;       // far vertex: skeleton distance > this x H (SPEC §1.2)
  double weld_fraction = 1e-4;      // weld tolerance = this x H (SPEC §1.3)
  double end_extension = 0.5;       // end-joint extension, x incoming bone (SPEC §11)
  double attachment_preference = 1.5;  // trunk/thigh joint within this x shortest wins (§1.4)
  double merge_overlap = 0.5;       // merge when box intersection > this x smaller box (§1.7)
  int min_region_vertices = 4;      // smaller regions (welded) are reported as "other"
  double root_band = 0.01;          // separate-shell tail root: within this x H of its deepest vertex
  // Region splitting (find_appendages.cpp, "fused tails"): a far region that
  // is no appendage is searched for a tail fused with thick trunk skin by
  // raising its far threshold in steps of split_step x H; the split-off core
  // must be round and at least split_min_length x H long from its cut, and
  // the cut is made split_margin x H above the lowest level it separates at.
  double split_step = 0.0025;
  double split_min_length = 0.2;    // two chain segments (ChainParams::segment_fraction)
  double split_margin = 0.02;       // cut this x H above the saddle, past the blend fillet (issue 11:
                                    // 0.01 left rump skin of the fillet on the tail; IoU with the
                                    // artist tails of Wolf/Trex/Fox 0.89/0.90/0.81 -> 0.90/0.94/0.90)
  // A split-off core ends where it stops being a tube (tube.h): the first
  // slice from the tip, after one closed, whose normals sum to at least this
  // fraction of their lengths and stay so for a slice on. Along a tube they
  // cancel (0.01-0.3 on the Rat's, Wolf's and fixtures' tails); half a tube
  // sums to 2/pi, about what a core cut obliquely shows at its end (0.5-0.74
  // at the Wolf's and fox_fused's cuts: 0.5 cut them short, Wolf IoU 0.92 ->
  // 0.85); a belly strip faces one way (0.93 where the Rat's core leaves its
  // tail, 0.97-1 along its belly).
  double tube_max_closure = 0.85;
  // Root skin of a split-off tail (issue 11, tail_root.h): the cut leaves the
  // tail's base (between the hind legs, on the rump) on the body's bones
  // beside chain-driven skin. Connected skin no farther than root_grow_radius
  // x the cut ring's radius from the chain joins the tail when it lies nearer
  // the chain than root_grow_margin x its nearest body bone where the chain
  // runs from its root joint to the ring, and than root_grow_margin_past x
  // past the ring, where the cut already parted tail and body (measured
  // IoU with the artist's tail: Wolf 0.898 -> 0.918, fox_fused 0.83 -> 0.93;
  // 0.5 past the ring took Fox.glb's rump fillet: 0.90 -> 0.86).
  double root_grow_margin = 0.75;
  double root_grow_margin_past = 0.4;
  double root_grow_radius = 1.25;
  // Skin a shin, foot or toe drives there (the rigger's fallback spilling
  // onto the rump, tail_root.h) joins on the root line when nearer the chain
  // than root_grow_leg_margin x its body bone, within root_grow_leg_radius x
  // the ring radius (the Rat's rump back face: 1.2-2.4; IoU 0.84 -> 0.97).
  double root_grow_leg_margin = 1.0;
  // A split-off core's skin farther from its chain than this x its nearest
  // leg bone is the haunch the cut let in (haunch_skin.h; issue 45): the
  // mirror of root_grow_margin (1 / 0.75), so skin the root growth would
  // take is never dropped. ShibaInu's haunches measure 1.9-2.1 (IoU with
  // the artist's tail 0.78 -> 0.86); at 1.0 the T-Rex lost 7 base vertices
  // beside its thighs and its seam tore (p99 1.055 -> 1.107).
  double haunch_margin = 4.0 / 3.0;
  // Where a split-off tail's root meets the haunches (issue 45 class 10,
  // haunch_skin.h seam_chain_share), up to a segment past the cut ring: skin
  // nearer the chain than seam_tail_alone x its leg bone's distance is the
  // chain's alone, from seam_leg_alone x it keeps the weights it was rigged
  // with, between the two it is shared. The artists' rigs give skin nearer a
  // leg bone than the tail (ratio >= 1) 0.09-0.14 tail share (Wolf, Shiba,
  // Apatosaurus) and 0.3-0.7 at 0.75-1 (the Rat's rump, the root skin a
  // tail's chain must move: sharing it there tore the Rat's tail seam, p99
  // 1.16 -> 1.51); a thick tail's base beside the thigh (the T-Rex's) holds
  // 0.45 at 1-1.25, so the share falls over 1-1.2, not to 1.1 (T-Rex tail
  // p99 1.069 -> 1.102 at 1.1, 1.083 at 1.2). ShibaInu (Blender, Walk):
  // body p99 1.58 -> 1.48, whole-body torn 2.51 -> 2.34 %, IoU 0.838 -> 0.896.
  double seam_tail_alone = 1.0;
  double seam_leg_alone = 1.2;
  double root_grow_leg_radius = 2.5;
  // Root skin a lower leg drives (the spill above) lying farther from the
  // chain than this x the ring radius is rump, not tail: thicker than the
  // tail at its cut. The chain takes leg_spill_reach x ring radius /
  // distance of it, the rest stays on the legs it was rigged to (the leg
  // then carries it clear when it folds under the rump; issue 46). The
  // Rat's artist gives that rump 0.77 tail at 1-1.25 ring radii and 0.53 at
  // 1.75-2; given whole to Tail_1/Tail_2 it sank into the folded hind leg.
  // Blender (tail_in_legs_bar, samples over 1 % of H / deepest; Walk tail
  // p99 and torn, real_rig_bar), the artist's own: Run 0 % / -0.7 %, Jump
  // 22.9 % / 4.9 %, Walk 1.40 / 0.6 %. Without the rule: Run 12.5 % / 3.9 %,
  // Jump 29.2 % / 9.7 %, Walk 1.16 / 1.0 %. At 1.0: Run 0 % / -0.5 %, Jump
  // 22.9 % / 5.7 %, Walk 1.36 / 0.7 %. At 0.9: Run 0 % / -1.2 %, Jump
  // 22.9 % / 4.8 %, Walk 1.41 / 0.8 %: no deeper than the artist's, the
  // walk seam as the artist's. At 0.8 the walk passes the artist's (1.47 /
  // 1.1 %) for a shallower jump (18.8 % / 3.7 %).
  double leg_spill_reach = 0.9;
  // tail_root.h hold_root_on_parent: the chain parent's share of the root skin
  // falls from 1/2 at the cut ring to 0 over this x a segment past it; K keeps
  // edges within about a segment, so no edge spans more than half the fall
  // (Wolf root seam: Back/Tail_2 edges up to 1.85 -> 1.51; Blender tail
  // p99 1.45 -> 1.33, torn 1.0 % -> 0.3 %).
  double root_hold_band = 2.0;
  ClassifyParams classify;          // protrusion, elongation, reach, flatness, rigid_wide
  ChainParams chain;                // L percentile, K rule, smoothing, bone names
  // Which classes fix() may rewrite (the Blender add-on's "Tail" and "Rigid
  // worn items" checkboxes); a class left out is reported, never written.
  bool rewrite_tails = true;
  bool rewrite_worn = true;
};

// One detected region of far vertices (after shell merging).
struct Region {
  int id = 0;
  std::vector<int> welded;    // welded vertex ids, ascending
  std::vector<int> vertices;  // original vertex ids, ascending
  std::vector<int> ring;      // welded ids of the attachment ring
  rig::Vec3 ring_centroid = rig::Vec3::Zero();  // J0, bind space
  rig::Vec3 hang_point = rig::Vec3::Zero();     // point the attachment joint is chosen for
  bool on_body = true;        // false when the region lies on separate shells
  double cut_level = 0.0;     // > 0: split off a fused region at skeleton distance > this x H
  double tube_end = 0.0;      // > 0: the core was cut where it stops being a tube, this far from its tip
  double tube_end_closure = 0.0;  // the closure of the slice there
  bool tip_rests = false;     // a split-off core's tip rests on the body: its ring is its base alone (curled_tail.h)
  std::vector<int> rest_patch;  // welded ids, ascending: the ring where that tip rests
  bool lies_along = false;    // ... or the tail lies along the body short of its tip: no rewrite
  int attachment = -1;        // joint it hangs from (skeleton index)
  rig::Role attachment_role;
  double reach = 0.0;           // max skeleton distance in the region, bind units
  double centroid_distance = 0.0;  // skeleton distance of the region centroid
  double centroid_ratio = 0.0;  // centroid_distance / reach
  Shape shape;                  // of the welded positions
  SectionFlatness section;      // tails: cross-section about the chain (shape.h)
  bool sheet = false;           // tail-shaped but flat in section: no tail, nothing rewritten
  Box box;
  Classification classification;
  int rigid_joint = -1;         // for Action::kRigid
  int chain_parent = -1;        // a chain hangs from the pelvis (BodyReading::pelvis) ...
  int root_joint = -1;          // ... and starts at this pelvis-zone joint, nearest its root
  Ownership owner;              // who drives the region's skin (dominant joints)
  std::string reason;           // why this class and action, with the measured numbers
  // Filled for chains (and for tails in report/rigid mode: what a chain would be):
  double length = 0.0;          // L, bind units
  double edge_step = 0.0;       // the tail mesh's edge step along g (p90), bind units: K <= L / edge_step
  int bones = 0;                // K
  std::vector<rig::Vec3> joints;  // J0..JK
  // g counts from the attachment joint for a split-off tail: this is the
  // straight distance from that joint to the cut ring's centroid (bind units).
  double root_offset = 0.0;
  std::vector<double> geodesic;   // per `vertices` entry: g, bind units
  // Per `vertices` entry, the chain's share of its weight where the root
  // meets the haunches (haunch_skin.h seam_chain_share; the rest stays as
  // rigged); empty when every share is 1.
  std::vector<double> seam_share;
  // Root skin a lower leg drives (tail_root.h add_tail_root_skin): welded
  // ids, ascending, and the cut ring's median distance to the chain.
  std::vector<int> leg_spill;
  double ring_radius = 0.0;
  std::vector<int> chain_joint_ids;  // Tail_1..Tail_K, Tail_End in the fixed character
  double bone_distance_before = 0.0;  // bind units
  double bone_distance_after = 0.0;   // bind units
};

struct Analysis {
  double height = 0.0;               // H, bind units
  rig::Welded welded;
  Graph graph;                       // welded graph (edge lengths from welded_positions)
  std::vector<rig::Vec3> welded_positions;
  std::vector<double> skeleton_distance;  // per welded vertex
  std::vector<char> far;                  // per welded vertex
  std::vector<int> region_of;             // per welded vertex: region index or -1
  std::vector<int> shell_of;              // per welded vertex: welded connected component
  int shell_count = 0;
  int body_shell = -1;                    // the largest shell
  std::vector<Region> regions;
  BodyReading body;                       // pelvis, body bones, existing tail bones
  int hips = -1;                          // the pelvis (body.pelvis; else the hips role)
  std::vector<rig::Role> roles;           // per joint: the roles used (a weightless Hips'
                                          // stand-in reads as hips, see find_appendages.cpp)
  // Why nothing may be rewritten at all, empty when the file can be fixed:
  // a file holding several characters (rig::skinned_figures) is not
  // analysed (no regions), since its pelvis, legs and H would mix them.
  std::string refused;
};

}  // namespace detect
