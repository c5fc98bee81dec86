// Appendage classification (SPEC §1.5-1.6, §11 "long").
#pragma once

#include <string>

#include "rig/anatomy/roles.h"

namespace detect {

enum class AppendageClass { kTail, kWorn, kEars, kWide, kHair, kOther };
enum class Action { kChain, kRigid, kUnchanged };

const char* class_name(AppendageClass c);  // "tail", "worn", "ears", "wide", "hair", "other"
const char* action_name(Action a);         // "chain", "rigid", "unchanged"

// Thresholds; all lengths are fractions of the model height H.
struct ClassifyParams {
  // Protrusion: centroid skeleton distance ≥ protrusion x reach (SPEC §1.5).
  double protrusion = 0.4;
  // "Long": elongation sqrt(λ1/λ2) ≥ this (between a cape's ~1 and a tail's
  // ~2.6; SPEC §11 starts at 1.8) ...
  double min_elongation = 1.8;
  // ... and reach ≥ this x H, so a short round tail (a bunny's) stays a blob.
  double min_reach = 0.12;
  // Short tails (issue 45 class 3: a camelid's, 4-7 % of H): a region below
  // min_reach but reaching at least this x H is a tail too when it hangs
  // from the pelvis, protrudes, is elongated and round, and lies on shells
  // of its own (RegionFacts::own_shells): then the whole appendage is known
  // (its shells), while on the body's shell most of a short tail is near
  // skin no far region holds (a chain on its far part alone left half the
  // tail on the legs and tore the seam). A bunny's blob is not elongated.
  double min_short_reach = 0.05;
  // Reading chosen: a tail or a scabbard has a round cross-section; wings,
  // hair and capes are sheets. A long region with flatness sqrt(λ2/λ3) above
  // this is a sheet and is left untouched. Not asked of pelvis-hung tails,
  // which may curl in a plane (their cross-section is: max_section_flatness).
  double max_flatness = 3.0;
  // A tail is a tube: the lower median over its bones of its cross-section's
  // width/thickness (shape.h section_flatness) above this reads as a sheet
  // hung from the belt (a loincloth's or a coat's back panel). Real tails
  // measure 1.05-2.01 (the shared rigs and 60 Blender re-poses of their
  // tails: drooped, raised, swung, bushy, short, hanging); the mouse
  // fixture's, curled in a plane, 1.37; loincloth panels grafted behind the
  // hips of the Quaternius humanoids 5.0-12.5.
  double max_section_flatness = 3.0;
  // Wide trunk regions (cape, skirt) are made rigid on Hips only on request.
  bool rigid_wide = false;
};

// What classification needs to know about one region.
struct RegionFacts {
  rig::BodyPart attachment = rig::BodyPart::kNone;  // role of the attachment joint
  double reach = 0.0;             // largest skeleton distance in the region / H
  double centroid_ratio = 0.0;    // centroid skeleton distance / reach
  double elongation = 1.0;        // sqrt(λ1/λ2)
  double flatness = 1.0;          // sqrt(λ2/λ3)
  bool above_attachment = false;  // region centroid above the ring centroid (Y up)
  bool own_shells = false;        // every vertex on shells apart from the body's (a separate tail mesh)
};

struct Classification {
  AppendageClass cls = AppendageClass::kOther;
  Action action = Action::kUnchanged;
  // For kRigid: true = weight the region to Hips (tail in rigid mode, wide
  // regions on request), false = to the attachment joint (worn items).
  bool rigid_to_hips = false;
  // A short tail (ClassifyParams::min_short_reach): its chain takes the
  // whole shells it lies on (find_appendages.cpp).
  bool short_tail = false;
};

// `chain_tails`: tails become chains (true) or rigid on Hips (false; the
// `rigid` milestone of SPEC §2).
//   pelvis (hips/thigh) + protrudes + long          -> tail, chain
//   pelvis + protrudes + short, slender, round, own shells -> tail, chain (short)
//   spine + protrudes + long + round                -> worn, rigid to its bone
//   head/neck                                       -> ears (above) or hair, unchanged
//   arms (sleeves)                                  -> other, unchanged
//   trunk/legs, not long                            -> wide, unchanged (rigid if rigid_wide)
//   anything else (sheets: wings, hair; body bulge) -> hair or other, unchanged
Classification classify(const RegionFacts& facts, const ClassifyParams& params,
                        bool chain_tails = true);

}  // namespace detect
