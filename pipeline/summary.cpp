#include "pipeline/summary.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "pipeline/leg_colliders.h"
#include "rig/anatomy/facing.h"
#include "rig/anatomy/figures.h"
#include "rig/retarget/contact/placement.h"
#include "rig/anatomy/roles.h"
#include "rig/model/weld.h"

namespace pipeline {

nlohmann::json summarize(const rig::Character& c) {
  using nlohmann::json;
  json s;
  s["file"] = c.source_path;
  s["format"] = rig::format_name(c.format);
  s["kind"] = c.has_skin() ? "character" : "clip source";
  const double h = c.has_skin() ? rig::model_height(c.mesh.positions) : 0.0;
  s["height_units"] = h;
  s["meters_per_unit"] = c.meters_per_unit;
  s["height_m"] = h * c.meters_per_unit;
  s["unit_guess"] = c.meters_per_unit == 1.0 ? "metres" : c.meters_per_unit == 0.01 ? "centimetres"
                    : c.meters_per_unit == 0.001 ? "millimetres" : "other";
  s["unit_declared"] = c.unit_declared;
  json prims = json::array();
  for (const auto& p : c.mesh.primitives)
    prims.push_back({{"mesh", p.mesh}, {"primitive", p.primitive}, {"name", p.name}, {"vertices", p.vertex_count}});
  s["primitives"] = prims;
  const rig::Welded w = rig::weld_by_position(c.mesh.positions, c.mesh.triangles, kWeldToleranceOfH * h);
  s["vertices"] = {{"raw", c.mesh.vertex_count()}, {"welded", w.count()}};
  s["triangles"] = {{"raw", c.mesh.triangles.size()}, {"welded", w.triangles.size()}};

  const rig::Skeleton& sk = c.skeleton;
  std::vector<int> vertices_per_bone(sk.size(), 0);
  size_t max_infl = 0;
  for (const auto& infl : c.skin.influences) {
    max_infl = std::max(max_infl, infl.size());
    for (const auto& in : infl) vertices_per_bone[in.joint]++;
  }
  json joints = json::array();
  for (int j = 0; j < sk.size(); ++j) {
    const Eigen::Vector3d p = sk.bind_world[j].block<3, 1>(0, 3);
    joints.push_back({{"name", sk.names[j]}, {"parent", sk.parents[j]}, {"role", rig::role_name(sk.roles[j])},
                      {"vertices", vertices_per_bone[j]}, {"bind_position", {p.x(), p.y(), p.z()}}});
  }
  s["skeleton"] = joints;
  // Which way the body faces (rig/facing.h): glTF's +Z, or where its sides
  // say; roles, retarget and bake read the character turned to face +Z.
  bool sided = false;
  const rig::Facing facing = rig::facing_from_roles(sk, &sided);
  const Eigen::Vector3d fwd = facing.forward();
  // Sides named from the viewer's (rig/roles.h: the toes overruled them):
  // every sided name on the other side from its role.
  int named_sided = 0, named_swapped = 0;
  for (int j = 0; j < sk.size(); ++j) {
    const rig::Side named = rig::role_from_name(sk.names[j]).side;
    if (named == rig::Side::kCenter || sk.roles[j].side == rig::Side::kCenter) continue;
    ++named_sided;
    named_swapped += named != sk.roles[j].side;
  }
  s["facing"] = {{"forward", {fwd.x(), fwd.y(), fwd.z()}},
                 {"from_roles", sided},
                 {"side_names_swapped", named_sided > 0 && named_swapped == named_sided}};
  int unweighted = 0;
  for (const auto& infl : c.skin.influences) unweighted += infl.empty();
  s["skin"] = {{"max_influences", max_infl}, {"unweighted_vertices", unweighted}};
  if (const std::vector<rig::Figure> figures = rig::skinned_figures(c, sk.roles); figures.size() > 1)
    s["several_characters"] = rig::several_figures_reason(sk, figures);
  if (c.has_skin()) {  // what a viewer does with the bind pose: body on the floor, tail skin ignored (SPEC §5)
    const rig::Placement p = rig::place_on_floor(c);
    s["placement"] = {{"vertical_offset", p.vertical_offset}, {"body_bottom", p.body_bottom},
                      {"mesh_bottom", p.mesh_bottom}, {"tail_vertices", p.tail_vertices}};
  }
  json clips = json::array();
  for (const auto& clip : c.clips)
    clips.push_back({{"name", clip.name}, {"duration_s", clip.duration}, {"tracks", clip.tracks.size()}});
  s["clips"] = clips;
  if (!c.colliders.empty()) {  // issue 46: what a fixed file stores (extras.tailrig_collider)
    s["leg_colliders"] = colliders_json(c, "stored");
    s["leg_colliders"]["line"] = colliders_line(c, "stored in the file");
  }
  return s;
}

void print_summary(const nlohmann::json& s, std::FILE* out) {
  std::fprintf(out, "%s: %s %s\n", s["file"].get<std::string>().c_str(), s["format"].get<std::string>().c_str(),
               s["kind"].get<std::string>().c_str());
  if (s["kind"] == "character") {
    std::fprintf(out, "  height H: %.4g units = %.3f m (unit %s: %s)\n", s["height_units"].get<double>(),
                 s["height_m"].get<double>(), s["unit_declared"].get<bool>() ? "declared by the file" : "guess",
                 s["unit_guess"].get<std::string>().c_str());
    std::fprintf(out, "  vertices: %d raw, %d welded; triangles: %d raw, %d welded; %zu primitive(s)\n",
                 s["vertices"]["raw"].get<int>(), s["vertices"]["welded"].get<int>(),
                 s["triangles"]["raw"].get<int>(), s["triangles"]["welded"].get<int>(), s["primitives"].size());
    for (const auto& p : s["primitives"])
      std::fprintf(out, "    mesh %d primitive %d '%s': %d vertices\n", p["mesh"].get<int>(), p["primitive"].get<int>(),
                   p["name"].get<std::string>().c_str(), p["vertices"].get<int>());
    std::fprintf(out, "  skin: up to %d influences per vertex, %d unweighted vertices\n",
                 s["skin"]["max_influences"].get<int>(), s["skin"]["unweighted_vertices"].get<int>());
    if (s.contains("several_characters"))
      std::fprintf(out, "  %s: fix and retarget take one character per file\n",
                   s["several_characters"].get<std::string>().c_str());
    const auto& pl = s["placement"];
    std::fprintf(out, "  viewer placement: lift %.4g units (body bottom %.4g, whole mesh %.4g, %d tail or prop skin vertices ignored)\n",
                 pl["vertical_offset"].get<double>(), pl["body_bottom"].get<double>(), pl["mesh_bottom"].get<double>(),
                 pl["tail_vertices"].get<int>());
  }
  const auto& joints = s["skeleton"];
  if (s.contains("facing") && s["facing"]["from_roles"].get<bool>()) {
    const auto& f = s["facing"]["forward"];
    const double fx = f[0].get<double>(), fz = f[2].get<double>();
    const char* axis = fz == 1 ? "+Z (glTF)" : fz == -1 ? "-Z" : fx == 1 ? "+X" : fx == -1 ? "-X" : nullptr;
    const char* swapped = s["facing"].value("side_names_swapped", false)
                              ? " (its left/right names are the viewer's: the toes point the other way)"
                              : "";
    if (axis) std::fprintf(out, "  facing: %s, from the body's sides%s\n", axis, swapped);
    else std::fprintf(out, "  facing: (%.3f, 0, %.3f), from the body's sides%s\n", fx, fz, swapped);
  }
  std::fprintf(out, "  skeleton: %zu joints\n", joints.size());
  std::function<void(int, int)> tree = [&](int j, int depth) {
    const auto& jj = joints[j];
    std::string role = jj["role"];
    std::fprintf(out, "    %*s%s%s%s", depth * 2, "", jj["name"].get<std::string>().c_str(),
                 role == "none" ? "" : "  [", role == "none" ? "" : (role + "]").c_str());
    if (s["kind"] == "character") std::fprintf(out, "  (%d vertices)", jj["vertices"].get<int>());
    std::fprintf(out, "\n");
    for (size_t k = 0; k < joints.size(); ++k)
      if (joints[k]["parent"].get<int>() == j) tree(static_cast<int>(k), depth + 1);
  };
  for (size_t j = 0; j < joints.size(); ++j)
    if (joints[j]["parent"].get<int>() < 0) tree(static_cast<int>(j), 0);
  if (s.contains("leg_colliders"))
    std::fprintf(out, "  %s\n", s["leg_colliders"]["line"].get<std::string>().c_str());
  std::fprintf(out, "  clips: %zu\n", s["clips"].size());
  for (const auto& c : s["clips"])
    std::fprintf(out, "    %-24s %8.3f s  %d tracks\n", c["name"].get<std::string>().c_str(),
                 c["duration_s"].get<double>(), c["tracks"].get<int>());
}

}  // namespace pipeline
