// What an operation that can fail returns: a code, a one-line message that
// says what and where, and the repairs it made to imperfect input. Offline
// code (IO, detect, the pipeline) returns it; the runtime solver never fails.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rig {

struct Status {
  enum class Code { kOk, kNotFound, kUnsupported, kBadData, kIoError };
  Code code = Code::kOk;
  std::string message;  // one line, says what and where
  // Repairs made to imperfect input (also on success), one line each, for the
  // CLI to print on stderr: "file.glb: 3 repeated key times dropped (...)".
  std::vector<std::string> notes;
  bool ok() const { return code == Code::kOk; }
  static Status Ok() { return {}; }
  // Line breaks in `m` (third-party error text) are joined into one line.
  static Status Error(Code c, std::string m) {
    for (char& ch : m)
      if (ch == '\n' || ch == '\r') ch = ' ';
    while (!m.empty() && m.back() == ' ') m.pop_back();
    return {c, std::move(m), {}};
  }
};

}  // namespace rig
