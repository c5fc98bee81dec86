#include "rig/retarget/clearance/elbow_bend.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/retarget/contact/grounding.h"  // dominant_joint, smooth_lift, smoothing_samples
#include "rig/model/pose.h"
#include "rig/anatomy/roles.h"

namespace rig {
namespace {

// The most torn edges of `edges` for which torn / edges <= max_fraction
// (-1 when none is): the count the bisection compares with, found as the
// fraction itself is compared (the same double division), so that counting
// may stop once it is passed.
long most_torn_allowed(size_t edges, double max_fraction) {
  const double n = static_cast<double>(edges);
  long k = static_cast<long>(std::min(n, std::floor(max_fraction * n)));
  while (k < static_cast<long>(edges) && static_cast<double>(k + 1) / n <= max_fraction) ++k;
  while (k >= 0 && static_cast<double>(k) / n > max_fraction) --k;
  return k;
}

// Where vertex `v` goes under the skinning matrices `skinning` (world *
// inverse bind), summed as linear blend skinning sums it here.
Vec3 skinned_vertex(const Character& c, int v, std::span<const Mat4> skinning) {
  Eigen::Vector4d p = Eigen::Vector4d::Zero();
  const Eigen::Vector4d bind = c.mesh.positions[v].homogeneous();
  for (const Influence& in : c.skin.influences[v]) p += in.weight * (skinning[in.joint] * bind);
  return p.head<3>();
}

// Whether edge i of `e` is torn with its ends at `skinned`.
bool torn_edge(const ElbowSkin& e, size_t i, std::span<const Vec3> skinned, const ElbowBendOptions& o) {
  const double ratio = (skinned[e.edges[i].first] - skinned[e.edges[i].second]).norm() / e.bind_length[i];
  return !(ratio <= o.max_stretch && ratio >= o.min_stretch);
}

// Per edge, squared lengths that decide torn_edge without its root and
// division: strictly inside (in_lo, in_hi) the ratio is within the
// thresholds, outside [out_lo, out_hi] it is not, by a margin of 1e-9
// relative that no rounding of the ratio reaches; in between (and for NaN)
// torn_edge itself decides.
struct EdgeBounds {
  double in_lo, in_hi, out_lo, out_hi;
};

std::vector<EdgeBounds> edge_bounds(const ElbowSkin& e, const ElbowBendOptions& o) {
  std::vector<EdgeBounds> out(e.edges.size());
  for (size_t i = 0; i < e.edges.size(); ++i) {
    const double hi = o.max_stretch * e.bind_length[i], lo = o.min_stretch * e.bind_length[i];
    out[i] = {lo * lo * (1.0 + 1e-9), hi * hi * (1.0 - 1e-9), lo * lo * (1.0 - 1e-9), hi * hi * (1.0 + 1e-9)};
    // Thresholds that are not finite and ordered, or squares out of the
    // normal range (where a square loses digits): the exact way.
    if (!(std::isfinite(lo) && std::isfinite(hi) && lo >= 0.0 && lo <= hi && lo * lo >= 1e-280 && hi * hi <= 1e280))
      out[i] = {1.0, 0.0, -1.0, std::numeric_limits<double>::infinity()};
  }
  return out;
}

bool torn_edge(const ElbowSkin& e, const std::vector<EdgeBounds>& bounds, size_t i, std::span<const Vec3> skinned,
               const ElbowBendOptions& o) {
  const double d2 = (skinned[e.edges[i].first] - skinned[e.edges[i].second]).squaredNorm();
  const EdgeBounds& b = bounds[i];
  if (d2 > b.in_lo && d2 < b.in_hi) return false;
  if (d2 < b.out_lo || d2 > b.out_hi) return true;
  return torn_edge(e, i, skinned, o);
}

// What a trial bend of one elbow touches: the forearm and the joints below
// it (their world matrices change; every other joint keeps the sample's),
// ascending (parents first); the joints influencing the elbow's skin (the
// only skinning matrices read); the skin those moved joints influence and
// the edges with an end on it. A bisection poses the same sample a dozen
// times: only these are recomputed, by the same products local_to_world
// and skinning make, so the bits are the same; the rest of the skin and its
// edges are skinned and counted once per sample.
// Of the moved joints only those the skin reads or that lie above one it
// reads are posed (a hand's fingers rarely weigh on the elbow's skin), and
// the sample's own skin is computed for the still vertices only (a trial
// skins the moving ones before it counts an edge of theirs).
struct TrialJoints {
  std::vector<int> moved, used, used_moved;
  std::vector<int> still, moving;  // positions in e.vertices
  std::vector<size_t> still_edges, moving_edges;  // positions in e.edges
};

TrialJoints trial_joints(const Character& c, const ElbowSkin& e) {
  const Skeleton& sk = c.skeleton;
  TrialJoints t;
  std::vector<char> below(static_cast<size_t>(sk.size()), 0), used(static_cast<size_t>(sk.size()), 0);
  for (int i = e.forearm; i < sk.size(); ++i)
    below[i] = i == e.forearm || (sk.parents[i] >= 0 && below[sk.parents[i]]);
  std::vector<char> moving(e.vertices.size(), 0);
  for (size_t i = 0; i < e.vertices.size(); ++i)
    for (const Influence& in : c.skin.influences[e.vertices[i]]) {
      used[in.joint] = 1;
      moving[i] |= below[in.joint];
    }
  // A moved joint is posed when it, or a joint below it, is read.
  std::vector<char> needed(static_cast<size_t>(sk.size()), 0);
  for (int i = sk.size() - 1; i >= e.forearm; --i) {
    if (!below[i]) continue;
    needed[i] = needed[i] || used[i];
    if (needed[i] && sk.parents[i] >= 0) needed[sk.parents[i]] = 1;
  }
  for (int i = e.forearm; i < sk.size(); ++i)
    if (below[i] && needed[i]) t.moved.push_back(i);
  for (int j = 0; j < sk.size(); ++j)
    if (used[j]) {
      t.used.push_back(j);
      if (below[j]) t.used_moved.push_back(j);
    }
  for (size_t i = 0; i < e.vertices.size(); ++i) (moving[i] ? t.moving : t.still).push_back(static_cast<int>(i));
  for (size_t i = 0; i < e.edges.size(); ++i)
    (moving[e.edges[i].first] || moving[e.edges[i].second] ? t.moving_edges : t.still_edges).push_back(i);
  return t;
}

// The forearm's local rotation with `share` of its bend from `bind`.
Quat bent(const Quat& bind, const Quat& rel, double share) { return (bind * Quat::Identity().slerp(share, rel)).normalized(); }

// The rotation from `bind` to `q` (shortest way round).
Quat relative(const Quat& bind, const Quat& q) {
  Quat r = (bind.conjugate() * q).normalized();
  if (r.w() < 0.0) r.coeffs() *= -1.0;
  return r;
}

// An ElbowSkin whose indices all hold for `c` (it is a public struct).
bool valid(const Character& c, const ElbowSkin& e) {
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  const int nj = c.skeleton.size();
  if (e.bind_length.size() != e.edges.size()) return false;
  for (int v : e.vertices) {
    if (v < 0 || v >= nv) return false;
    for (const Influence& in : c.skin.influences[v])
      if (in.joint < 0 || in.joint >= nj) return false;
  }
  const int m = static_cast<int>(e.vertices.size());
  for (size_t i = 0; i < e.edges.size(); ++i)
    if (e.edges[i].first < 0 || e.edges[i].first >= m || e.edges[i].second < 0 || e.edges[i].second >= m ||
        !(e.bind_length[i] > 0.0))
      return false;
  return true;
}

double angle_of(const Quat& r) { return 2.0 * std::acos(std::clamp(std::abs(r.w()), 0.0, 1.0)); }

}  // namespace

std::vector<ElbowSkin> elbow_skins(const Character& c, std::span<const ArmSkin> arms) {
  std::vector<ElbowSkin> out;
  const Skeleton& sk = c.skeleton;
  const int n = sk.size();
  if (!c.has_skin() || static_cast<int>(sk.parents.size()) != n) return out;
  auto part = [&](int j) { return j < static_cast<int>(sk.roles.size()) ? sk.roles[j].part : BodyPart::kNone; };
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  for (const ArmSkin& arm : arms) {
    if (arm.upper_arm < 0 || arm.upper_arm >= n) continue;
    int forearm = -1;  // the first forearm below the upper arm (parents come first)
    for (int j = arm.upper_arm + 1; j < n && forearm < 0; ++j) {
      if (part(j) != BodyPart::kForearm) continue;
      for (int x = sk.parents[j]; x >= 0 && forearm < 0; x = sk.parents[x])
        if (x == arm.upper_arm) forearm = j;
    }
    if (forearm < 0) continue;
    std::vector<char> on(static_cast<size_t>(nv), 0);
    for (int v : arm.vertices) {
      if (v < 0 || v >= nv) continue;
      const int d = dominant_joint(c.skin.influences[v]);
      on[v] = d == arm.upper_arm || d == forearm;
    }
    ElbowSkin e;
    e.forearm = forearm;
    std::vector<int> index(static_cast<size_t>(nv), -1);
    for (int v = 0; v < nv; ++v)
      if (on[v]) {
        index[v] = static_cast<int>(e.vertices.size());
        e.vertices.push_back(v);
      }
    std::vector<std::pair<int, int>> edges;
    for (const auto& t : c.mesh.triangles)
      for (int k = 0; k < 3; ++k) {
        const int a = std::min(t[k], t[(k + 1) % 3]), b = std::max(t[k], t[(k + 1) % 3]);
        if (a < 0 || b >= nv || a == b || !on[a] || !on[b]) continue;
        edges.emplace_back(index[a], index[b]);
      }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    for (const auto& [a, b] : edges) {
      const double len = (c.mesh.positions[e.vertices[a]] - c.mesh.positions[e.vertices[b]]).norm();
      if (!(len > 0.0) || !std::isfinite(len)) continue;
      e.edges.emplace_back(a, b);
      e.bind_length.push_back(len);
    }
    if (!e.edges.empty()) out.push_back(std::move(e));
  }
  return out;
}

ElbowBendResult limit_elbow_bends(const Character& c, std::span<const ElbowSkin> elbows, const Clip& clip,
                                  std::span<const double> times, const ElbowBendOptions& o) {
  ElbowBendResult res;
  res.clip = clip;
  const Skeleton& sk = c.skeleton;
  const size_t n = times.size();
  res.removed.assign(elbows.size(), std::vector<double>(n, 0.0));
  if (elbows.empty() || n == 0 || !c.has_skin() || !std::is_sorted(times.begin(), times.end())) return res;
  if (!(o.max_torn_fraction >= 0.0) || !std::isfinite(o.max_torn_fraction)) return res;
  if (sk.inverse_bind.size() != static_cast<size_t>(sk.size()) || sk.neutral_local.size() != static_cast<size_t>(sk.size()))
    return res;
  const int steps = std::clamp(o.bisection_steps, 0, 30);
  std::vector<char> usable(elbows.size(), 0);  // checked once, not per sample
  for (size_t e = 0; e < elbows.size(); ++e)
    usable[e] = elbows[e].forearm >= 0 && elbows[e].forearm < sk.size() && valid(c, elbows[e]);
  // Per elbow, per sample: the share of the bend removed, and the bend.
  std::vector<std::vector<double>> cut(elbows.size(), std::vector<double>(n, 0.0));
  std::vector<std::vector<Quat>> rel(elbows.size(), std::vector<Quat>(n, Quat::Identity()));
  std::vector<TrialJoints> trial(elbows.size());
  std::vector<std::vector<EdgeBounds>> bounds(elbows.size());
  for (size_t e = 0; e < elbows.size(); ++e)
    if (usable[e]) trial[e] = trial_joints(c, elbows[e]), bounds[e] = edge_bounds(elbows[e], o);
  std::vector<Transform> locals;
  std::vector<Mat4> pose(static_cast<size_t>(sk.size())), world, skinning(static_cast<size_t>(sk.size()));
  std::vector<Vec3> skinned;
  for (size_t k = 0; k < n; ++k) {
    locals = sk.neutral_local;
    apply_clip(clip, times[k], locals);
    local_to_world(sk, locals, pose);
    for (size_t e = 0; e < elbows.size(); ++e) {
      const int j = elbows[e].forearm;
      if (!usable[e]) continue;
      const Quat bind = sk.neutral_local[j].rotation;
      rel[e][k] = relative(bind, locals[j].rotation);
      world = pose;
      // The skin at the sample's pose; the torn edges no bend moves.
      for (int u : trial[e].used) skinning[u] = world[u] * sk.inverse_bind[u];
      skinned.resize(elbows[e].vertices.size());
      for (int i : trial[e].still) skinned[i] = skinned_vertex(c, elbows[e].vertices[i], skinning);
      long still_torn = 0;
      for (size_t i : trial[e].still_edges) still_torn += torn_edge(elbows[e], bounds[e], i, skinned, o);
      const long allowed = most_torn_allowed(elbows[e].edges.size(), o.max_torn_fraction);
      // Whether at most max_torn_fraction of the edges are torn with `share`
      // of the bend (torn / edges <= max_torn_fraction, counting stopped once
      // `allowed` is passed): local_to_world, the skinning matrices and the
      // skin of the trial pose (the sample's locals, the forearm's rotation
      // bent), where they change.
      auto holds_at = [&](double share) {
        if (elbows[e].edges.empty()) return true;  // a fraction of 0
        if (still_torn > allowed) return false;
        for (int i : trial[e].moved) {
          Transform local = locals[i];
          if (i == j) local.rotation = bent(bind, rel[e][k], share);
          const int p = sk.parents[i];
          world[i] = (p < 0 ? sk.root_parent_world[i] : world[p]) * local.matrix();
        }
        for (int u : trial[e].used_moved) skinning[u] = world[u] * sk.inverse_bind[u];
        for (int i : trial[e].moving) skinned[i] = skinned_vertex(c, elbows[e].vertices[i], skinning);
        long torn = still_torn;
        for (size_t i : trial[e].moving_edges)
          if ((torn += torn_edge(elbows[e], bounds[e], i, skinned, o)) > allowed) return false;
        return true;
      };
      if (holds_at(1.0)) continue;
      if (!holds_at(0.0)) continue;  // not the elbow's doing
      double lo = 0.0, hi = 1.0;  // lo keeps the skin, hi tears it
      for (int s = 0; s < steps; ++s) {
        const double mid = 0.5 * (lo + hi);
        (holds_at(mid) ? lo : hi) = mid;
      }
      cut[e][k] = 1.0 - lo;
    }
  }
  const int radius = smoothing_samples(times, o.smoothing_radius_s);
  for (size_t e = 0; e < elbows.size(); ++e) {
    if (std::all_of(cut[e].begin(), cut[e].end(), [](double x) { return x == 0.0; })) continue;
    cut[e] = smooth_lift(cut[e], radius);
    const int j = elbows[e].forearm;
    auto it = std::find_if(res.clip.tracks.begin(), res.clip.tracks.end(), [&](const JointTracks& t) { return t.joint == j; });
    if (it == res.clip.tracks.end()) continue;  // no track: the bind bend, nothing to limit
    key_track_at(it->rotation, sk.neutral_local[j].rotation, times);
    const Quat bind = sk.neutral_local[j].rotation;
    for (size_t k = 0; k < n; ++k) {
      const double share = std::clamp(1.0 - cut[e][k], 0.0, 1.0);
      if (!(share < 1.0)) continue;
      // In the hemisphere of the key it replaces: the track stays
      // sign-continuous for clients that blend quaternion components.
      Quat q = bent(bind, rel[e][k], share);
      if (q.coeffs().dot(it->rotation.values[k].coeffs()) < 0.0) q.coeffs() *= -1.0;
      it->rotation.values[k] = q;
      res.removed[e][k] = angle_of(rel[e][k]) * (1.0 - share);
    }
  }
  return res;
}

}  // namespace rig
