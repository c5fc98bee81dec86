// Fixtures built once per `harness run` (see fixture_cache.h).
#include "harness/gate/fixture_cache.h"

#include <exception>
#include <utility>

namespace harness {

bool FixtureCache::make(const std::string& key, const std::string& name, const fixtures::FixtureParams& params,
                        rig::Character& out, std::string* error, fixtures::GroundTruth* truth) {
  std::promise<std::shared_ptr<const Built>> promise;
  std::shared_future<std::shared_ptr<const Built>> entry;
  bool build = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = entries_.find(key); it != entries_.end()) {
      entry = it->second;
    } else if (entries_.size() < kMaxEntries) {
      entry = promise.get_future().share();
      entries_.emplace(key, entry);
      build = true;
    } else {
      return fixtures::make_fixture(name, params, out, error, truth);
    }
  }
  if (build) {
    // A build that throws (out of memory) must still release the scenarios
    // waiting on this entry: they get its exception, not a hang.
    try {
      auto b = std::make_shared<Built>();
      // Always with the ground truth: it only adds to the output, never changes the character.
      b->ok = fixtures::make_fixture(name, params, b->character, &b->error, &b->truth);
      promise.set_value(std::move(b));
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }
  const std::shared_ptr<const Built> b = entry.get();
  if (error) *error = b->error;
  if (!b->ok) return false;
  out = b->character;
  if (truth) *truth = b->truth;
  return true;
}

bool make_fixture_cached(FixtureCache* cache, const std::string& name, const std::string& params_json,
                         const fixtures::FixtureParams& params, rig::Character& out, std::string* error,
                         fixtures::GroundTruth* truth) {
  if (!cache) return fixtures::make_fixture(name, params, out, error, truth);
  return cache->make(name + " " + params_json, name, params, out, error, truth);
}

}  // namespace harness
