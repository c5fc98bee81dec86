// One pipeline (issue 44): `harness retarget` and the corpus gate must run the
// same composition, so the gate measures what users get. The command (its
// CLI11 node, run as a user runs it) and the gate's own path (its
// preparation, pipeline::retarget_clip and pipeline::add_retargeted_clip)
// write the same bytes for the same character and clip; so do `harness fix`
// and pipeline::fix_character.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "fixtures/fixtures.h"
#include "harness/cli/command.h"
#include "harness/gate/corpus/run_corpus.h"
#include "pipeline/fix.h"
#include "pipeline/retarget_character.h"
#include "rig/io/io.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tailrig_one_pipeline_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

rig::Character fixture(const std::string& name) {
  rig::Character c;
  std::string error;
  EXPECT_TRUE(fixtures::make_fixture(name, fixtures::default_params(name), c, &error)) << error;
  return c;
}

// The canonical clips on the canonical skeleton (`harness fixture clips`).
rig::Character clip_source() {
  rig::Character c;
  std::string error;
  EXPECT_TRUE(fixtures::make_clip_source(fixtures::default_params("tailless"), c, &error)) << error;
  return c;
}

// Runs `harness COMMAND ARGS...` through the command's own CLI node.
int run_command(Command (*add)(CLI::App&), std::vector<std::string> args) {
  CLI::App app{"harness"};
  const Command c = add(app);
  std::vector<std::string> argv{"harness", c.app->get_name()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<const char*> raw;
  for (const std::string& a : argv) raw.push_back(a.c_str());
  app.parse(static_cast<int>(raw.size()), raw.data());
  return c.run();
}

// The fox fixture with its grown Tail_* chain (so the retarget also bakes)
// and the canonical walk of the clip-source fixture, both as files.
struct Inputs {
  fs::path target_file, source_file;
  rig::Character target, source;
  const rig::Clip* walk = nullptr;
};

Inputs inputs() {
  Inputs in;
  pipeline::FixOutcome fixed;
  EXPECT_TRUE(pipeline::fix_character(fixture("fox"), pipeline::FixOptions{}, fixed).ok());
  EXPECT_EQ(fixed.result.chains, 1);
  in.target_file = scratch("fox_chain.glb");
  in.source_file = scratch("clips.glb");
  EXPECT_TRUE(rig::save_glb(fixed.result.character, in.target_file.string()).ok());
  EXPECT_TRUE(rig::save_glb(clip_source(), in.source_file.string()).ok());
  // What both paths read: the files, as the command reads them.
  EXPECT_TRUE(rig::load(in.target_file.string(), in.target).ok());
  EXPECT_TRUE(rig::load(in.source_file.string(), in.source).ok());
  for (const rig::Clip& c : in.source.clips)
    if (c.name == "walk") in.walk = &c;
  EXPECT_NE(in.walk, nullptr);
  return in;
}

TEST(OnePipeline, TheRetargetCommandAndTheCorpusGateWriteTheSameFile) {
  Inputs in = inputs();
  ASSERT_NE(in.walk, nullptr);
  const fs::path by_command = scratch("by_command.glb"), by_gate = scratch("by_gate.glb");
  ASSERT_EQ(run_command(add_retarget_command, {in.target_file.string(), in.source_file.string(), "--clip", "walk",
                                               "--out", by_command.string()}),
            0);

  // The gate: its per-character preparation, then the pipeline's transfer.
  const corpus::RetargetTarget gate = corpus::prepare_corpus_target(in.target, 30.0);
  pipeline::RetargetOutcome outcome;
  outcome.transfer = pipeline::retarget_clip(in.source, *in.walk, rig::calibrate(in.source.skeleton), in.target,
                                             gate.prepared);
  ASSERT_TRUE(outcome.transfer.status.ok()) << outcome.transfer.status.message;
  EXPECT_TRUE(gate.prepared.bake) << "the fixed fox has a Tail_* chain: the command bakes it";
  rig::Character target = in.target;
  ASSERT_TRUE(pipeline::add_retargeted_clip(target, gate.prepared, 30.0, "", outcome).ok());
  EXPECT_TRUE(outcome.baked);
  ASSERT_TRUE(rig::save_glb(target, by_gate.string()).ok());

  const std::string a = bytes(by_command), b = bytes(by_gate);
  ASSERT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == b) << "harness retarget and the corpus gate's retarget wrote different files (" << a.size()
                      << " vs " << b.size() << " bytes)";
}

TEST(OnePipeline, TheFixCommandIsPipelineFix) {
  const fs::path fox = scratch("fox.glb"), by_command = scratch("fix_command.glb"), by_pipeline = scratch("fix.glb");
  ASSERT_TRUE(rig::save_glb(fixture("fox"), fox.string()).ok());
  ASSERT_EQ(run_command(add_fix_command, {fox.string(), "--out", by_command.string(), "--bake"}), 0);
  rig::Character read;
  ASSERT_TRUE(rig::load(fox.string(), read).ok());
  pipeline::FixOptions options;
  options.bake = true;
  pipeline::FixOutcome outcome;
  ASSERT_TRUE(pipeline::fix_character(std::move(read), options, outcome).ok());
  EXPECT_EQ(outcome.result.chains, 1);
  EXPECT_TRUE(outcome.baked);
  ASSERT_TRUE(rig::save_glb(outcome.result.character, by_pipeline.string()).ok());
  const std::string a = bytes(by_command), b = bytes(by_pipeline);
  ASSERT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == b) << "harness fix --bake and pipeline::fix_character wrote different files";
}

}  // namespace
}  // namespace harness
