// The byte offsets web/src/layout.js writes the C API's structs at, checked
// where they are compiled (wasm32: 4-byte pointers, 8-byte aligned doubles).
// A field added or moved in tailrig_solver.h breaks the wasm build here
// instead of silently shifting what JavaScript writes.
#include <cstddef>

#include "solver/tailrig_solver.h"

static_assert(sizeof(void*) == 4, "the offsets below are for wasm32");
static_assert(offsetof(tailrig_params, root_frequency_hz) == 0);
static_assert(offsetof(tailrig_params, forward_axis) == 48);
static_assert(offsetof(tailrig_params, lateral_axis) == 72);
static_assert(offsetof(tailrig_params, meters_per_unit) == 96);
static_assert(offsetof(tailrig_params, forward_plane) == 120);
static_assert(offsetof(tailrig_params, floor_enabled) == 124);
static_assert(offsetof(tailrig_params, floor_height) == 128);
static_assert(offsetof(tailrig_params, max_substeps) == 160);
static_assert(offsetof(tailrig_params, reset_settle_time) == 168);
static_assert(offsetof(tailrig_params, teleport_angle_deg) == 184);
static_assert(sizeof(tailrig_params) == 192);
static_assert(offsetof(tailrig_frame_input, capsule_count) == 4);
static_assert(offsetof(tailrig_frame_input, hips_world) == 8);
static_assert(offsetof(tailrig_frame_input, capsules) == 136);
static_assert(sizeof(tailrig_frame_input) == 144);
static_assert(sizeof(tailrig_capsule) == 64);
static_assert(offsetof(tailrig_collider_params, margin) == 8);
static_assert(offsetof(tailrig_collider_params, friction) == 16);
static_assert(sizeof(tailrig_collider_params) == 24);
