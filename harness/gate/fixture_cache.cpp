// Fixtures built and input files read once per `harness run` (see fixture_cache.h).
#include "harness/gate/fixture_cache.h"

#include <exception>
#include <utility>

#include "rig/io/io.h"

namespace harness {

namespace {

// The entry for `key` in `entries`, built once by `build()`: the first caller
// runs it, the others wait for it. A build that throws (out of memory) still
// releases the waiting callers: they get its exception, not a hang. nullptr
// when the map is full (the caller builds its own).
template <class T, class Build>
std::shared_ptr<const T> build_once(std::mutex& mutex,
                                    std::map<std::string, std::shared_future<std::shared_ptr<const T>>>& entries,
                                    const std::string& key, size_t max_entries, Build&& build) {
  std::promise<std::shared_ptr<const T>> promise;
  std::shared_future<std::shared_ptr<const T>> entry;
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = entries.find(key); it != entries.end()) {
      entry = it->second;
    } else if (entries.size() < max_entries) {
      entry = promise.get_future().share();
      entries.emplace(key, entry);
      first = true;
    } else {
      return nullptr;
    }
  }
  if (first) {
    try {
      promise.set_value(build());
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }
  return entry.get();
}

}  // namespace

bool FixtureCache::make(const std::string& key, const std::string& name, const fixtures::FixtureParams& params,
                        rig::Character& out, std::string* error, fixtures::GroundTruth* truth) {
  const std::shared_ptr<const Built> b = build_once(mutex_, entries_, key, kMaxEntries, [&] {
    auto built = std::make_shared<Built>();
    // Always with the ground truth: it only adds to the output, never changes the character.
    built->ok = fixtures::make_fixture(name, params, built->character, &built->error, &built->truth, &bodies_);
    return std::shared_ptr<const Built>(std::move(built));
  });
  if (!b) return fixtures::make_fixture(name, params, out, error, truth, &bodies_);
  if (error) *error = b->error;
  if (!b->ok) return false;
  out = b->character;
  if (truth) *truth = b->truth;
  return true;
}

rig::Status FixtureCache::chained(const std::string& key, const rig::Character& in, detect::FixResult& out) {
  const std::shared_ptr<const Chained> c = build_once(mutex_, chained_, key, kMaxEntries, [&] {
    auto run = std::make_shared<Chained>();
    run->status = detect::fix(in, detect::Mode::kChain, detect::Params{}, run->result);
    return std::shared_ptr<const Chained>(std::move(run));
  });
  if (!c) return detect::fix(in, detect::Mode::kChain, detect::Params{}, out);
  out = c->result;
  return c->status;
}

rig::Status FixtureCache::load(const std::string& path, rig::Character& out) {
  const std::shared_ptr<const Loaded> l = build_once(mutex_, loaded_, path, kMaxEntries, [&] {
    auto read = std::make_shared<Loaded>();
    read->status = rig::load(path, read->character);
    return std::shared_ptr<const Loaded>(std::move(read));
  });
  if (!l) return rig::load(path, out);
  out = l->character;
  return l->status;
}

rig::Status load_cached(FixtureCache* cache, const std::string& path, rig::Character& out) {
  return cache ? cache->load(path, out) : rig::load(path, out);
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
