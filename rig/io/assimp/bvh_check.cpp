// The whole BVH grammar checked before Assimp parses a file. Assimp 5.2
// recurses once per nesting level (a deep file overflows the stack), trusts
// the frame count (memory), accepts NaN and infinity, and crashes (SIGSEGV
// in a memcpy) on some malformed hierarchies, e.g. joints whose braces do not
// balance before a stray CHANNELS line (issue 15, BVH mutant 634). So Assimp
// only ever sees a file that is well formed here:
//
//   HIERARCHY ROOT name { body } MOTION Frames: N Frame Time: t values...
//   body   = ( OFFSET x y z | CHANNELS n channel*n | JOINT name { body }
//            | End Site { [OFFSET x y z] } )*
//
// with N x (sum of n) finite, plausible motion values and every count below
// its limit (rig/io.h). Errors name the line.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rig/io/read_checks.h"
#include "rig/io/io.h"

namespace rig {
namespace {

bool value_ok(double v) { return std::isfinite(v) && std::abs(v) <= kMaxCoordinate; }

bool parse_number(const std::string& t, double& v) {
  if (t.empty()) return false;
  char* end = nullptr;
  v = std::strtod(t.c_str(), &end);
  return end && *end == '\0';
}

bool is_channel(const std::string& t) {
  return t == "Xposition" || t == "Yposition" || t == "Zposition" || t == "Xrotation" ||
         t == "Yrotation" || t == "Zrotation";
}

// Whitespace-separated tokens with their line numbers, "" at the end.
class Tokens {
 public:
  explicit Tokens(std::string text) : text_(std::move(text)) {}
  std::string next() {
    while (i_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[i_]))) {
      if (text_[i_] == '\n') ++line_;
      ++i_;
    }
    const size_t b = i_;
    while (i_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[i_]))) ++i_;
    return text_.substr(b, i_ - b);
  }
  int line() const { return line_; }

 private:
  std::string text_;
  size_t i_ = 0;
  int line_ = 1;
};

}  // namespace

Status check_bvh(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  Tokens in(ss.str());
  std::string joint = "?";
  // Messages are built by append: GCC 12 at -O3 reports a false -Wrestrict
  // on `"literal" + std::string&&`, which breaks the Release build.
  auto bad = [&](const auto&... parts) {
    std::string m = path;
    m.append(": line ").append(std::to_string(in.line())).append(": ");
    (m.append(parts), ...);
    return Status::Error(Status::Code::kBadData, m);
  };
  auto quoted = [](const std::string& t) {
    return t.empty() ? std::string("end of file") : std::string("'").append(t.substr(0, 32)).append("'");
  };
  std::string tok = in.next();
  if (tok != "HIERARCHY") return bad("not a BVH file (expected HIERARCHY, found ", quoted(tok), ")");
  if ((tok = in.next()) != "ROOT") return bad("expected ROOT, found ", quoted(tok));
  auto read_offset = [&]() -> bool {
    for (int k = 0; k < 3; ++k) {
      double v = 0;
      if (!parse_number(in.next(), v) || !value_ok(v)) return false;
    }
    return true;
  };

  // Joints open by name and '{'; `open` holds the names of the open ones.
  std::vector<std::string> open;
  int joints = 0;
  long channels = 0;
  bool open_joint = true;  // ROOT read: its name and '{' come next
  while (true) {
    if (open_joint) {
      joint = in.next();
      if (joint.empty() || joint == "{" || joint == "}") return bad("a joint without a name");
      if (++joints > kMaxJoints) return bad("more than ", std::to_string(kMaxJoints), " joints");
      if ((tok = in.next()) != "{") return bad("joint '", joint, "': expected '{', found ", quoted(tok));
      open.push_back(joint);
      if (static_cast<int>(open.size()) > kMaxNodeDepth)
        return bad("joints nested deeper than ", std::to_string(kMaxNodeDepth), " levels");
      open_joint = false;
    }
    tok = in.next();
    if (tok == "OFFSET") {
      if (!read_offset()) return bad("joint '", joint, "': OFFSET is not a finite, plausible number");
    } else if (tok == "CHANNELS") {
      double n = 0;
      if (!parse_number(in.next(), n) || n < 0 || n > 9 || n != std::floor(n))
        return bad("joint '", joint, "': CHANNELS count is not 0..9");
      for (int k = 0; k < static_cast<int>(n); ++k) {
        if (!is_channel(tok = in.next())) return bad("joint '", joint, "': ", quoted(tok), " is no channel");
      }
      channels += static_cast<long>(n);
    } else if (tok == "JOINT") {
      open_joint = true;
    } else if (tok == "End") {
      if ((tok = in.next()) != "Site") return bad("expected 'End Site', found 'End' ", quoted(tok));
      if ((tok = in.next()) != "{") return bad("End Site: expected '{', found ", quoted(tok));
      tok = in.next();
      if (tok == "OFFSET") {
        if (!read_offset()) return bad("joint '", joint, "' End Site: OFFSET is not a finite, plausible number");
        tok = in.next();
      }
      if (tok != "}") return bad("End Site: expected '}', found ", quoted(tok));
    } else if (tok == "}") {
      open.pop_back();
      if (open.empty()) break;
      joint = open.back();
    } else {
      return bad("joint '", joint, "': unexpected ", quoted(tok), " in the hierarchy");
    }
  }

  if ((tok = in.next()) != "MOTION") return bad("expected MOTION after the hierarchy, found ", quoted(tok));
  if ((tok = in.next()) != "Frames:") return bad("expected 'Frames:', found ", quoted(tok));
  const std::string frames_tok = in.next();
  double frames = 0;
  if (!parse_number(frames_tok, frames) || !(frames >= 0) || frames != std::floor(frames))
    return bad("Frames: ", quoted(frames_tok), " is not a frame count");
  if (frames > static_cast<double>(kMaxFrames))
    return bad("Frames: ", frames_tok, " is over the limit of ", std::to_string(kMaxFrames));
  if (in.next() != "Frame" || in.next() != "Time:") return bad("'Frame Time:' missing after Frames");
  double dt = 0;
  const std::string dt_tok = in.next();
  if (!parse_number(dt_tok, dt) || !std::isfinite(dt) || dt <= 0 || dt > 10)
    return bad("Frame Time: ", quoted(dt_tok), " is not a positive number of seconds (at most 10)");
  if (frames * dt > kMaxClipSeconds) return bad("clip is longer than ", std::to_string(kMaxClipSeconds), " s");
  const long want = static_cast<long>(frames) * channels;
  long got = 0;
  while (!(tok = in.next()).empty()) {
    double v = 0;
    const long frame = channels > 0 ? got / channels : 0;
    if (!parse_number(tok, v) || !value_ok(v))
      return bad("frame ", std::to_string(frame), ": motion value ", quoted(tok),
                 " is not a finite, plausible number");
    ++got;
  }
  if (got < want)
    return bad("declares ", frames_tok, " frames of ", std::to_string(channels), " channels but holds ",
               std::to_string(channels > 0 ? got / channels : 0));
  return Status::Ok();
}

}  // namespace rig
