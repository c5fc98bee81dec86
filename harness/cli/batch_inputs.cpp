#include "harness/cli/batch_inputs.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace harness {

namespace fs = std::filesystem;
using rig::Status;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool has_character_extension(const fs::path& p) { return rig::is_character_format(rig::format_of_path(p.string())); }

Status bad(const std::string& m) { return Status::Error(Status::Code::kBadData, m); }

// Stems, then stem_ext where a stem repeats, then -N where still taken.
void assign_names(std::vector<BatchInput>& inputs) {
  std::map<std::string, int> stems;
  for (const auto& in : inputs) ++stems[fs::path(in.path).stem().string()];
  std::set<std::string> taken;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const fs::path p(inputs[i].path);
    std::string name = p.stem().string();
    if (stems[name] > 1) name += "_" + lower(p.extension().string()).substr(p.extension().empty() ? 0 : 1);
    if (name.empty()) name = "file";
    if (taken.count(name)) name += "-" + std::to_string(i + 1);
    taken.insert(name);
    inputs[i].name = name;
  }
}

}  // namespace

Status list_batch_inputs(const std::string& dir_or_list, std::vector<BatchInput>& out) {
  out.clear();
  std::error_code ec;
  const fs::path src(dir_or_list);
  if (fs::is_directory(src, ec)) {
    for (fs::directory_iterator it(src, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file(ec) || !has_character_extension(it->path())) continue;
      if (out.size() >= kMaxBatchFiles)
        return bad(dir_or_list + ": more than " + std::to_string(kMaxBatchFiles) + " files (split the folder)");
      out.push_back({it->path().string(), {}});
    }
    if (ec) return Status::Error(Status::Code::kIoError, dir_or_list + ": cannot list the folder: " + ec.message());
    std::sort(out.begin(), out.end(), [](const BatchInput& a, const BatchInput& b) { return a.path < b.path; });
  } else if (fs::is_regular_file(src, ec)) {
    if (fs::file_size(src, ec) > kMaxListFileBytes) return bad(dir_or_list + ": list file over 256 MiB");
    std::ifstream f(src);
    if (!f) return Status::Error(Status::Code::kIoError, dir_or_list + ": cannot read the list");
    const fs::path base = src.parent_path();
    std::string line;
    while (std::getline(f, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
      const size_t start = line.find_first_not_of(" \t");
      if (start == std::string::npos || line[start] == '#') continue;
      fs::path p(line.substr(start));
      if (p.is_relative()) p = base / p;
      if (out.size() >= kMaxBatchFiles)
        return bad(dir_or_list + ": more than " + std::to_string(kMaxBatchFiles) + " files (split the list)");
      out.push_back({p.lexically_normal().string(), {}});
    }
  } else {
    return Status::Error(Status::Code::kNotFound, dir_or_list + ": no such folder or list file");
  }
  if (out.empty()) return bad(dir_or_list + ": no character files (.glb .gltf .fbx .dae)");
  assign_names(out);
  return Status::Ok();
}

Status parse_shard(const std::string& text, int& index, int& count) {
  const size_t slash = text.find('/');
  auto number = [](const std::string& s, int& v) {
    const auto [p, e] = std::from_chars(s.data(), s.data() + s.size(), v);
    return e == std::errc() && p == s.data() + s.size() && !s.empty();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), index) || !number(text.substr(slash + 1), count) ||
      count < 1 || count > 100000 || index < 0 || index >= count)
    return bad("--shard '" + text + "': expected i/N with 0 <= i < N <= 100000 (e.g. 0/3, 1/3, 2/3)");
  return Status::Ok();
}

std::vector<BatchInput> shard_of(const std::vector<BatchInput>& all, int index, int count) {
  std::vector<BatchInput> out;
  for (size_t p = static_cast<size_t>(index); p < all.size(); p += static_cast<size_t>(count)) out.push_back(all[p]);
  return out;
}

}  // namespace harness
