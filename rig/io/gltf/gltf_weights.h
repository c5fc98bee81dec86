// A glTF file's skin weights as the file holds them, the model's settled
// weights (merged per joint, summing to 1) made from them, and the test the
// Khronos validator applies to weights (internal to rig/).
//
// The model normalises weights on read; written back like that, weights that
// were already valid would change in their last bits (issue 45, class 8).
// So the writer puts back the file's own weights wherever the model still
// holds what settling made of them, and only weights the validator would
// refuse are written settled, counted by weights_changed_on_write.
#pragma once

#include <tiny_gltf.h>

#include <map>
#include <span>
#include <string>
#include <vector>

#include "rig/io/gltf/gltf_source.h"
#include "rig/model/model.h"

namespace rig::gltf_weights {

// One primitive's influences as the file holds them: per vertex, every
// JOINTS_n/WEIGHTS_n component with a weight > 0, set by set, the joint as a
// skeleton index, into `out` (one entry per vertex of the primitive, emptied
// first: the caller's own array, no copy to move in). Returns an empty
// string, or what is wrong ("skin attributes are malformed", "joint index
// out of range").
std::string read_influences(const tinygltf::Model& m, const tinygltf::Primitive& prim, const tinygltf::Skin& skin,
                            const std::map<int, int>& skeleton_index_of_node, std::span<std::vector<Influence>> out);

// The model's weights: merged per joint (ascending joint) and scaled to sum 1,
// in place (no allocation).
void settle(std::vector<Influence>& influences);

// The validator accepts these weights written in this order (influence i in
// set i/4, component i%4): no joint twice and a float32 sum, added in the
// validator's order, within 2e-7 per weight of 1.
bool valid_as_written(std::span<const Influence> influences);
// |float32 sum - 1| of the weights, added as the validator adds them.
double sum_error(std::span<const Influence> influences);
bool names_a_joint_twice(std::span<const Influence> influences);

// Settling changed a weight a float32 writer would write (or merged joints).
bool settling_changes_floats(std::span<const Influence> as_read, std::span<const Influence> settled);

// Per model vertex, the file's own influences (read again from src.model),
// for every primitive the model was read from. Empty when the source has no
// skinned primitive.
std::vector<std::vector<Influence>> file_influences(const GltfSource& src, const Mesh& mesh);

// Per model vertex, the file's own influences where the writer should put
// them back: of GltfSource::settled, those the model still holds as settling
// made them and the validator accepts as they are. Other vertices empty;
// an empty result when the reader changed nothing.
std::vector<std::vector<Influence>> to_write_as_read(const GltfSource& src, const Skin& skin);

}  // namespace rig::gltf_weights
