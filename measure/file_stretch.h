// Edge stretch of a file's own clip against a reference rig's tail (issue 11,
// 12): the harness-side twin of scripts/blender/measure_stretch.py, with the
// same definitions so the two can be compared number for number.
//
// - Tail bones of the reference: a "tail" name token (rig::name_has_token)
//   or a descendant of such a bone. Tail vertices: vertices whose dominant
//   bone (largest weight, ties: lower index) in the reference is a tail bone.
//   The measured file must have the same vertex count and order.
// - Edges: unique triangle edges of the measured file's mesh (no welding: the
//   edges Blender's importer builds). Tail edges have both ends in the tail
//   set, body edges neither.
// - Samples t_i = D * i / S, i = 0..S-1; ratio = skinned / bind length; torn =
//   ratio > 1.5 or < 0.67.
// - Tip: mean of the reference vertices dominated by its deepest tail bone;
//   hips frame: the reference tail root's parent bone (same name in the file),
//   columns normalised; tip range = largest distance between two samples, in
//   file units and relative to H (bind Y extent of the file's mesh).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "measure/edge_stretch.h"
#include "rig/model/status.h"
#include "rig/model/model.h"

namespace measure {

// One edge at its worst sample: where a tail tears, for a rigging TD.
struct WorstEdge {
  int a = -1, b = -1;          // vertex indices
  double ratio = 1, time = 0;  // skinned / bind length at its worst sample
  bool tail = false;           // in the tail set (else body)
  std::string bones;           // dominant bone of each end in the measured file
};

struct FileStretch {
  StretchStats tail, body;
  long tail_edges = 0, body_edges = 0;
  int tail_vertices = 0, tip_vertices = 0;
  std::string frame_bone;           // bone whose frame the tip is measured in
  double height = 0;                // H, file units
  double tip_range = 0;             // file units
  std::vector<double> times;        // seconds
  std::vector<Eigen::Vector3d> tip;  // per sample, frame_bone frame, file units
  std::vector<WorstEdge> worst;      // most deformed edges first (max(r, 1/r)), tail and body
};

rig::Status measure_file_stretch(const rig::Character& file, const rig::Clip& clip, const rig::Character& reference,
                                 int samples, FileStretch& out, int worst_edges = 0);

nlohmann::json file_stretch_json(const FileStretch& s);

}  // namespace measure
