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

rig::Status FixtureCache::chained(const std::string& key, const rig::Character& in, detect::FixResult& out) {
  std::promise<std::shared_ptr<const Chained>> promise;
  std::shared_future<std::shared_ptr<const Chained>> entry;
  bool run = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = chained_.find(key); it != chained_.end()) {
      entry = it->second;
    } else if (chained_.size() < kMaxEntries) {
      entry = promise.get_future().share();
      chained_.emplace(key, entry);
      run = true;
    } else {
      return detect::fix(in, detect::Mode::kChain, detect::Params{}, out);
    }
  }
  if (run) {
    try {  // as make: the waiting scenarios get an exception, not a hang
      auto c = std::make_shared<Chained>();
      c->status = detect::fix(in, detect::Mode::kChain, detect::Params{}, c->result);
      promise.set_value(std::move(c));
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }
  const std::shared_ptr<const Chained> c = entry.get();
  out = c->result;
  return c->status;
}

std::string plain_fixture_key(const nlohmann::json& spec) {
  if (!spec.is_object() || !spec.contains("fixture") || !spec["fixture"].is_string()) return "";
  for (const auto& [k, v] : spec.items())
    if (k != "fixture" && k != "params") return "";
  return spec["fixture"].get<std::string>() + " " + spec.value("params", nlohmann::json::object()).dump();
}

bool make_fixture_cached(FixtureCache* cache, const std::string& name, const std::string& params_json,
                         const fixtures::FixtureParams& params, rig::Character& out, std::string* error,
                         fixtures::GroundTruth* truth) {
  if (!cache) return fixtures::make_fixture(name, params, out, error, truth);
  return cache->make(name + " " + params_json, name, params, out, error, truth);
}

}  // namespace harness
