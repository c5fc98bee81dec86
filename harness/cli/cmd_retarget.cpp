// `harness retarget CHARACTER CLIPFILE --out OUT.glb [--clip NAME]`: retarget
// a clip from any supported source onto a character (file or fixture name)
// through rig::transfer_clip (retarget, body grounding, foot pinning, the
// whole body above the floor) and write the character with the new clip
// added as GLB. A clip whose body still goes more than
// pipeline::kBodyUnderFloorMaxRelH x H under the floor is refused: exit 1,
// one line with the key, the depth and the bone, nothing written.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/bake_clips.h"
#include "pipeline/retarget_character.h"
#include "harness/cli/command.h"
#include "harness/cli/notes.h"
#include "pipeline/keep_off_grounding.h"
#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/io/io.h"
#include "rig/io/safe_write.h"

namespace harness {

namespace {

struct Options {
  std::string character, clip_file, out, clip, name;
  double rate = 30.0;
  bool count_tail = false;
  bool no_ground = false;
  bool no_limbs = false;
  bool contacts_from_target = false;
  bool no_joints_by_name = false;
  std::string legs = "auto";  // rig::TransferOptions::legs_by_ankle
  std::string own_rig = "copy";  // rig::TransferOptions::copy_own_rig_clips
  bool bake = false, no_bake = false;  // issue 12: bake by default when the target has a Tail_* chain
  double bake_fps = 30.0;
  bool no_colliders = false;  // issue 46: bake without the leg colliders (to compare)
};

// A file when one exists at that path, else a fixture of that name.
rig::Status load_character(const std::string& what, rig::Character& out) {
  std::error_code ec;
  if (!std::filesystem::exists(what, ec) && fixtures::has_fixture(what)) {
    std::string error;
    if (!fixtures::make_fixture(what, fixtures::default_params(what), out, &error))
      return rig::Status::Error(rig::Status::Code::kBadData, what + ": " + error);
    return rig::Status::Ok();
  }
  rig::Status s = rig::load(what, out);
  if (s.code == rig::Status::Code::kNotFound) s.message += " (and no fixture of that name; see harness fixture --list)";
  return s;
}

int run(const Options& o) {
  auto fail = [](const std::string& msg) {
    std::fprintf(stderr, "harness retarget: %s\n", msg.c_str());
    return int(kExitBadInput);
  };
  if (!(o.rate > 0 && o.rate <= 1000)) return fail("--rate must be in (0, 1000] Hz");
  if (rig::same_file(o.out, o.clip_file)) return fail(o.out + ": is the clip file; refusing to overwrite it");
  rig::Character target;
  if (rig::Status s = load_character(o.character, target); !s.ok()) return fail(s.message);
  if (!target.has_skin()) return fail(o.character + ": no skinned mesh: not a character");
  rig::Character source;
  const rig::Status source_loaded = rig::load(o.clip_file, source);
  if (!source_loaded.ok()) return fail(source_loaded.message);
  if (source.clips.empty()) return fail(o.clip_file + ": no animation clips");
  const rig::Clip* clip = &source.clips.front();
  if (!o.clip.empty()) {
    clip = nullptr;
    std::string names;
    for (const rig::Clip& c : source.clips) {
      if (c.name == o.clip && !clip) clip = &c;
      names += (names.empty() ? "'" : ", '") + c.name + "'";
    }
    if (!clip) return fail(o.clip_file + ": no clip '" + o.clip + "' (available: " + names + ")");
  }

  if (o.bake && o.no_bake) return fail("--bake and --no-bake exclude each other");
  pipeline::RetargetOptions ro;
  ro.rate = o.rate;
  ro.count_tail = o.count_tail;
  ro.ground_body = !o.no_ground;
  ro.reconcile_limbs = !o.no_limbs;
  ro.contacts_from_source = !o.contacts_from_target;
  ro.joints_by_name = !o.no_joints_by_name;
  using Drive = rig::TransferOptions::LegDrive;
  ro.legs = o.legs == "rotation" ? Drive::kRotation : o.legs == "ankle" ? Drive::kAnkle : Drive::kAutoQuadrupeds;
  ro.copy_own_rig = o.own_rig == "copy";
  ro.bake = !o.no_bake;
  ro.bake_fps = o.bake_fps;
  ro.bake_colliders = !o.no_colliders;
  pipeline::RetargetOutcome outcome;
  const rig::Status retargeted = pipeline::retarget_character(target, source, *clip, ro, o.name, outcome);
  const int rigger_tail = outcome.rigger_tail;
  const size_t cloth = outcome.cloth;
  if (rigger_tail < 0)  // grounding still works; it just cannot tell a boneless tail from the body
    std::fprintf(stderr, "harness retarget: warning: %s: tail detection failed; grounding counts all skin\n",
                 o.character.c_str());
  const rig::TransferResult& r = outcome.transfer;
  if (!r.status.ok()) return fail(o.clip_file + " -> " + o.character + ": " + r.status.message);
  if (!outcome.unplaced.empty()) {  // a regression of the product, not bad input: nothing written
    std::fprintf(stderr, "harness retarget: %s -> %s: %s; nothing written\n", o.clip_file.c_str(),
                 o.character.c_str(), outcome.unplaced.c_str());
    return int(kExitRegression);
  }
  if (!retargeted.ok()) return fail(retargeted.message);
  const std::string& name = outcome.clip_name;
  std::vector<std::string> bake_lines;
  if (outcome.baked) bake_lines = pipeline::bake_report_lines(outcome.bake);
  else if (o.bake) bake_lines.push_back("bake: " + o.character + " has no Tail_* chain: nothing baked");
  if (rig::Status s = rig::save_glb(target, o.out); !s.ok()) return fail("cannot write " + o.out + ": " + s.message);

  const double mpu = target.meters_per_unit;
  double max_lift = 0;
  for (double l : r.lift) max_lift = std::max(max_lift, l);
  std::string feet;
  // A quadruped's feet are told apart as front and hind.
  const bool front_legs = std::any_of(r.feet.begin(), r.feet.end(), [](const rig::FootReport& f) { return f.leg.front; });
  for (const rig::FootReport& f : r.feet) {
    int stance = 0;
    for (bool c : f.contact) stance += c ? 1 : 0;
    double worst = 0;
    for (size_t k = 0; k < f.contact.size(); ++k)
      if (f.contact[k]) worst = std::max(worst, std::abs(f.clearance_after[k]));
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s%s%s foot %zu phases, %d stance keys, sole error %.3f m%s",
                  feet.empty() ? "" : "; ", front_legs ? (f.leg.front ? "front " : "hind ") : "",
                  f.leg.side == rig::Side::kLeft ? "left" : "right", f.phases.size(),
                  stance, worst * mpu, f.unreached ? " (some out of reach)" : "");
    feet += buf;
  }
  if (!r.limbs_note.empty()) feet = "feet not pinned: " + r.limbs_note;
  if (o.no_limbs) feet = "feet not pinned (--no-limbs)";
  const bool copied = r.diagnostics.own_rig_joints > 0;
  if (copied) {
    feet = "the clip's own rig: " + std::to_string(r.diagnostics.own_rig_joints) +
           " joints copied as authored, not retargeted, grounded or pinned (--own-rig retarget to retarget it)";
    // Options of the pipeline the copy does not run: said, not silently dropped.
    std::string unused;
    for (const auto& [given, flag] : {std::pair{o.count_tail, "--count-tail"}, {o.no_ground, "--no-ground"},
                                      {o.no_limbs, "--no-limbs"}, {o.contacts_from_target, "--contacts-from-target"},
                                      {o.no_joints_by_name, "--no-joints-by-name"},
                                      {o.legs != "auto", "--legs"}, {o.rate != 30.0, "--rate"}})
      if (given) unused += std::string(unused.empty() ? "" : ", ") + flag;
    if (!unused.empty())
      std::fprintf(stderr, "harness retarget: warning: %s: not used for a clip copied as authored\n", unused.c_str());
  }
  if (r.diagnostics.legs_by_ankle > 0) feet += "; " + std::to_string(r.diagnostics.legs_by_ankle) + " legs follow the source's ankles";
  if (r.diagnostics.joints_by_name > 0)
    feet += "; " + std::to_string(r.diagnostics.joints_by_name) + " joints the roles leave out follow the source's of their name";
  // "; WHAT at N keys, up to X deg" for each step that turned joints.
  auto turned = [&feet](int keys, double max_radians, const char* format) {
    if (keys <= 0) return;
    char buf[160];
    std::snprintf(buf, sizeof buf, format, keys, max_radians * 180.0 / M_PI);
    feet += buf;
  };
  turned(r.diagnostics.elbow_cut_keys, r.diagnostics.max_elbow_cut,
         "; elbows bent less at %d keys (skin would tear), by up to %.0f deg");
  turned(r.diagnostics.arm_turn_keys, r.diagnostics.max_arm_turn, "; arms turned out of the floor at %d keys, up to %.0f deg");
  turned(r.diagnostics.tail_turn_keys, r.diagnostics.max_tail_turn,
         "; tail turned up out of the floor at %d keys, up to %.0f deg");
  if (r.diagnostics.body_floor_lift_keys > 0) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "; body lifted out of the floor at %d keys, up to %.3f m (skin grounding missed "
                  "%.1f %% of H under it)", r.diagnostics.body_floor_lift_keys, r.diagnostics.max_body_floor_lift * mpu,
                  r.height > 0 ? 100.0 * r.diagnostics.max_body_floor_depth_before / r.height : 0.0);
    feet += buf;
  }
  feet += "; lowest body point: " + pipeline::body_under_floor_where(r, target.skeleton, mpu) +
          (copied ? " (as the artist keyed it)" : "");
  std::string tail_note;
  if (rigger_tail > 0) tail_note = " (tail without bones: " + std::to_string(rigger_tail) + " vertices found by detect" +
                                   (o.count_tail ? ", counted)" : ", ignored)");
  else if (o.count_tail) tail_note = " (tail counted)";
  if (cloth > 0)
    tail_note += " (cloth past the knees: " + std::to_string(cloth) + " vertices found by detect" +
                 (o.count_tail ? ", counted)" : ", ignored)");
  char keys[64];
  if (copied) std::snprintf(keys, sizeof keys, "%zu keys as authored", r.times.size());
  else std::snprintf(keys, sizeof keys, "%zu keys at %g Hz", r.times.size(), o.rate);
  std::printf("harness retarget: wrote %s: clip '%s' %.2f s, %s; max body lift %.3f m%s; %s\n", o.out.c_str(),
              name.c_str(), r.clip.duration, keys, max_lift * mpu, tail_note.c_str(), feet.c_str());
  for (const std::string& line : bake_lines) std::printf("%s\n", line.c_str());
  print_notes("harness retarget", source_loaded);
  return int(kExitOk);
}

}  // namespace

Command add_retarget_command(CLI::App& root) {
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("retarget",
                              "Retarget a clip (BVH, FBX, glTF...) onto a character by body role, ground it and pin "
                              "the feet, keep the arms and the whole body above the floor; write the character with "
                              "the new clip as GLB (exit 1, nothing written, when the body cannot be kept within 2 % "
                              "of its height of the floor)");
  c.app->add_option("CHARACTER", opt->character, "rig file (glTF, GLB, FBX...) or a fixture name")->required();
  c.app->add_option("CLIPFILE", opt->clip_file, "clip source (BVH, FBX, GLB with clips...)")->required();
  c.app->add_option("--out,-o", opt->out, "output .glb")->required();
  c.app->add_option("--clip", opt->clip, "clip to take by name (default: the first)");
  c.app->add_option("--name", opt->name, "name of the new clip (default: the source clip's)");
  c.app->add_option("--rate", opt->rate, "keys per second of the new clip (default 30)");
  c.app->add_flag("--count-tail", opt->count_tail, "count the tail in body grounding (measurement only: lifts the pelvis)");
  c.app->add_flag("--no-ground", opt->no_ground,
                  "skip body grounding and the whole-body lift (a clip whose body then goes more than 2 % of H "
                  "under the floor is refused, exit 1)");
  c.app->add_flag("--no-limbs", opt->no_limbs, "skip foot contact pinning");
  c.app->add_flag("--no-joints-by-name", opt->no_joints_by_name,
                  "leave the joints roles leave out (fingers, ears, tail, hip-hike bones, a neck of several joints) "
                  "in their bind pose (default: each follows the source's joint of its name and role under a matched "
                  "parent)");
  c.app->add_flag("--contacts-from-target", opt->contacts_from_target,
                  "stance from the retargeted character's own feet instead of the source clip's (the older path)");
  c.app->add_option("--legs", opt->legs,
                    "how legs follow the source: auto (default: a quadruped's legs follow its ankles by IK when "
                    "a paw hangs from the root or a leg's bind shape differs from the source's; a biped's its "
                    "rotations), rotation or ankle")
      ->check(CLI::IsMember({"auto", "rotation", "ankle"}));
  c.app->add_option("--own-rig", opt->own_rig,
                    "a clip made for this very rig (same joint names, hierarchy and bind pose; a tail fix grew or "
                    "strip-tail removed aside): copy (default: as authored) or retarget (like any other clip)")
      ->check(CLI::IsMember({"copy", "retarget"}));
  c.app->add_flag("--bake", opt->bake, "bake the tail spring into the new clip (default when the character has a Tail_* chain)");
  c.app->add_flag("--no-bake", opt->no_bake, "do not bake the tail into the new clip");
  c.app->add_flag("--no-colliders", opt->no_colliders,
                  "bake without the leg colliders (the tail may swing into the legs; to compare)");
  c.app->add_option("--bake-fps", opt->bake_fps, "keys per second of the baked tail tracks (default 30)")
      ->check(CLI::Range(0.001, 1000.0));
  c.run = [opt] { return run(*opt); };
  return c;
}

}  // namespace harness
