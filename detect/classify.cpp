#include "detect/classify.h"

namespace detect {

const char* class_name(AppendageClass c) {
  switch (c) {
    case AppendageClass::kTail: return "tail";
    case AppendageClass::kWorn: return "worn";
    case AppendageClass::kEars: return "ears";
    case AppendageClass::kWide: return "wide";
    case AppendageClass::kHair: return "hair";
    case AppendageClass::kOther: return "other";
  }
  return "other";
}

const char* action_name(Action a) {
  switch (a) {
    case Action::kChain: return "chain";
    case Action::kRigid: return "rigid";
    case Action::kUnchanged: return "unchanged";
  }
  return "unchanged";
}

Classification classify(const RegionFacts& f, const ClassifyParams& p, bool chain_tails) {
  using rig::BodyPart;
  Classification c;
  const BodyPart part = f.attachment;
  const bool protrudes = f.centroid_ratio >= p.protrusion;
  const bool elongated = f.elongation >= p.min_elongation;
  const bool long_region = elongated && f.reach >= p.min_reach;
  const bool round = f.flatness <= p.max_flatness;
  const bool pelvis = part == BodyPart::kHips || part == BodyPart::kThigh;
  const bool spine = part == BodyPart::kSpine;
  const bool head = part == BodyPart::kHead || part == BodyPart::kNeck;
  const bool arm = part == BodyPart::kShoulder || part == BodyPart::kUpperArm ||
                   part == BodyPart::kForearm || part == BodyPart::kHand;
  const bool trunk_or_legs = pelvis || spine || part == BodyPart::kShin ||
                             part == BodyPart::kFoot || part == BodyPart::kToe;

  if (head) {
    c.cls = f.above_attachment ? AppendageClass::kEars : AppendageClass::kHair;
    return c;
  }
  if (arm) return c;  // sleeves: other, unchanged
  if (protrudes && long_region) {
    // A tail may curl in a plane (a mouse's), so flatness is not asked of it.
    if (pelvis) {
      c.cls = AppendageClass::kTail;
      c.action = chain_tails ? Action::kChain : Action::kRigid;
      c.rigid_to_hips = true;
      return c;
    }
    if (spine && round) {
      c.cls = AppendageClass::kWorn;
      c.action = Action::kRigid;
      c.rigid_to_hips = false;
      return c;
    }
  }
  // Issue 45 class 3: a short slender tail on shells of its own.
  const bool short_reach = f.reach >= p.min_short_reach && f.reach < p.min_reach;
  if (pelvis && protrudes && elongated && round && short_reach && f.own_shells) {
    c.cls = AppendageClass::kTail;
    c.action = chain_tails ? Action::kChain : Action::kRigid;
    c.rigid_to_hips = true;
    c.short_tail = true;
    return c;
  }
  if (trunk_or_legs && !elongated) {
    c.cls = AppendageClass::kWide;
    if (p.rigid_wide) {
      c.action = Action::kRigid;
      c.rigid_to_hips = true;
    }
    return c;
  }
  if (long_region && !round) c.cls = AppendageClass::kHair;  // sheets: hair, wings
  return c;
}

}  // namespace detect
