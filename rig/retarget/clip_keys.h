#pragma once
// A clip's key times and its start: where retarget samples, and where an
// authored clip's animation begins (a leading bind-pose key, an exporter's
// frame range).

#include <vector>

#include "rig/model/model.h"

namespace rig {

// The clip's key times: the longest track's (retarget samples every
// animated track at the same times).
std::vector<double> key_times(const Clip& clip);

// The first two distinct key times of the clip into t0 < t1, or false.
bool first_two_keys(const Clip& clip, double& t0, double& t1);

// True when the clip's first key is `skeleton`'s bind (neutral) pose and the
// next key turns some joint by more than 0.1 rad at once.
bool starts_with_bind_pose(const Skeleton& skeleton, const Clip& clip);

// Where a clip's keys start: its earliest key, tracks of the joints marked in
// `skip` aside (bake leaves out the tail tracks it replaces). 0 when that is
// not inside (0, duration) or nothing is keyed. An exporter may keep a
// clip's own frame range (keys from 2 s on): before them the clip only
// holds its first pose.
double first_key_time(const Clip& clip, const std::vector<char>& skip = {});

// The part of `clip` from `start` seconds on, shifted to start at 0: each
// track gets a key sampled at `start` then its later keys (cubic tracks are
// resampled at their key times as linear).
Clip trim_clip_start(const Clip& clip, double start);

}  // namespace rig
