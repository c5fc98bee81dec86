// Corpus: a character's own clip onto its own rig is copied as authored
// (rig::TransferOptions::copy_own_rig_clips). Checked against the artist's
// clip itself, joint for joint, at every output key: the retarget checks
// (feet pinned, stance on our floor, thighs swinging) measure how well a
// retarget approximates such a clip, and the artists' own walks do not all
// pass them (the Wolf's Walk dips a hind paw 2.5 cm under the floor, the
// Rat's folded haunch swings its thighs 7.6 deg).
#include <algorithm>
#include <cmath>

#include "rig/own_rig.h"
#include "rig/pose.h"
#include "run_corpus.h"

namespace harness::corpus {

namespace {
constexpr double kCopyToleranceM = 1e-6;  // float rounding of one sampled pose
}  // namespace

void check_own_rig_copy(const rig::Character& c, const ClipSource& src, const rig::TransferResult& t,
                        const std::string& pre, FileResult& r, nlohmann::json& row) {
  const rig::Skeleton& sk = c.skeleton;
  const rig::Skeleton& ssk = src.source.skeleton;
  const rig::Clip& clip = src.source.clips[src.clip];
  const std::vector<int> source_of = rig::own_rig_joints(ssk, sk);
  // The largest distance between a target joint and its source joint, in
  // metres, over the output keys; NaN when the rigs no longer match.
  double error = source_of.empty() ? std::nan("") : 0.0;
  for (size_t k = 0; !source_of.empty() && k < t.times.size(); ++k) {
    const std::vector<rig::Mat4> out = rig::pose_at(sk, t.clip, t.times[k]);
    const std::vector<rig::Mat4> art = rig::pose_at(ssk, clip, t.times[k]);
    for (int j = 0; j < sk.size(); ++j)
      if (source_of[j] >= 0)
        error = std::max(error, (out[j].block<3, 1>(0, 3) - art[source_of[j]].block<3, 1>(0, 3)).norm() *
                                    c.meters_per_unit);
  }
  add_check(r, pre + "own_rig_joint_error_max_m", error, "<=", kCopyToleranceM,
            "the character's own clip: " + std::to_string(t.diagnostics.own_rig_joints) +
                " joints copied as authored; largest joint distance from the artist's clip over " +
                std::to_string(t.times.size()) + " keys");
  r.metrics[pre + "own_rig_joints"] = t.diagnostics.own_rig_joints;
  row["own_rig_joints"] = t.diagnostics.own_rig_joints;
  row["own_rig_joint_error_m"] = std::isfinite(error) ? nlohmann::json(error) : nlohmann::json(nullptr);
  row["limbs_note"] = t.limbs_note;
}

}  // namespace harness::corpus
