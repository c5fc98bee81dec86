// The corpus gate (issue 11): every real character in the assets'
// characters/ folder plus every fixture, each checked against its entry in a
// JSON manifest of per-file expectations (scenarios/corpus/manifest.json; the
// format is documented there and in reports/README.md).
//
// Per file, named checks (metric `<file>.<check>`):
//   roles.*      one hips, the expected number of legs (thigh joints), every
//                thigh's chain reaching the floor in bind (arms are not legs),
//                the expected hips joint, the expected number of upper arms
//   fix.*        `fix` on the original: weight-identical with no joint added
//                (no tail / tail bones already there), or for a fixture with a
//                rigger's tail one chain at the pelvis matching the truth
//   strip_fix.*  strip-tail then fix on a rig with tail bones: one chain at
//                the pelvis, IoU with the artist's tail skin, chain length vs
//                the artist's tail bones, no region rigid but on purpose
//                (rigid_regions), tail edge stretch under the file's own walk
//                (spring-driven chain) not worse than the stripped rig
//   retarget.<clip>.*  clips (biped mocap, quadruped walks) through
//                rig::transfer_clip: animated when the source has the
//                target's number of legs and the manifest says animate, else
//                cleanly refused; legs move, stance feet and the lowest body
//                point on the floor, body edges not torn
// The scenario's "issue_checks" group these by manifest tag into the named
// failures of issue 11 (metrics `issue.<name>.failed`).
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "harness/gate/result.h"
#include "pipeline/fix.h"
#include "pipeline/retarget_character.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/io/io.h"
#include "rig/model/weld.h"
#include "harness/gate/runners.h"
#include "harness/gate/scenario.h"

namespace harness::corpus {

// One manifest entry: what a file (or fixture) must show.
struct Entry {
  std::string id;          // metric prefix: file stem, or "fixture_" + name
  std::string file;        // file name inside the characters folder (or empty)
  std::string fixture;     // fixture name (or empty)
  nlohmann::json params = nlohmann::json::object();  // fixture parameters
  std::vector<std::string> tags;  // classes: biped, quadruped, prop, floor_tail...
  int legs = 2;            // thigh joints after rig::assign_roles
  int arms = -1;           // upper-arm joints; -1 = not checked
  int front_legs = -1;     // legs with Role::front (checked once Role has it); -1 = not checked
  std::string hips;        // name of the joint that must carry the hips role
  std::string tail;        // "none", "bones" (artist tail bones) or "rigger" (fixture: tail skinned to the body)
  std::string tail_bones;  // strip-tail regex (empty: detect::kDefaultTailRegex)
  int rigid = 0;           // regions `fix` makes rigid (worn items), on the original and after strip-tail
  std::string walk;        // the file's own walk clip (stretch check); empty = none
  std::string retarget;    // "animate", "refuse" or "skip"
  double floor_y = 0.0;        // retarget: the floor's height, metres (scene y)
  double body_torn_max = 0.01;
  bool golden = false;     // its numbers are pinned by golden/corpus.json (set once inspected)
  // Checks (glob over check ids) known to fail today, with the reason: they
  // are reported as known gaps, not failures, so the gate stays a gate for
  // everything else; a listed check that passes is reported so it is removed.
  std::vector<std::pair<std::string, std::string>> known_gaps;
};

// One named check on one file.
struct Check {
  std::string id;        // "roles.legs", "retarget.walk_bvh.body_torn_fraction", ...
  double actual = 0.0;   // NaN when it could not be measured
  std::string op;        // "==", "<=", ">=", "<", ">", or "in" (expected..expected_hi)
  double expected = 0.0;
  double expected_hi = 0.0;
  std::string detail;    // for name checks: "expected 'Back', actual 'BackLeg.L'"; or why
  bool pass = false;
};

struct FileResult {
  std::string id;
  std::vector<Check> checks;
  nlohmann::json metrics = nlohmann::json::object();  // measured, not checked: "<check>" -> number
  nlohmann::json row = nlohmann::json::object();  // the report table row
  std::vector<std::string> notes;
  std::string error;  // the file could not be examined at all (a failure)
};

// Adds a numeric check: pass = actual op expected (NaN never passes).
void add_check(FileResult& r, const std::string& id, double actual, const std::string& op, double expected,
               const std::string& detail = "");
// Adds a range check: pass = lo <= actual <= hi.
void add_range_check(FileResult& r, const std::string& id, double actual, double lo, double hi,
                     const std::string& detail = "");

// Reads the manifest (path already resolved); one-line message on error.
rig::Status load_manifest(const std::string& path, std::vector<Entry>& out);

// The characters folder ("assets:characters" = $TAILRIG_ASSETS/characters)
// and the character files in it, sorted (glb, gltf, fbx, dae). kNotFound with
// a clear message when the assets folder is missing.
rig::Status list_characters(const Scenario& s, const std::string& spec, std::string& dir,
                            std::vector<std::string>& files);

// A mocap clip every retarget check uses.
struct ClipSource {
  std::string key;   // metric name part: "walk_bvh"
  std::string gait;  // "walk", "run" or empty: the name token of the target's own clip to compare with
  std::string file;  // resolved path
  rig::Character source;
  int clip = 0;      // which of the source's clips (the scenario's "clip" name; default the first)
  int legs = 0;      // the source's legs (rig::leg_count): a target with other legs must refuse it
  // > 0: the body torn bar is also this many times what the target's own clip
  // of the gait tears on the same edges (the scenario's "body_torn_vs_own").
  double torn_vs_own = 0.0;
  // Checks of this clip (the part of the id after "retarget.<key>.")
  // measured and reported as metrics but not gated, each with why (the
  // scenario's "reported": an acrobatic clip has no gait whose stance the
  // walk checks could hold its feet to).
  std::vector<std::pair<std::string, std::string>> reported;
};

// Work on one file, split in independent tasks so the runner can spread them
// over threads; each writes only into its own FileResult.
void check_roles(const Entry& e, const rig::Character& c, FileResult& r);
// `fixed` receives `harness fix` of `c` (false when it failed), for
// check_written_weights to reuse rather than fix the same input again.
bool check_fix_original(const Entry& e, const rig::Character& c, const std::vector<int>* truth_tail,
                        double truth_length, FileResult& r, pipeline::FixOutcome& fixed);
void check_strip_fix(const Entry& e, const rig::Character& c, FileResult& r);
// A character fix leaves alone (tail "none" or "bones"): the file fix writes
// holds every weight of the input file bit for bit, or the summary names each
// changed vertex (fix.written_weights_unexplained == 0; issue 45 class 8).
// `fixed_c`, when not null, is fix of `c` itself (check_fix_original's):
// used for a character read from glTF, whose input to fix is `c` as it is.
void check_written_weights(const Entry& e, const rig::Character& c, const pipeline::FixOutcome* fixed_c,
                           FileResult& r);
// What every retarget check of one character shares, prepared once: the
// options (rate, the rigger tail's vertices), calibration and the target's
// support points, floor and soles (rig::prepare_target_support).
// The character prepared once for every clip, by the product's own
// pipeline::prepare_retarget_target (what `harness retarget` runs).
struct ArtistClipCache;  // run_corpus_retarget.cpp
struct TargetBody;       // run_corpus_retarget.cpp
struct RetargetTarget {
  pipeline::PreparedTarget prepared;
  rig::Welded welded;      // the mesh welded at kWeldFraction x H (edges for the torn check)
  std::vector<char> prop;  // per vertex: on a carried prop (mesh island of prop-bone skin)
  // The character's own clip of a gait, torn, per gait: measured by the
  // first clip check of that gait, shared by the others (it depends on the
  // character and the gait only; issue 47: six walks measured it six times).
  std::shared_ptr<ArtistClipCache> artist_clips;
  // The body, leg skin and body edges every clip is measured on.
  std::shared_ptr<const TargetBody> body;
};
RetargetTarget prepare_corpus_target(const rig::Character& c, double rate);
void check_retarget(const Entry& e, const rig::Character& c, const RetargetTarget& target, const ClipSource& clip,
                    FileResult& r);
// The checks of a clip the pipeline copied as authored onto its own rig
// (rig::TransferDiagnostics::own_rig_joints > 0): the skin plays as the
// artist's clip plays it, and the source file is the target's rig. Fills
// `row` (the retarget table's entry for that clip).
void check_own_rig_copy(const rig::Character& c, const ClipSource& src, const rig::TransferResult& t,
                        const rig::OwnRigOptions& match, const std::string& prefix, FileResult& r,
                        nlohmann::json& row);

// The pipeline's output on a character's own clip (copy off), against the
// artist's clip skinned on the same mesh: mean (checked) and largest vertex
// distance over SPEC §7's 24 samples, x H; the fidelity a rig family's
// other member of other proportions gets.
void check_own_clip_retargeted(const rig::Character& c, const ClipSource& src, const rig::TransferResult& t,
                                const std::string& pre, FileResult& r, nlohmann::json& row);

// Edge stretch (SPEC §7) of `edges` (welded ids of `welded`) of `c` under
// `clip` at `samples` evenly spaced times; the Tail_* chain (when present)
// driven by the spring solver. Shared by strip_fix and the fixture checks.
struct TailStretch {
  double p99 = 0.0, torn = 0.0, max = 0.0;
  long samples = 0;
  bool solver = false;  // a chain was driven by the solver
  std::string error;
};
TailStretch tail_stretch(const rig::Character& c, const rig::Clip& clip, const std::vector<int>& representative,
                         const std::vector<std::pair<int, int>>& edges, int samples);

// The runner (kind "corpus").
rig::Status run(const Scenario& s, const RunOptions& o, ScenarioResult& out);

}  // namespace harness::corpus
