// The corpus retarget checks' body edge stretch (see run_corpus_body_stretch.h).
#include "harness/gate/corpus/run_corpus_body_stretch.h"

#include <algorithm>
#include <span>

#include "measure/edge_stretch.h"
#include "rig/anatomy/name_tokens.h"
#include "rig/anatomy/skin_queries.h"
#include "rig/model/pose.h"

namespace harness::corpus {

namespace {

using rig::Vec3;

constexpr int kTornSamples = 24;  // SPEC §7

// The character's own clip of the source's gait (the scenario's clip "gait"):
// the shortest clip name with that name token, or -1 (also with no gait).
int own_gait_clip(const rig::Character& c, const std::string& gait) {
  int best = -1;
  if (gait.empty()) return best;
  for (int i = 0; i < static_cast<int>(c.clips.size()); ++i)
    if (rig::name_has_token(c.clips[i].name, gait) &&
        (best < 0 || c.clips[i].name.size() < c.clips[best].name.size()))
      best = i;
  return best;
}

// The welded vertices the body edges read, for skinning only them (issue
// 47: the whole mesh was skinned at every sample): their representatives,
// ascending, and per welded id its slot among them (-1: not read).
struct EdgeEnds {
  std::vector<int> vertices;  // representatives of the welded ends
  std::vector<int> slot;      // per welded id
};

EdgeEnds edge_ends(const rig::Welded& w, const std::vector<std::pair<int, int>>& edges) {
  EdgeEnds e;
  std::vector<char> read(static_cast<size_t>(w.count()), 0);
  for (const auto& [a, b] : edges) read[a] = read[b] = 1;
  e.slot.assign(static_cast<size_t>(w.count()), -1);
  for (int i = 0; i < w.count(); ++i)
    if (read[i]) {
      e.slot[i] = static_cast<int>(e.vertices.size());
      e.vertices.push_back(w.representative[i]);
    }
  return e;
}

// posed_w[i] = the skinned position of welded vertex i's representative,
// for the welded vertices `ends` reads (the others are left as they are).
void skin_edge_ends(const rig::Character& c, const EdgeEnds& ends, std::span<const rig::Mat4> world,
                    std::vector<Vec3>& skinned, std::vector<Vec3>& posed_w) {
  skinned.resize(ends.vertices.size());
  rig::skin_vertices(c.mesh, c.skin, c.skeleton, world, ends.vertices, skinned);
  for (size_t i = 0; i < ends.slot.size(); ++i)
    if (ends.slot[i] >= 0) posed_w[i] = skinned[static_cast<size_t>(ends.slot[i])];
}

}  // namespace

// SPEC §7: 24 evenly spaced times over the clip (as `harness stretch`,
// Blender's measure_stretch.py and the artist clip below), not keys: a
// short clip's keys would repeat.
BodyStretch sample_body_stretch(const rig::Character& c, const rig::Welded& w, const BodyEdges& b,
                                const rig::TransferResult& t) {
  const rig::Skeleton& sk = c.skeleton;
  const int n = static_cast<int>(t.times.size());
  BodyStretch s;
  std::vector<double> torn_times;
  for (int i = 0; i < kTornSamples && n > 0; ++i) torn_times.push_back(t.clip.duration * i / kTornSamples);
  s.samples = torn_times.size();
  s.torn_by_joint.assign(sk.size(), 0);
  s.ratios.reserve(torn_times.size() * b.edges.size());  // one allocation, not a doubling series
  std::vector<Vec3> posed_w(w.count()), skinned;
  const EdgeEnds ends = edge_ends(w, b.edges);
  const std::vector<double> bind_length = measure::edge_lengths(b.bind_w, b.edges);  // the same at every sample
  std::vector<rig::Transform> locals;
  std::vector<rig::Mat4> world(static_cast<size_t>(sk.size()));
  for (double time : torn_times) {
    locals = sk.neutral_local;
    rig::apply_clip(t.clip, time, locals);
    rig::local_to_world(sk, locals, world);
    skin_edge_ends(c, ends, world, skinned, posed_w);
    for (size_t i = 0; i < b.edges.size(); ++i) {  // as measure::append_edge_ratios, keeping who tears
      const auto& [a, bb] = b.edges[i];
      const double l0 = bind_length[i];
      if (!(l0 > 0)) continue;
      const double ratio = (posed_w[a] - posed_w[bb]).norm() / l0;
      s.ratios.push_back(ratio);
      if (ratio > measure::kTornAbove || ratio < measure::kTornBelow) {
        ++s.torn;
        ++s.torn_by_joint[std::max(0, rig::dominant_joint(c.skin.influences[w.representative[a]]))];
      }
    }
  }
  return s;
}

// The same body edges over the character's own clip of that gait, when it
// has one (reported): a rig whose skinning tears on its artist's own run
// cannot tear less on a mocap run, whatever the retarget does.
ArtistClip artist_clip_torn(const rig::Character& c, const std::string& gait, const rig::Welded& w,
                            const BodyEdges& b) {
  const rig::Skeleton& sk = c.skeleton;
  ArtistClip own;
  if (const int i = own_gait_clip(c, gait); i >= 0) {
    const rig::Clip& oc = c.clips[i];
    own.name = oc.name;
    std::vector<Vec3> posed_w(w.count()), skinned;
    std::vector<double> own_ratios;
    const EdgeEnds ends = edge_ends(w, b.edges);
    const std::vector<double> bind_length = measure::edge_lengths(b.bind_w, b.edges);
    for (int s = 0; s < kTornSamples; ++s) {
      std::vector<rig::Transform> locals = sk.neutral_local;
      rig::apply_clip(oc, oc.duration * s / kTornSamples, locals);
      skin_edge_ends(c, ends, rig::local_to_world(sk, locals), skinned, posed_w);
      measure::append_edge_ratios(bind_length, posed_w, b.edges, own_ratios);
    }
    own.torn = measure::torn_fraction(own_ratios);  // no percentiles needed
  }
  return own;
}

}  // namespace harness::corpus
