// The file layer of GLB writing (see gltf_document.h): the document copied
// without its bytes, and encoded into a file.
#include <cstdint>
#include <span>
#include <string_view>

#include "rig/io/gltf/gltf_document.h"
#include "rig/io/gltf/string_sink.h"
#include "rig/io/safe_write.h"

namespace rig::gltf_doc {

tinygltf::Model copy_without_bytes(const tinygltf::Model& src) {
  // A member tinygltf adds must be copied here too (the size says so).
  static_assert(sizeof(tinygltf::Model) == 16 * sizeof(std::vector<int>) + 8 + sizeof(tinygltf::Asset) +
                                               sizeof(tinygltf::Value) + sizeof(tinygltf::ExtensionMap) +
                                               2 * sizeof(std::string));
  static_assert(sizeof(tinygltf::Buffer) == 4 * sizeof(std::string) + sizeof(std::vector<unsigned char>) +
                                                sizeof(tinygltf::Value) + sizeof(tinygltf::ExtensionMap));
  tinygltf::Model m;
  m.accessors = src.accessors;
  m.animations = src.animations;
  for (const tinygltf::Buffer& b : src.buffers) {
    tinygltf::Buffer& to = m.buffers.emplace_back();
    to.name = b.name;
    to.uri = b.uri;
    to.extras = b.extras;
    to.extensions = b.extensions;
    to.extras_json_string = b.extras_json_string;
    to.extensions_json_string = b.extensions_json_string;
  }
  m.bufferViews = src.bufferViews;
  m.materials = src.materials;
  m.meshes = src.meshes;
  m.nodes = src.nodes;
  m.textures = src.textures;
  m.images = src.images;
  m.skins = src.skins;
  m.samplers = src.samplers;
  m.cameras = src.cameras;
  m.scenes = src.scenes;
  m.lights = src.lights;
  m.defaultScene = src.defaultScene;
  m.extensionsUsed = src.extensionsUsed;
  m.extensionsRequired = src.extensionsRequired;
  m.asset = src.asset;
  m.extras = src.extras;
  m.extensions = src.extensions;
  m.extras_json_string = src.extras_json_string;
  m.extensions_json_string = src.extensions_json_string;
  return m;
}

namespace {

// The GLB's JSON chunk text with buffer 0's byteLength 0 (as tinygltf wrote
// it for an empty buffer) set to `bytes`: the first key of the first object
// in the top-level "buffers" array (keys are written sorted and compact).
// False when the text is not laid out so (the caller then lets tinygltf
// write everything).
bool set_first_buffer_length(std::string& json, const size_t bytes) {
  static const std::string kAt = "\"buffers\":[{\"byteLength\":0";
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (depth == 1 && json.compare(i, kAt.size(), kAt) == 0) {
      const size_t digit = i + kAt.size() - 1;
      if (digit + 1 >= json.size() || (json[digit + 1] != ',' && json[digit + 1] != '}')) return false;
      json.replace(digit, 1, std::to_string(bytes));
      return true;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') --depth;
  }
  return false;
}

// tinygltf's GLB encoding of `m` (WriteGltfSceneToStream, binary) into one string.
Status encode_glb(const tinygltf::Model& m, const std::string& path, std::string& glb, const size_t reserve) {
  StringSink sink(reserve);
  std::ostream bytes(&sink);
  tinygltf::TinyGLTF w;
  try {
    if (!w.WriteGltfSceneToStream(&m, bytes, false, true) || !bytes)
      return Status::Error(Status::Code::kIoError, path + ": cannot encode the glTF document");
  } catch (const std::exception& e) {
    return Status::Error(Status::Code::kIoError, path + ": cannot encode the glTF document: " + e.what());
  }
  glb.assign(sink.view());
  return Status::Ok();
}

uint32_t le32(const unsigned char* p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24; }

std::string le32_bytes(const uint32_t v) {
  return {static_cast<char>(v & 0xff), static_cast<char>(v >> 8 & 0xff), static_cast<char>(v >> 16 & 0xff),
          static_cast<char>(v >> 24)};
}

// The GLB's bytes, `pieces` one after the other: into `*bytes` when given,
// else into the file at `path`.
Status put_glb(const std::string& path, std::span<const std::string_view> pieces, std::string* bytes) {
  if (!bytes) return write_file_atomic(path, pieces);
  size_t size = 0;
  for (std::string_view p : pieces) size += p.size();
  bytes->clear();
  bytes->reserve(size);
  for (std::string_view p : pieces) bytes->append(p);
  return Status::Ok();
}

}  // namespace

Status write_glb(tinygltf::Model& m, const std::string& path, std::vector<std::string>& notes, std::string* bytes) {
  repair_animated_matrices(m, notes);
  repair_node_rotations(m, notes);
  if (Status s = repair_samplers(m, notes); !s.ok()) return s;
  repair_skin_skeletons(m, notes);
  repair_unreadable_images(m, notes);
  repair_infinite_cameras(m, notes);
  repair_missing_bounds(m, notes);
  for (auto& img : m.images) img.image.clear();  // bytes live in buffer views now
  // tinygltf's file writer does not check its stream: encode to memory, then
  // write the bytes ourselves (temp file, fsync, rename). One binary buffer
  // (every document we write after prune_and_repack): tinygltf encodes the
  // document without its bytes, and the file is that JSON (its byteLength
  // set), then the buffer written from where it lies: tinygltf would copy
  // it twice (its BIN chunk, then our string), 100 MB of fresh pages at
  // 1 M vertices (issue 47). The same bytes as tinygltf's GLB writer.
  std::string glb;
  if (m.buffers.size() == 1 && m.buffers[0].uri.empty() && !m.buffers[0].data.empty() &&
      m.buffers[0].data.size() < (size_t{1} << 31)) {
    std::vector<unsigned char> bin = std::move(m.buffers[0].data);
    m.buffers[0].data.clear();
    Status encoded = encode_glb(m, path, glb, size_t{1} << 20);
    m.buffers[0].data = std::move(bin);
    if (!encoded.ok()) return encoded;
    const std::vector<unsigned char>& data = m.buffers[0].data;
    const auto* head = reinterpret_cast<const unsigned char*>(glb.data());
    // Without a BIN chunk tinygltf wrote the header and the JSON chunk only.
    std::string json;
    if (glb.size() >= 20 && le32(head + 8) == glb.size() && le32(head + 12) == glb.size() - 20)
      json = glb.substr(20, glb.find_last_not_of(' ') + 1 - 20);
    if (!json.empty() && set_first_buffer_length(json, data.size())) {
      const size_t json_pad = (4 - json.size() % 4) % 4, bin_pad = (4 - data.size() % 4) % 4;
      const size_t total = 12 + 8 + json.size() + json_pad + 8 + data.size() + bin_pad;
      if (total < (size_t{1} << 32)) {
        const std::string header = std::string("glTF") + le32_bytes(2) + le32_bytes(static_cast<uint32_t>(total)) +
                                   le32_bytes(static_cast<uint32_t>(json.size() + json_pad)) + le32_bytes(0x4E4F534A);
        const std::string json_padding(json_pad, ' ');
        const std::string bin_header =
            le32_bytes(static_cast<uint32_t>(data.size() + bin_pad)) + le32_bytes(0x004E4942);
        const std::string bin_padding(bin_pad, '\0');
        const std::string_view pieces[] = {header, json, json_padding, bin_header,
                                           {reinterpret_cast<const char*>(data.data()), data.size()}, bin_padding};
        return put_glb(path, pieces, bytes);
      }
    }
  }
  size_t buffer_bytes = 0;
  for (const tinygltf::Buffer& b : m.buffers) buffer_bytes += b.data.size();
  if (Status s = encode_glb(m, path, glb, buffer_bytes + (size_t{1} << 20)); !s.ok()) return s;
  if (bytes) {
    *bytes = std::move(glb);
    return Status::Ok();
  }
  return write_file_atomic(path, glb);
}

}  // namespace rig::gltf_doc
