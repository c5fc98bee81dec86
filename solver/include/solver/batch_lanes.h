// Plain data shared by Batch (batch.h) and its SIMD kernels: lane blocks,
// precomputed constants and one frame's hips per lane. No Eigen, no
// containers: the kernel translation units are compiled for different
// instruction sets and must not share inline library code (see
// batch_kernel.inc).
#pragma once

namespace solver {

// One block of kBatchLanes floats (one per chain), the unit the kernel loads
// and stores: one AVX-512 register, two AVX2 ones, four SSE2 ones.
inline constexpr int kBatchLanes = 16;
struct alignas(64) BatchLane {
  float v[kBatchLanes];
};

// Per-link constants, computed from desc and params when they change (never
// per step). Quaternions are x, y, z, w.
struct BatchLinkConstants {
  float rest_dir[3];           // r_i in the parent's corrected rest frame, unit
  float rest_hips[3];          // A_i r_i: rest direction in the hips frame, unit
  float rest_hips_ortho[3];    // unit, orthogonal to rest_hips (swing of opposite vectors)
  float parent_to_hips[4];     // A_i
  float bind_parent[3];        // neutral_rotation * bind_dir_local, unit
  float bind_parent_ortho[3];  // unit, orthogonal to bind_parent
  float neutral[4];            // neutral_rotation
  float length;                // metres
  float omega_sq;              // omega^2 of the spring, 1/s^2
  float damping;               // 2 zeta omega, 1/s
};

struct BatchConstants {
  int links = 0;
  float h = 0.0f;               // internal step, seconds
  float gravity_y = 0.0f;       // world Y acceleration, m/s^2 (-gravity)
  float coupling_alpha = 0.0f;  // 1 - exp(-k h); 0 = coupling off
  bool bend_limit = false;
  float cos_half_limit = 1.0f;  // cos(theta_max / 2)
  float sin_half_limit = 0.0f;  // sin(theta_max / 2)
  bool forward_plane = true;
  bool floor = true;
  float floor_y = 0.0f;        // floor height + clearance, metres
  float contact_decay = 1.0f;  // exp(-gamma h)
  float meters_per_unit = 1.0f;
  float hips_frame_local[4];
  float hips_to_root_parent[4];
  float root_head_in_hips[3];   // rig units of the hips' local frame (desc.root_head_in_hips)
  float teleport_distance = 0;  // metres
  float cos_half_teleport = 0;  // cos(teleport angle / 2)
  float collider_margin = 0;    // metres (ChainParams::collider_margin)
  float collider_friction = 0;  // share of sliding removed per internal step
};

// Per lane: a hips world transform, rig units: linear part column-major
// (m[0..2] = first column) and translation.
struct BatchMatrixLanes {
  BatchLane linear[9];
  BatchLane trans[3];
};

// Per lane: hips rotation (x, y, z, w), translation (rig units) and the tail
// root head offset in the hips' rotation frame (rig units), as the scalar
// solver decomposes a hips transform.
struct BatchHipsLanes {
  BatchLane rot[4];
  BatchLane trans[3];
  BatchLane offset[3];
};

// Colliders (colliders.h) per lane: at most kBatchMaxColliders slots, each
// a tapered capsule in rig units, world space. A slot a lane does not use
// has radius_a = radius_b = -1 (never hit).
inline constexpr int kBatchMaxColliders = 16;
struct BatchColliderLanes {
  BatchLane a[3];
  BatchLane b[3];
  BatchLane radius_a, radius_b;
};

// One block's colliders for a frame: where they were at its start (`prev`)
// and are at its end (`next`), `slots` of each; interpolated per internal
// step as the hips are.
struct BatchColliders {
  const BatchColliderLanes* prev = nullptr;
  const BatchColliderLanes* next = nullptr;
  int slots = 0;
};

// Idle sway (params.h, issue 46) per lane for one frame, as the scalar
// solver's clock and smoothed speed give it: at internal step position s
// (0..1 across the frame) each link's rest direction turns about the hips'
// up axis by turn * sin(phase + s * dphase). turn = 0: no sway (the lane's
// rest directions are used as they are, to the bit).
struct BatchSwayLanes {
  BatchLane phase;   // 2 pi (clock mod period) / period at the frame's start, radians
  BatchLane dphase;  // 2 pi dt / period, radians
  BatchLane turn;    // the tip's amplitude / links, radians
};

// The frame every block advances by.
struct BatchFrame {
  int substeps = 0;       // internal steps this frame
  double start_acc = 0.0;  // accumulator before the frame, seconds
  double dt = 0.0;         // frame time, seconds (> 0 when substeps > 0)
  double h = 0.0;          // internal step, seconds
};

// Lane sets per link in a block: p[3] v[3] bend[4] local_prev[4]
// local_cur[4] contact[1]; a block holds links * kBatchLaneSets lanes.
inline constexpr int kBatchLaneSets = 19;
inline constexpr int kSetPos = 0, kSetVel = 3, kSetBend = 6, kSetLocalPrev = 10, kSetLocalCur = 14,
                     kSetContact = 18;

// Advance one block of kBatchLanes chains by frame.substeps internal steps
// (hips and colliders interpolated from prev to next across the frame; `sway`
// null when no lane sways). One entry point per instruction set, same
// operations in the same order.
void batch_kernel_baseline(const BatchConstants& c, const BatchLinkConstants* links,
                           const BatchFrame& frame, const BatchHipsLanes& prev,
                           const BatchHipsLanes& next, const BatchColliders& colliders,
                           const BatchSwayLanes* sway, BatchLane* block);
void batch_kernel_avx2(const BatchConstants& c, const BatchLinkConstants* links,
                       const BatchFrame& frame, const BatchHipsLanes& prev,
                       const BatchHipsLanes& next, const BatchColliders& colliders,
                       const BatchSwayLanes* sway, BatchLane* block);
void batch_kernel_avx512(const BatchConstants& c, const BatchLinkConstants* links,
                         const BatchFrame& frame, const BatchHipsLanes& prev,
                         const BatchHipsLanes& next, const BatchColliders& colliders,
                         const BatchSwayLanes* sway, BatchLane* block);

// Decomposes one block of hips transforms into `next` (rotation with scale
// removed, translation, root head offset; as the scalar solver) and flags
// per lane (1.0f) the teleports from `prev`.
void batch_hips_baseline(const BatchConstants& c, const BatchMatrixLanes& m, const BatchHipsLanes& prev,
                         BatchHipsLanes& next, BatchLane& teleport);
void batch_hips_avx2(const BatchConstants& c, const BatchMatrixLanes& m, const BatchHipsLanes& prev,
                     BatchHipsLanes& next, BatchLane& teleport);
void batch_hips_avx512(const BatchConstants& c, const BatchMatrixLanes& m, const BatchHipsLanes& prev,
                       BatchHipsLanes& next, BatchLane& teleport);

// Output rotations of one block: normalised lerp from local_prev to
// local_cur at s, x y z w floats, chain-major (lane l, link i at
// out[(l * links + i) * 4]), first `valid` lanes.
void batch_output_baseline(const BatchLane* block, int links, float s, int valid, float* out);
void batch_output_avx2(const BatchLane* block, int links, float s, int valid, float* out);
void batch_output_avx512(const BatchLane* block, int links, float s, int valid, float* out);

}  // namespace solver
