#include "harness/gate/report_viewer.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "harness/gate/paths.h"
#include "pipeline/fix.h"
#include "rig/io/io.h"
#include "rig/io/safe_write.h"

namespace harness {

namespace {

namespace fs = std::filesystem;

// The files the page runs, relative to web/, in web/viewer/modules.txt (one
// a line): ES modules the page's loader resolves by these paths.
constexpr const char* kModuleList = "viewer/modules.txt";
constexpr const char* kTemplate = "viewer/viewer.html";
constexpr const char* kPayloadMark = "<!--tailrig:payload-->";

std::string base64(const std::string& bytes) {
  static const char* const kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return static_cast<bool>(in) || in.eof();
}

// One inlined payload: base64 in a text/plain script the page decodes, so
// no byte of it can end the script element early.
std::string payload(const std::string& kind, const std::string& name, const std::string& bytes) {
  return "<script type=\"text/plain\" data-kind=\"" + kind + "\" data-name=\"" + name + "\">" +
         base64(bytes) + "</script>\n";
}

// The scenario whose character the viewer shows: the first edge-stretch
// scenario on a fixture (walk_stretch's fox), else the first on a fixture.
const Scenario* viewer_scenario(const std::vector<Scenario>& scenarios) {
  const auto on_fixture = [](const Scenario& s) {
    return s.character.is_object() && s.character.contains("fixture") && !s.clip.empty();
  };
  for (const Scenario& s : scenarios)
    if (on_fixture(s) && s.kind == "edge_stretch") return &s;
  for (const Scenario& s : scenarios)
    if (on_fixture(s)) return &s;
  return nullptr;
}

// Before (as the rigger left it) and after (fix, tail baked) as GLB bytes.
rig::Status character_payloads(const std::string& dir, const Scenario& s, std::string& html) {
  rig::Character before;
  if (rig::Status st = load_character_spec(s, s.character, before); !st.ok()) return st;
  pipeline::FixOptions options;
  options.bake = true;
  pipeline::FixOutcome outcome;
  if (rig::Status st = pipeline::fix_character(rig::Character(before), options, outcome); !st.ok())
    return st;
  const fs::path before_path = fs::path(dir) / (s.name + ".before.glb");
  const fs::path after_path = fs::path(dir) / (s.name + ".after.glb");
  if (rig::Status st = rig::save_glb(before, before_path.string()); !st.ok()) return st;
  if (rig::Status st = rig::save_glb(outcome.result.character, after_path.string()); !st.ok())
    return st;
  std::string bytes;
  if (!read_file(before_path, bytes))
    return rig::Status::Error(rig::Status::Code::kIoError, "cannot read " + before_path.string());
  html += payload("glb", "before", bytes);
  if (!read_file(after_path, bytes))
    return rig::Status::Error(rig::Status::Code::kIoError, "cannot read " + after_path.string());
  html += payload("glb", "after", bytes);
  const nlohmann::json meta = {{"scenario", s.name}, {"clip", s.clip}};
  html += payload("json", "character", meta.dump());
  return rig::Status::Ok();
}

}  // namespace

rig::Status write_viewer(const std::string& dir, const std::vector<Scenario>& scenarios,
                         const nlohmann::json& results, std::string& note) {
  note.clear();
  const fs::path web = fs::path(data_dir()) / "web";
  std::string page, list;
  if (!read_file(web / kTemplate, page) || !read_file(web / kModuleList, list)) {
    note = "viewer.html not written: no web/viewer beside the scenarios (" + web.string() + ")";
    return rig::Status::Ok();
  }
  std::string html;
  std::istringstream lines(list);
  for (std::string path; std::getline(lines, path);) {
    if (path.empty() || path[0] == '#') continue;
    std::string bytes;
    if (!read_file(web / path, bytes)) {
      note = "viewer.html not written: " + (web / path).string() +
             " is missing (npm ci and npm run build in web/)";
      return rig::Status::Ok();
    }
    html += payload(path.ends_with(".wasm") ? "wasm" : "module", path, bytes);
  }
  html += payload("json", "results", results.dump());
  if (const Scenario* s = viewer_scenario(scenarios)) {
    if (rig::Status st = character_payloads(dir, *s, html); !st.ok()) return st;
  }
  const size_t mark = page.find(kPayloadMark);
  if (mark == std::string::npos)
    return rig::Status::Error(rig::Status::Code::kIoError,
                              (web / kTemplate).string() + " has no " + kPayloadMark);
  page.replace(mark, std::string(kPayloadMark).size(), html);
  return rig::write_file_atomic((fs::path(dir) / "viewer.html").string(), page);
}

}  // namespace harness
