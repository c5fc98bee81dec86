// Corpus checks on one character: roles, `fix` on the original, strip-tail
// then fix, and the tail edge stretch they share (issue 11).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <set>

#include "detect/find_appendages.h"
#include "detect/rewrite/strip_tail.h"
#include "fixtures/fixtures.h"
#include "measure/edge_stretch.h"
#include "rig/anatomy/roles.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/model/pose.h"
#include "rig/model/weld.h"
#include "harness/gate/corpus/run_corpus.h"
#include "pipeline/fix.h"
#include "solver/bake.h"
#include "solver/chain.h"
#include "solver/step.h"

namespace harness::corpus {

namespace {

using rig::BodyPart;
using rig::Vec3;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A thigh's chain "reaches the floor" when its lowest joint in bind is within
// this fraction of H above the lowest mesh vertex (ankles sit above the sole;
// arms, even hanging ones, end far higher).
constexpr double kLegFloorFraction = 0.2;
// Weld tolerance for edge sets, x H (as detect::Params::weld_fraction).
constexpr double kWeldFraction = 1e-4;
// "Not worse than the stripped rig": allowed excess of the fixed rig's tail p99
// (dimensionless ratio) and torn fraction over the stripped one's.
constexpr double kStretchP99Slack = 0.01;
constexpr double kStretchTornSlack = 0.001;
constexpr int kStretchSamples = 24;
constexpr double kLengthTolerance = 0.15;  // chain length within ±15 % (issue 11)
constexpr double kJointDistance = 0.15;  // every grown joint within this x the artist's tail length (issue 45)
constexpr int kFramesPerSample = 5;  // solver frames between two measured samples (as walk_stretch)

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

Vec3 joint_pos(const rig::Skeleton& sk, int j) { return sk.bind_world[j].block<3, 1>(0, 3); }

// Roles as the libraries see them (rig::load fills them; a copy otherwise).
std::vector<rig::Role> roles_of(const rig::Skeleton& sk) {
  if (static_cast<int>(sk.roles.size()) == sk.size()) return sk.roles;
  rig::Skeleton copy = sk;
  rig::assign_roles(copy);
  return copy.roles;
}

// Number of legs marked as front legs, once rig::Role has a `front` flag
// (issue 11, helper "rig"); -1 while it does not.
template <typename R>
int count_front(const std::vector<R>& roles) {
  if constexpr (requires(const R& r) { r.front; }) {
    int n = 0;
    for (const R& r : roles) n += r.part == BodyPart::kThigh && r.front;
    return n;
  } else {
    return -1;
  }
}

bool same_influences(const std::vector<rig::Influence>& a, const std::vector<rig::Influence>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].joint != b[i].joint ||
        std::bit_cast<std::uint64_t>(a[i].weight) != std::bit_cast<std::uint64_t>(b[i].weight))
      return false;
  return true;
}

// Vertices whose dominant joint is in `joints`.
std::vector<int> dominated_by(const rig::Character& c, const std::vector<int>& joints) {
  std::vector<char> in(c.skeleton.size(), 0);
  for (int j : joints)
    if (j >= 0 && j < c.skeleton.size()) in[j] = 1;
  std::vector<int> out;
  for (int v = 0; v < static_cast<int>(c.skin.influences.size()); ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d >= 0 && in[d]) out.push_back(v);
  }
  return out;
}

double iou(const std::vector<int>& a, const std::vector<int>& b) {  // both ascending
  std::vector<int> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  const double uni = static_cast<double>(a.size() + b.size() - both.size());
  return uni > 0 ? both.size() / uni : 0.0;
}

// Welded edges with both ends in `vertices` (original ids).
std::vector<std::pair<int, int>> edges_within(const rig::Welded& w, const std::vector<int>& vertices) {
  std::vector<char> in(w.count(), 0);
  for (int v : vertices) in[w.weld_of[v]] = 1;
  std::vector<std::pair<int, int>> out;
  for (const auto& e : rig::unique_edges(w.triangles))
    if (in[e.first] && in[e.second]) out.push_back(e);
  return out;
}

// Polyline length through bind joint positions.
double polyline(const std::vector<Vec3>& p) {
  double l = 0;
  for (size_t i = 1; i < p.size(); ++i) l += (p[i] - p[i - 1]).norm();
  return l;
}

// The artist's tail bone chain: from the root tail joint down the deepest
// path of tail joints, then a last bone as long as the one before it (glTF
// stores no bone tails; the spring solver makes the same assumption,
// solver::ChainRigInput::end_length_ratio). `parent` receives the joint the
// root hangs from (-1: none).
std::vector<Vec3> artist_chain_points(const rig::Skeleton& sk, const std::vector<int>& tail, int* parent) {
  std::vector<char> in(sk.size(), 0);
  for (int j : tail) in[j] = 1;
  std::vector<int> depth(sk.size(), 0);  // tail joints below, longest path
  std::vector<int> next(sk.size(), -1);
  for (int j = sk.size() - 1; j >= 0; --j) {
    if (!in[j]) continue;
    const int p = sk.parents[j];
    if (p >= 0 && in[p] && depth[j] + 1 > depth[p]) depth[p] = depth[j] + 1, next[p] = j;
  }
  int root = -1;
  for (int j : tail)
    if ((sk.parents[j] < 0 || !in[sk.parents[j]]) && (root < 0 || depth[j] > depth[root])) root = j;
  *parent = root >= 0 ? sk.parents[root] : -1;
  std::vector<Vec3> pts;
  for (int j = root; j >= 0; j = next[j]) pts.push_back(joint_pos(sk, j));
  if (pts.size() >= 2) pts.push_back(pts.back() + (pts[pts.size() - 1] - pts[pts.size() - 2]));
  return pts;
}

// Its length: the joint polyline plus that last bone.
double artist_chain_length(const rig::Skeleton& sk, const std::vector<int>& tail, int* bones) {
  int parent = -1;
  const std::vector<Vec3> pts = artist_chain_points(sk, tail, &parent);
  *bones = pts.size() >= 2 ? static_cast<int>(pts.size()) - 1 : static_cast<int>(pts.size());
  return polyline(pts);
}

// "A chain along the artist's tail" (issue 45): the largest distance of a
// grown joint (Tail_1 .. Tail_End, bind) from the artist's tail line, in
// artist tail lengths. The line starts at the joint both chains hang from,
// so a chain rooted at that joint (a split-off tail's J0) is on it.
double joint_distance_max(const rig::Character& c, const std::vector<int>& tail, double artist_length,
                          const rig::Skeleton& fixed, const std::vector<int>& grown) {
  int parent = -1;
  std::vector<Vec3> line = artist_chain_points(c.skeleton, tail, &parent);
  if (parent >= 0) line.insert(line.begin(), joint_pos(c.skeleton, parent));
  if (line.size() < 2 || grown.empty() || !(artist_length > 0)) return kNaN;
  double worst = 0.0;
  for (int j : grown) {
    const Vec3 p = joint_pos(fixed, j);
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 1; i < line.size(); ++i) {
      const Vec3 ab = line[i] - line[i - 1];
      const double t = ab.squaredNorm() > 0 ? std::clamp((p - line[i - 1]).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
      best = std::min(best, (line[i - 1] + t * ab - p).norm());
    }
    worst = std::max(worst, best);
  }
  return worst / artist_length;
}

bool clip_is_loop(const rig::Character& c, const rig::Clip& clip) {
  if (fixtures::clip_loops(clip.name)) return true;
  const auto a = rig::pose_at(c.skeleton, clip, 0.0), b = rig::pose_at(c.skeleton, clip, clip.duration);
  for (size_t j = 0; j < a.size(); ++j)
    if ((a[j] - b[j]).cwiseAbs().maxCoeff() > 1e-6 * std::max(1.0, a[j].cwiseAbs().maxCoeff())) return false;
  return true;
}

// One line per region: class, action, attachment, size.
std::string regions_summary(const rig::Character& c, const detect::Analysis& a) {
  std::string s;
  for (const auto& r : a.regions) {
    if (!s.empty()) s += "; ";
    s += std::string(detect::class_name(r.classification.cls)) + "/" + detect::action_name(r.classification.action) +
         " at " + (r.attachment >= 0 ? c.skeleton.names[r.attachment] : std::string("?")) + " (" +
         std::to_string(r.vertices.size()) + " v)";
  }
  return s.empty() ? "no regions" : s;
}

// The chain `fix` grew: its joints, the name of Tail_1's parent, its
// polyline length (bind units).
struct GrownChain {
  std::vector<int> joints;
  std::string parent;
  double length = 0.0;  // joint polyline J0..JK
  double L = 0.0;       // detect's tail length (p99 geodesic)
};
GrownChain first_chain(const rig::Character& fixed, const detect::Analysis& a) {
  GrownChain g;
  for (const auto& r : a.regions) {
    if (r.chain_joint_ids.empty()) continue;
    g.joints = r.chain_joint_ids;
    const int p = fixed.skeleton.parents[r.chain_joint_ids.front()];
    g.parent = p >= 0 ? fixed.skeleton.names[p] : "(root)";
    g.length = polyline(r.joints);
    g.L = r.length;
    break;
  }
  return g;
}

std::vector<int> all_chain_joints(const detect::Analysis& a) {
  std::vector<int> j;
  for (const auto& r : a.regions) j.insert(j.end(), r.chain_joint_ids.begin(), r.chain_joint_ids.end());
  return j;
}

}  // namespace

void check_roles(const Entry& e, const rig::Character& c, FileResult& r) {
  const rig::Skeleton& sk = c.skeleton;
  const std::vector<rig::Role> roles = roles_of(sk);
  int hips = 0, thighs = 0, arms = 0, off_floor = 0;
  std::string hips_name = "(none)", off_floor_names;
  double floor = std::numeric_limits<double>::infinity();
  for (const Vec3& p : c.mesh.positions) floor = std::min(floor, p.y());
  const double H = rig::model_height(c.mesh.positions);
  // Lowest point of each joint's subtree: its joints and the skin they
  // dominate (a foot driven by an IK helper elsewhere in the hierarchy still
  // leaves the shin's skin reaching down to the hock).
  std::vector<double> lowest(sk.size(), std::numeric_limits<double>::infinity());
  for (size_t v = 0; v < c.skin.influences.size(); ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d >= 0) lowest[d] = std::min(lowest[d], c.mesh.positions[v].y());
  }
  for (int j = sk.size() - 1; j >= 0; --j) {  // children after parents
    lowest[j] = std::min(lowest[j], joint_pos(sk, j).y());
    if (sk.parents[j] >= 0) lowest[sk.parents[j]] = std::min(lowest[sk.parents[j]], lowest[j]);
  }
  for (int j = 0; j < sk.size(); ++j) {
    const BodyPart p = roles[j].part;
    if (p == BodyPart::kHips) {
      if (++hips == 1) hips_name = sk.names[j];
    } else if (p == BodyPart::kThigh) {
      ++thighs;
      if (lowest[j] > floor + kLegFloorFraction * H) {
        ++off_floor;
        off_floor_names += (off_floor_names.empty() ? "" : ", ") + sk.names[j];
      }
    } else if (p == BodyPart::kUpperArm) {
      ++arms;
    }
  }
  add_check(r, "roles.hips_count", hips, "==", 1);
  add_check(r, "roles.legs", thighs, "==", e.legs, "thigh joints after rig::assign_roles");
  add_check(r, "roles.thighs_off_floor", off_floor, "==", 0,
            off_floor ? "thighs whose joints and skin end above " + fmt("%.2f", kLegFloorFraction) + " H: " + off_floor_names
                      : "");
  if (!e.hips.empty())
    add_check(r, "roles.hips_joint_ok", hips_name == e.hips ? 1 : 0, "==", 1,
              "expected '" + e.hips + "', actual '" + hips_name + "'");
  if (e.arms >= 0) add_check(r, "roles.arms", arms, "==", e.arms, "upper-arm joints");
  const int front = count_front(roles);
  if (e.front_legs >= 0 && front >= 0) add_check(r, "roles.front_legs", front, "==", e.front_legs);
  r.row["legs"] = thighs;
  r.row["arms"] = arms;
  r.row["hips_joint"] = hips_name;
  r.row["roles_ok"] = true;
  for (const Check& ch : r.checks)
    if (ch.id.rfind("roles.", 0) == 0 && !ch.pass) r.row["roles_ok"] = false;
}

bool check_fix_original(const Entry& e, const rig::Character& c, const std::vector<int>* truth_tail,
                        double truth_length, FileResult& r, pipeline::FixOutcome& fixed) {
  // `harness fix` with its defaults
  if (rig::Status st = pipeline::fix_character(c, pipeline::FixOptions{}, fixed); !st.ok()) {
    add_check(r, "fix.status_ok", 0, "==", 1, st.message);
    return false;
  }
  const detect::FixResult& fx = fixed.result;
  int changed = 0;
  for (size_t v = 0; v < c.skin.influences.size(); ++v)
    changed += !same_influences(c.skin.influences[v], fx.character.skin.influences[v]);
  const int added = fx.character.skeleton.size() - c.skeleton.size();
  r.row["fix_chains"] = fx.chains;
  r.row["fix_rigid"] = fx.rigid;
  r.row["fix_changed_vertices"] = changed;
  r.row["fix_regions"] = regions_summary(c, fx.analysis);
  if (e.tail != "rigger") {
    // No tail, or tail bones already there: do no harm.
    add_check(r, "fix.chains", fx.chains, "==", 0, "already rigged or no tail: no chain");
    add_check(r, "fix.rigid", fx.rigid, "==", e.rigid);
    add_check(r, "fix.joints_added", added, "==", 0);
    if (e.rigid == 0)
      add_check(r, "fix.changed_vertices", changed, "==", 0, "every influence bit for bit: " + regions_summary(c, fx.analysis));
    return true;
  }
  // A rigger's tail (fixture ground truth): one chain at the pelvis on the tail.
  add_check(r, "fix.chains", fx.chains, "==", 1, regions_summary(c, fx.analysis));
  add_check(r, "fix.rigid", fx.rigid, "==", e.rigid);
  const GrownChain g = first_chain(fx.character, fx.analysis);
  if (!e.hips.empty())
    add_check(r, "fix.at_pelvis", g.parent == e.hips ? 1 : 0, "==", 1,
              "chain parent: expected '" + e.hips + "', actual '" + g.parent + "'");
  const double i = truth_tail ? iou(dominated_by(fx.character, all_chain_joints(fx.analysis)), *truth_tail) : kNaN;
  add_check(r, "fix.iou", i, ">=", 0.9, "vertices dominated by the chain vs the fixture's tail");
  // The fixture's truth is a tail length (centreline, root to tip): compared
  // with detect's tail length L, the length the chain spans (SPEC §3).
  const double ratio = truth_length > 0 && !g.joints.empty() ? g.L / truth_length : kNaN;
  add_range_check(r, "fix.length_ratio", ratio, 1.0 - kLengthTolerance, 1.0 + kLengthTolerance,
                  "chain length L / fixture tail centreline");
  r.row["iou"] = i;
  r.row["length_ratio"] = ratio;
  r.metrics["fix.chain_length_m"] = g.L * c.meters_per_unit;
  r.metrics["fix.truth_length_m"] = truth_length * c.meters_per_unit;
  if (e.walk.empty() || !truth_tail) return true;
  auto clip = std::find_if(c.clips.begin(), c.clips.end(), [&](const rig::Clip& x) { return x.name == e.walk; });
  if (clip == c.clips.end()) {
    add_check(r, "fix.walk_clip_found", 0, "==", 1, "no clip '" + e.walk + "'");
    return true;
  }
  const rig::Welded w = rig::weld_by_position(c.mesh.positions, c.mesh.triangles,
                                              kWeldFraction * rig::model_height(c.mesh.positions));
  const auto edges = edges_within(w, *truth_tail);
  const TailStretch before = tail_stretch(c, *clip, w.representative, edges, kStretchSamples);
  const TailStretch after = tail_stretch(fx.character, *clip, w.representative, edges, kStretchSamples);
  if (!after.error.empty()) add_check(r, "fix.solver_ok", 0, "==", 1, after.error);
  add_check(r, "fix.stretch_p99", after.p99, "<=", before.p99 + kStretchP99Slack,
            "fixed tail p99 vs the rigger's " + fmt("%.3f", before.p99));
  add_check(r, "fix.stretch_torn_fraction", after.torn, "<=", before.torn + kStretchTornSlack,
            "fixed tail torn vs the rigger's " + fmt("%.4f", before.torn));
  r.metrics["fix.rigger_stretch_p99"] = before.p99;
  r.metrics["fix.rigger_stretch_torn_fraction"] = before.torn;
  r.row["stretch_before_p99"] = before.p99;
  r.row["stretch_before_torn"] = before.torn;
  r.row["stretch_after_p99"] = after.p99;
  r.row["stretch_after_torn"] = after.torn;
  return true;
}

void check_strip_fix(const Entry& e, const rig::Character& c, FileResult& r) {
  detect::StripTailParams sp;
  if (!e.tail_bones.empty()) sp.regex = e.tail_bones;
  sp.remove_joints = true;
  rig::Character stripped;
  detect::StripTailResult sr;
  if (rig::Status st = detect::strip_tail(c, sp, stripped, &sr); !st.ok()) {
    add_check(r, "strip_fix.strip_ok", 0, "==", 1, st.message);
    return;
  }
  // The artist's tail: vertices dominated by the tail bones (strip-tail keeps
  // vertex order, so the ids hold in the stripped and fixed rigs).
  const std::vector<int> artist = dominated_by(c, sr.removed);
  int artist_bones = 0;
  const double artist_length = artist_chain_length(c.skeleton, sr.removed, &artist_bones);
  pipeline::FixOutcome fixed;  // `harness fix` with its defaults
  if (rig::Status st = pipeline::fix_character(stripped, pipeline::FixOptions{}, fixed); !st.ok()) {
    add_check(r, "strip_fix.fix_ok", 0, "==", 1, st.message);
    return;
  }
  const detect::FixResult& fx = fixed.result;
  const GrownChain g = first_chain(fx.character, fx.analysis);
  const std::vector<int> grown = dominated_by(fx.character, all_chain_joints(fx.analysis));
  add_check(r, "strip_fix.chains", fx.chains, "==", 1, regions_summary(stripped, fx.analysis));
  add_check(r, "strip_fix.at_pelvis", !g.joints.empty() && g.parent == e.hips ? 1 : 0, "==", 1,
            "chain parent: expected '" + e.hips + "', actual '" + (g.joints.empty() ? "(no chain)" : g.parent) + "'");
  const double i = iou(grown, artist);
  add_check(r, "strip_fix.iou", i, ">=", 0.9,
            std::to_string(grown.size()) + " chain-dominated vs " + std::to_string(artist.size()) + " artist tail vertices");
  const double ratio = g.joints.empty() || !(artist_length > 0) ? 0.0 : g.length / artist_length;
  add_range_check(r, "strip_fix.length_ratio", ratio, 1.0 - kLengthTolerance, 1.0 + kLengthTolerance,
                  "chain bones " + fmt("%.4g", g.length) + " / artist tail bones " + fmt("%.4g", artist_length) +
                      " units (" + std::to_string(artist_bones) + " bones)");
  const double off = g.joints.empty() ? kNaN : joint_distance_max(c, sr.removed, artist_length, fx.character.skeleton, g.joints);
  add_check(r, "strip_fix.joint_distance", off, "<=", kJointDistance,
            "largest distance of a grown joint from the artist's tail line, in artist tail lengths");
  // Do no harm on an unusual body (issue 45): strip-tail takes only the
  // tail's bones, so fix makes no more regions rigid than on purpose (a worn
  // item's; default 0). A rigid region here moved the body's own skin (the
  // Apatosaurus' hind feet, shins, thighs and neck, rigid on its shoulders).
  add_check(r, "strip_fix.rigid_regions", fx.rigid, "==", e.rigid, regions_summary(stripped, fx.analysis));
  r.metrics["strip_fix.chain_length_m"] = g.length * c.meters_per_unit;
  r.metrics["strip_fix.artist_length_m"] = artist_length * c.meters_per_unit;
  r.row["chains"] = fx.chains;
  r.row["chain_parent"] = g.joints.empty() ? "" : g.parent;
  r.row["iou"] = i;
  r.row["length_ratio"] = ratio;
  r.row["strip_regions"] = regions_summary(stripped, fx.analysis);
  r.notes.push_back("strip-tail removed " + std::to_string(sr.removed.size()) + " joints, " +
                    std::to_string(sr.vertices_changed) + " vertices reweighted; fix: " +
                    regions_summary(stripped, fx.analysis));

  if (e.walk.empty()) return;
  auto clip = std::find_if(stripped.clips.begin(), stripped.clips.end(),
                           [&](const rig::Clip& x) { return x.name == e.walk; });
  if (clip == stripped.clips.end()) {
    add_check(r, "strip_fix.walk_clip_found", 0, "==", 1, "no clip '" + e.walk + "'");
    return;
  }
  const rig::Welded w = rig::weld_by_position(c.mesh.positions, c.mesh.triangles,
                                              kWeldFraction * rig::model_height(c.mesh.positions));
  const auto edges = edges_within(w, artist);
  const TailStretch before = tail_stretch(stripped, *clip, w.representative, edges, kStretchSamples);
  const TailStretch after = tail_stretch(fx.character, *clip, w.representative, edges, kStretchSamples);
  auto artist_clip = std::find_if(c.clips.begin(), c.clips.end(), [&](const rig::Clip& x) { return x.name == e.walk; });
  const TailStretch artist_st = tail_stretch(c, *artist_clip, w.representative, edges, kStretchSamples);
  if (!after.error.empty()) add_check(r, "strip_fix.solver_ok", 0, "==", 1, after.error);
  add_check(r, "strip_fix.stretch_p99", after.p99, "<=", before.p99 + kStretchP99Slack,
            "fixed tail p99 vs stripped " + fmt("%.3f", before.p99) + " (artist's own animation " +
                fmt("%.3f", artist_st.p99) + ")");
  add_check(r, "strip_fix.stretch_torn_fraction", after.torn, "<=", before.torn + kStretchTornSlack,
            "fixed tail torn vs stripped " + fmt("%.4f", before.torn));
  r.metrics["strip_fix.stripped_stretch_p99"] = before.p99;
  r.metrics["strip_fix.stripped_stretch_torn_fraction"] = before.torn;
  r.metrics["strip_fix.artist_stretch_p99"] = artist_st.p99;
  r.row["tail_edges"] = static_cast<long>(edges.size());
  r.row["stretch_before_p99"] = before.p99;
  r.row["stretch_before_torn"] = before.torn;
  r.row["stretch_after_p99"] = after.p99;
  r.row["stretch_after_torn"] = after.torn;
  r.row["stretch_artist_p99"] = artist_st.p99;
}

TailStretch tail_stretch(const rig::Character& c, const rig::Clip& clip, const std::vector<int>& rep,
                         const std::vector<std::pair<int, int>>& edges, int samples) {
  TailStretch out;
  const rig::Skeleton& sk = c.skeleton;
  const bool loop = clip_is_loop(c, clip);
  std::vector<double> times(samples);
  for (int i = 0; i < samples; ++i)
    times[i] = loop ? clip.duration * i / samples : (samples > 1 ? clip.duration * i / (samples - 1) : 0.0);

  // The chain, when there is one, driven by the spring solver (as walk_stretch).
  solver::ChainParams params;
  params.meters_per_unit = c.meters_per_unit;
  solver::ChainRigInput in;
  in.names = sk.names;
  in.parents = sk.parents;
  in.inverse_bind = sk.inverse_bind;
  in.hips = rig::hips_joint(sk);
  solver::ChainDesc desc;
  std::vector<std::vector<rig::Quat>> per_sample;
  const solver::ChainStatus cs = solver::build_chain(in, params, desc);
  if (cs.ok()) {
    out.solver = true;
    const int n = desc.size();
    const int frames = loop ? samples * kFramesPerSample : std::max(1, (samples - 1) * kFramesPerSample);
    const double dt = loop ? clip.duration / frames : (samples > 1 ? (times.back() - times.front()) / frames : 0.0);
    auto hips_at = [&](double t) {
      Eigen::Affine3d a;
      a.matrix() = rig::pose_at(sk, clip, t)[desc.hips];
      return a;
    };
    per_sample.assign(samples, std::vector<rig::Quat>(n));
    if (loop) {
      std::vector<Eigen::Affine3d> hips(frames);
      for (int k = 0; k < frames; ++k) hips[k] = hips_at(k * dt);
      solver::BakeOptions bo;
      bo.sample_rate = 1.0 / dt;
      bo.model_height = rig::model_height(c.mesh.positions) * c.meters_per_unit;
      solver::BakeResult br;
      if (!solver::bake_loop(desc, params, hips, bo, br)) {
        out.error = "solver bake failed";
        return out;
      }
      for (int si = 0; si < samples; ++si)
        for (int i = 0; i < n; ++i) per_sample[si][i] = br.rotations[(si * kFramesPerSample) * n + i];
    } else {
      solver::ChainState state;
      solver::init_state(desc, state);
      solver::reset(desc, params, state, hips_at(times.front()));
      std::vector<rig::Quat> rot(n);
      solver::step(desc, params, state, 0.0, hips_at(times.front()), rot);
      per_sample[0] = rot;
      for (int k = 1; k <= frames; ++k) {
        solver::step(desc, params, state, dt, hips_at(times.front() + k * dt), rot);
        if (k % kFramesPerSample == 0) per_sample[k / kFramesPerSample] = rot;
      }
    }
  } else if (cs.code != solver::ChainStatus::Code::kNoTail) {
    out.error = "solver setup: " + cs.message;
  }
  const int nw = static_cast<int>(rep.size());
  std::vector<Vec3> bind_w(nw), posed_w(nw);
  for (int w = 0; w < nw; ++w) bind_w[w] = c.mesh.positions[rep[w]];
  // Only the edges' ends are skinned (the tail's: a few percent of the
  // mesh; the whole mesh per sample was most of the corpus' time, issue 47).
  std::vector<char> at_edge(nw, 0);
  for (const auto& [a, b] : edges) at_edge[a] = at_edge[b] = 1;
  std::vector<int> ends, end_vertices;
  for (int w = 0; w < nw; ++w)
    if (at_edge[w]) ends.push_back(w), end_vertices.push_back(rep[w]);
  std::vector<Vec3> skinned(ends.size());
  std::vector<double> ratios;
  const std::vector<double> bind_length = measure::edge_lengths(bind_w, edges);  // once, not per sample
  for (int si = 0; si < samples; ++si) {
    std::vector<rig::Transform> locals = sk.stored_local;
    rig::apply_clip(clip, times[si], locals);
    if (!per_sample.empty())
      for (int i = 0; i < desc.size(); ++i) locals[desc.links[i].joint].rotation = per_sample[si][i];
    rig::skin_vertices(c.mesh, c.skin, sk, rig::local_to_world(sk, locals), end_vertices, skinned);
    for (size_t i = 0; i < ends.size(); ++i) posed_w[ends[i]] = skinned[i];
    measure::append_edge_ratios(bind_length, posed_w, edges, ratios);
  }
  const measure::StretchStats st = measure::stretch_stats(std::move(ratios));
  out.p99 = st.p99;
  out.max = st.max;
  out.torn = st.torn_fraction;
  out.samples = st.samples;
  return out;
}

}  // namespace harness::corpus
