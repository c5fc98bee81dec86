// The files `harness batch` works on: a folder's characters or a list file,
// sorted, named for the output folder, and split into shards.
#pragma once

#include <string>
#include <vector>

#include "rig/io/io.h"

namespace harness {

struct BatchInput {
  std::string path;  // as found (folder + file name) or as listed
  std::string name;  // output base name: the file's stem, unique in the batch
};

// Upper bounds: a batch is many files, never an unbounded read.
constexpr size_t kMaxBatchFiles = 1000000;
constexpr size_t kMaxListFileBytes = 256u << 20;

// DIR: every character file directly in it (.glb .gltf .fbx .dae, any case),
// sorted by name. Otherwise a text file with one path per line (blank lines
// and lines starting with '#' skipped; relative paths are relative to the
// list's folder), in its order. Names are the stems; stems that occur twice
// get their extension appended (a.glb, a.fbx -> a_glb, a_fbx), and a name
// still taken gets the file's position (-2, -3, ...).
rig::Status list_batch_inputs(const std::string& dir_or_list, std::vector<BatchInput>& out);

// "i/N" (0 <= i < N <= 100000) -> index, count.
rig::Status parse_shard(const std::string& text, int& index, int& count);

// Shard `index` of `count`: the inputs at positions p with p % count == index,
// so the shards partition the batch and each gets every count-th file.
std::vector<BatchInput> shard_of(const std::vector<BatchInput>& all, int index, int count);

}  // namespace harness
