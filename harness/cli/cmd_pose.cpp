// `harness pose FILE --clip NAME --time T [--time T...] --out positions.json`:
// skinned vertex positions of a clip at given times through our own
// clip sampling and linear blend skinning, for comparison with other clients
// (scripts/blender/check_bake.py). Positions are in the file's scene space
// (glTF: Y up, file units), one entry per loaded vertex in load order
// (primitives concatenated, original vertex order), flattened x,y,z.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/cli/command.h"
#include "rig/io/io.h"
#include "rig/io/safe_write.h"
#include "rig/model/pose.h"
#include "rig/model/weld.h"

namespace harness {

Command add_pose_command(CLI::App& root) {
  struct Options {
    std::string file, clip, out;
    std::vector<double> times;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("pose", "Skinned vertex positions of a clip at given times (JSON), for cross-checks");
  c.app->add_option("FILE", opt->file, "rigged character")->required();
  c.app->add_option("--clip", opt->clip, "clip name")->required();
  c.app->add_option("--time", opt->times, "time in seconds (repeat for several)")->required();
  c.app->add_option("--out", opt->out, "output JSON")->required();
  c.run = [opt] {
    auto fail = [](const std::string& m) {
      std::fprintf(stderr, "harness pose: %s\n", m.c_str());
      return int(kExitBadInput);
    };
    rig::Character ch;
    if (rig::Status s = rig::load(opt->file, ch); !s.ok()) return fail(s.message);
    if (!ch.has_skin()) return fail(opt->file + ": no skinned mesh");
    const rig::Clip* clip = nullptr;
    for (const rig::Clip& k : ch.clips)
      if (k.name == opt->clip) clip = &k;
    if (!clip) return fail(opt->file + ": no clip '" + opt->clip + "'");
    for (double t : opt->times)
      if (!std::isfinite(t)) return fail("--time must be finite");
    auto flat = [](const std::vector<rig::Vec3>& v) {
      std::vector<double> out;
      out.reserve(v.size() * 3);
      for (const auto& p : v) out.insert(out.end(), {p.x(), p.y(), p.z()});
      return out;
    };
    nlohmann::json posed = nlohmann::json::array();
    for (double t : opt->times) {
      const auto world = rig::pose_at(ch.skeleton, *clip, t);
      const auto pos = rig::skin_positions(ch.mesh, ch.skin, ch.skeleton, world);
      for (const auto& p : pos)
        if (!p.allFinite()) return fail("non-finite skinned position at t=" + std::to_string(t));
      posed.push_back(flat(pos));
    }
    nlohmann::json prims = nlohmann::json::array();
    for (const auto& p : ch.mesh.primitives)
      prims.push_back({{"mesh", p.mesh}, {"primitive", p.primitive}, {"first_vertex", p.first_vertex},
                       {"vertex_count", p.vertex_count}, {"name", p.name}});
    const nlohmann::json doc = {{"file", opt->file},
                                {"clip", clip->name},
                                {"duration", clip->duration},
                                {"height", rig::model_height(ch.mesh.positions)},
                                {"meters_per_unit", ch.meters_per_unit},
                                {"times", opt->times},
                                {"primitives", prims},
                                {"vertex_count", ch.mesh.vertex_count()},
                                {"bind", flat(ch.mesh.positions)},
                                {"posed", posed}};
    if (rig::Status s = rig::write_file_atomic(opt->out, doc.dump() + "\n"); !s.ok()) return fail(s.message);
    std::printf("%s: clip '%s', %zu times, %d vertices -> %s\n", opt->file.c_str(), clip->name.c_str(),
                opt->times.size(), ch.mesh.vertex_count(), opt->out.c_str());
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
