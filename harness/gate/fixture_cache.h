// Fixtures built and input files read once per `harness run` (issue 47):
// the same fox or mouse was built by eight scenarios and the corpus, and
// walk.bvh and backflip.bvh were read by seven scenarios each, the FBX walk
// by three, the corpus read Fox, Wolf and Rat as characters and again as
// clip sources. A fixture is a function of its name and parameters, a
// loaded file of its bytes (inputs do not change during a run), so a copy of
// the first is the same character bit for bit. Owned by the caller (harness
// run) and handed to the scenarios (Scenario::fixtures); without one every
// request builds or reads.
#pragma once

#include <nlohmann/json.hpp>

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/model/model.h"

namespace harness {

class FixtureCache {
 public:
  // At most this many distinct fixtures are kept; past it a request builds
  // its own (a run names a few dozen at most).
  static constexpr size_t kMaxEntries = 64;

  // fixtures::make_fixture(name, params, out, error, truth), from the
  // entry for `key` (the fixture's name and its parameters, canonical JSON)
  // when there is one. Thread-safe: a second request for a fixture being
  // built waits for it rather than build it again.
  bool make(const std::string& key, const std::string& name, const fixtures::FixtureParams& params,
            rig::Character& out, std::string* error, fixtures::GroundTruth* truth);

  // detect::fix(in, kChain, default params) for the fixture entry `key`,
  // `in` being that fixture as built: computed by the first request (the fox
  // and the mouse were detected by four scenarios each), a copy for the rest.
  // Thread-safe as make.
  rig::Status chained(const std::string& key, const rig::Character& in, detect::FixResult& out);

  // rig::load(path, out) (its status too, notes included), from the entry
  // for `path` when there is one; thread-safe as make. Only for inputs that
  // do not change during the run (assets, scenario files), never for a file
  // the run writes.
  rig::Status load(const std::string& path, rig::Character& out);

 private:
  struct Built {
    bool ok = false;
    std::string error;
    rig::Character character;
    fixtures::GroundTruth truth;
  };
  struct Chained {
    rig::Status status;
    detect::FixResult result;
  };
  std::mutex mutex_;
  std::map<std::string, std::shared_future<std::shared_ptr<const Built>>> entries_;
  struct Loaded {
    rig::Status status;
    rig::Character character;
  };
  std::map<std::string, std::shared_future<std::shared_ptr<const Chained>>> chained_;
  std::map<std::string, std::shared_future<std::shared_ptr<const Loaded>>> loaded_;
  // Bodies shared by fixtures of other parameters (fixtures::BodyMemo).
  fixtures::BodyMemo bodies_;
};

// make_fixture through `cache` when it is not null; `params_json` is the
// scenario's parameter object the key is made from.
// The FixtureCache key of a scenario character object that is a fixture as
// built (only "fixture" and "params"); "" for any other.
std::string plain_fixture_key(const nlohmann::json& spec);

// rig::load through `cache` when it is not null (an input file, see
// FixtureCache::load).
rig::Status load_cached(FixtureCache* cache, const std::string& path, rig::Character& out);

bool make_fixture_cached(FixtureCache* cache, const std::string& name, const std::string& params_json,
                         const fixtures::FixtureParams& params, rig::Character& out, std::string* error,
                         fixtures::GroundTruth* truth = nullptr);

}  // namespace harness
