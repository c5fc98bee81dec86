// Compression extensions named before a full glTF parse (read_checks.h).
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "rig/io/read_checks.h"

namespace rig {
namespace {

constexpr std::uint32_t kGlbMagic = 0x46546C67;           // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534A;          // "JSON"
constexpr std::uint64_t kMaxJsonBytes = 256ull << 20;     // the JSON of any character we read

std::uint32_t le32(const unsigned char* b) { return b[0] | b[1] << 8 | b[2] << 16 | std::uint32_t(b[3]) << 24; }

// The JSON text of a .gltf, or of a GLB's first chunk; empty when unreadable.
std::string json_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  const std::streamoff size = f.tellg();
  if (size <= 0 || static_cast<std::uint64_t>(size) > kMaxJsonBytes * 16) return {};
  f.seekg(0);
  unsigned char head[20] = {};
  if (f.read(reinterpret_cast<char*>(head), sizeof head) && le32(head) == kGlbMagic) {
    const std::uint32_t length = le32(head + 12);
    if (le32(head + 16) != kJsonChunk || length > kMaxJsonBytes || length > static_cast<std::uint64_t>(size) - 20)
      return {};
    std::string text(length, '\0');
    return f.read(text.data(), length) ? text : std::string{};
  }
  if (static_cast<std::uint64_t>(size) > kMaxJsonBytes) return {};  // a .gltf is all JSON
  f.clear();
  f.seekg(0);
  std::string text(static_cast<size_t>(size), '\0');
  return f.read(text.data(), size) ? text : std::string{};
}

// A GLB's JSON chunk; empty when `glb` is not one or the chunk runs past it.
std::string glb_json_text(std::string_view glb) {
  const auto* head = reinterpret_cast<const unsigned char*>(glb.data());
  if (glb.size() < 20 || le32(head) != kGlbMagic || le32(head + 16) != kJsonChunk) return {};
  const std::uint32_t length = le32(head + 12);
  if (length > kMaxJsonBytes || length > glb.size() - 20) return {};
  return std::string(glb.substr(20, length));
}

// The check on the document's JSON text.
Status compression_in(const std::string& text, const std::string& path) {
  // No "extensionsRequired" key can be in a text without that string or a
  // \u escape (none of its letters has a short escape): nothing to parse.
  // A .gltf's JSON holds its base64 buffers; parsing it twice was 5 % of
  // the corpus gate (issue 47).
  if (text.find("extensionsRequired") == std::string::npos && text.find("\\u") == std::string::npos)
    return Status::Ok();
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("extensionsRequired") || !j["extensionsRequired"].is_array()) return Status::Ok();
  for (const auto& e : j["extensionsRequired"]) {
    if (!e.is_string()) continue;
    const std::string name = e.get<std::string>();
    if (is_compression_extension(name))
      return Status::Error(Status::Code::kUnsupported, path + ": requires extension " + name +
                                                           ", which tailrig cannot decode (export uncompressed)");
  }
  return Status::Ok();
}

}  // namespace

bool is_compression_extension(std::string_view name) {
  return name == "KHR_draco_mesh_compression" || name == "EXT_meshopt_compression" ||
         name == "KHR_meshopt_compression";
}

Status check_gltf_compression(const std::string& path) { return compression_in(json_text(path), path); }

Status check_glb_compression(std::string_view glb, const std::string& name) {
  return compression_in(glb_json_text(glb), name);
}

}  // namespace rig
