#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "rig/io/assimp/assimp_read.h"
#include "rig/io/gltf/gltf_source.h"
#include "rig/io/read_checks.h"
#include "rig/io/io.h"
#include "rig/model/weld.h"

namespace rig {

FileFormat format_of_path(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".glb") return FileFormat::kGlb;
  if (ext == ".gltf") return FileFormat::kGltf;
  if (ext == ".fbx") return FileFormat::kFbx;
  if (ext == ".bvh") return FileFormat::kBvh;
  if (ext == ".dae") return FileFormat::kDae;
  return FileFormat::kOther;
}

bool is_character_format(FileFormat f) {
  return f == FileFormat::kGlb || f == FileFormat::kGltf || f == FileFormat::kFbx || f == FileFormat::kDae;
}

namespace {

// Height of what the file holds: mesh if skinned, else the bind skeleton.
double extent_height(const Character& c) {
  if (c.has_skin()) return model_height(c.mesh.positions);
  std::vector<Vec3> joints;
  for (const Mat4& m : c.skeleton.bind_world) joints.emplace_back(m.block<3, 1>(0, 3));
  return model_height(joints) * 1.1;  // joints stop below the top of the head
}

// The last step of load: the model's extent checked, the unit guessed where
// the format does not declare it; `s` (the read's status, with its notes)
// returned.
Status with_units(const std::string& path, const FileFormat f, Character& out, Status s) {
  const double h = extent_height(out);
  if (!std::isfinite(h)) return Status::Error(Status::Code::kBadData, path + ": model extent is not finite");
  if (out.meters_per_unit <= 0 || f == FileFormat::kGlb || f == FileFormat::kGltf || f == FileFormat::kBvh) {
    out.meters_per_unit = guess_meters_per_unit(h);
    out.unit_declared = false;
  }
  return s;
}

}  // namespace

namespace {

template <typename T>
int dedupe_track(Track<T>& tr) {
  const size_t per_key = tr.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (tr.times.size() < 2 || tr.values.size() != tr.times.size() * per_key) return 0;
  std::vector<double> times;
  std::vector<T> values;
  for (size_t k = 0; k < tr.times.size(); ++k) {
    const auto first = tr.values.begin() + static_cast<std::ptrdiff_t>(k * per_key);
    if (!times.empty() && tr.times[k] <= times.back()) {
      std::copy(first, first + per_key, values.end() - per_key);
      continue;
    }
    times.push_back(tr.times[k]);
    values.insert(values.end(), first, first + per_key);
  }
  const int dropped = static_cast<int>(tr.times.size() - times.size());
  tr.times = std::move(times);
  tr.values = std::move(values);
  return dropped;
}

}  // namespace

int make_key_times_increasing(Clip& clip) {
  int dropped = 0;
  for (JointTracks& jt : clip.tracks)
    dropped += dedupe_track(jt.translation) + dedupe_track(jt.rotation) + dedupe_track(jt.scale);
  return dropped;
}

double guess_meters_per_unit(double height_in_units) {
  // People and creatures are 0.2-5 m tall; 20-500 units means centimetres.
  if (height_in_units > 20.0 && height_in_units < 1000.0) return 0.01;
  if (height_in_units >= 1000.0) return 0.001;
  return 1.0;
}

Status load(const std::string& path, Character& out) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return Status::Error(Status::Code::kNotFound, path + ": no such file");
  if (std::filesystem::is_directory(path, ec))
    return Status::Error(Status::Code::kBadData, path + ": is a directory, not a file");
  if (!std::ifstream(path, std::ios::binary))
    return Status::Error(Status::Code::kIoError, path + ": cannot open for reading");
  const FileFormat f = format_of_path(path);
  Status s;
  try {
    if (f == FileFormat::kGlb || f == FileFormat::kGltf) {
      if (Status c = check_gltf_compression(path); !c.ok()) return c;
      s = load_gltf(path, out);
    } else {
      s = load_assimp(path, f, out);
    }
  } catch (const std::exception& e) {
    return Status::Error(Status::Code::kBadData, path + ": " + e.what());
  }
  if (!s.ok()) return s;
  return with_units(path, f, out, std::move(s));
}

Status load_glb_bytes(std::string_view bytes, const std::string& name, Character& out) {
  Status s;
  try {
    if (Status c = check_glb_compression(bytes, name); !c.ok()) return c;
    s = load_gltf_bytes(bytes, name, out);
  } catch (const std::exception& e) {
    return Status::Error(Status::Code::kBadData, name + ": " + e.what());
  }
  if (!s.ok()) return s;
  return with_units(name, FileFormat::kGlb, out, std::move(s));
}

}  // namespace rig
