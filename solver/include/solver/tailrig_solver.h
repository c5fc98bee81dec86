/* tailrig_solver.h: C API of the runtime tail spring chain (SPEC §4).
 *
 * For engines whose plugin layer speaks C (Unity P/Invoke, Godot GDExtension,
 * Unreal, Rust/Zig FFI). Pure C99 header; the implementation is C++ (Eigen
 * only) and never lets an exception or a non-finite number cross this line.
 *
 * Conventions:
 *  - Every matrix is a 4x4 of doubles in COLUMN-MAJOR order (m[col * 4 + row],
 *    translation in m[12], m[13], m[14]), the glTF / OpenGL / Eigen layout.
 *  - Quaternions are 4 doubles x, y, z, w (the glTF node.rotation order).
 *  - Lengths are in rig units (whatever the inverse bind matrices use) except
 *    the parameters that say metres; params.meters_per_unit converts.
 *  - Functions return TAILRIG_OK (0) or an error code; after an error,
 *    tailrig_last_error() gives a one-line message (thread-local, valid until
 *    the next failing call on the same thread). A failed call changes nothing.
 *  - A chain handle is not thread-safe; distinct handles are independent.
 *
 * Typical use:
 *   tailrig_params p; tailrig_params_default(&p);
 *   tailrig_chain* c = NULL;
 *   if (tailrig_chain_create(names, parents, inverse_bind, joint_count, -1, &p, &c)) fail();
 *   per frame: tailrig_chain_step(c, dt, hips_world);
 *              tailrig_chain_local_rotations(c, rotations, bone_count);
 *   tailrig_chain_destroy(c);
 * With colliders (legs, trunk) instead of tailrig_chain_step:
 *   tailrig_frame_input in; tailrig_frame_input_default(&in);
 *   per frame: copy the hips into in.hips_world, point in.capsules at this
 *              frame's capsules (world, rig units), set in.capsule_count;
 *              tailrig_chain_step_frame(c, dt, &in);
 *
 * Compatibility: structs passed by pointer never change layout. Fields added
 * later come in a new struct version (the `version` field first, checked on
 * every call), so a binary built against an older header keeps working;
 * TAILRIG_C_API_VERSION counts additions for #if checks.
 */
#ifndef TAILRIG_SOLVER_H
#define TAILRIG_SOLVER_H

#include <stdint.h>

/* 1: chains, params, step, reset, read-out. 2: colliders (tailrig_capsule,
 * tailrig_frame_input, tailrig_chain_step_frame, tailrig_collider_params).
 * 3: idle sway (tailrig_sway_params); batches of chains in float SIMD
 * lanes (tailrig_batch_*, declared in solver/tailrig_batch.h). */
#define TAILRIG_C_API_VERSION 3

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tailrig_status {
  TAILRIG_OK = 0,
  /* A NULL pointer, a count out of range, a parameter out of its range. */
  TAILRIG_ERROR_INVALID_ARGUMENT = 1,
  /* A NaN or infinity in a matrix, dt or a parameter. */
  TAILRIG_ERROR_NON_FINITE = 2,
  /* No Tail_1..Tail_N bones among the joint names. */
  TAILRIG_ERROR_NO_TAIL = 3,
  /* Tail bones found but they do not form one parent chain. */
  TAILRIG_ERROR_BROKEN_CHAIN = 4,
  TAILRIG_ERROR_OUT_OF_MEMORY = 5,
  /* Anything else (a bug): the message says what. */
  TAILRIG_ERROR_INTERNAL = 6
} tailrig_status;

/* Tunable parameters. Fill with tailrig_params_default() and change fields;
 * fields marked [build] are read by tailrig_chain_create() only, the others
 * on every step (tailrig_chain_set_params). Units as in solver/params.h. */
typedef struct tailrig_params {
  double root_frequency_hz;  /* spring frequency of the root link, Hz (> 0) */
  double tip_frequency_hz;   /* spring frequency of the tip link, Hz (> 0) */
  double damping_ratio;      /* zeta, dimensionless (>= 0; 1 = critical) */
  double gravity;            /* m/s^2 along world -Y (>= 0) */
  double carry_deg;          /* [build] carry of the whole tail, degrees */
  double rest_curve;         /* [build] 0 centred rest arc .. 1 authored curve */
  double forward_axis[3];    /* [build] character forward in bind space (glTF +Z) */
  double lateral_axis[3];    /* [build] character lateral in bind space (glTF +X) */
  double meters_per_unit;    /* [build] metres per rig unit (> 0; glTF 1) */
  double bend_coupling_rate; /* neighbour bend coupling, 1/s (>= 0; 0 off) */
  double bend_limit_deg;     /* elastic bend limit, degrees (<= 0 off) */
  int32_t forward_plane;     /* nonzero: particles stay behind the hips' forward plane */
  int32_t floor_enabled;     /* nonzero: floor plane y = floor_height */
  double floor_height;       /* world Y of the floor, metres */
  double floor_clearance;    /* tail clearance above the floor, metres (>= 0) */
  double contact_damping;    /* floor contact damping, 1/s (>= 0) */
  double internal_step;      /* fixed internal step, seconds (0 < h <= 0.1) */
  int32_t max_substeps;      /* internal steps per tailrig_chain_step at most (>= 1) */
  double reset_settle_time;  /* settle time simulated by reset, seconds (0..600) */
  double teleport_distance;  /* hips jump in one step treated as teleport, metres (> 0) */
  double teleport_angle_deg; /* hips turn in one step treated as teleport, degrees (> 0) */
} tailrig_params;

typedef struct tailrig_chain tailrig_chain; /* opaque */

/* The defaults of solver::ChainParams. */
void tailrig_params_default(tailrig_params* out_params);

/* Builds a chain from plain rig data. Joint i has name joint_names[i] (UTF-8,
 * NUL-terminated), parent parents[i] (-1 for a root, else < i) and inverse
 * bind matrix inverse_bind[16 * i .. 16 * i + 15] (bind space -> joint space,
 * column-major, rig units). The tail is found by name (Tail_1..Tail_N,
 * optional Tail_End, any "prefix:" / "prefix_"). hips_joint is the hips index
 * or -1 to find it by name. params may be NULL for the defaults. Nothing
 * passed in is kept after the call. On success *out_chain owns the chain;
 * like the C++ solver, the first step (without a reset before it) puts the
 * tail in its settled carry pose at that step's hips. */
tailrig_status tailrig_chain_create(const char* const* joint_names, const int32_t* parents,
                                    const double* inverse_bind, int32_t joint_count,
                                    int32_t hips_joint, const tailrig_params* params,
                                    tailrig_chain** out_chain);

/* Frees the chain; NULL is a no-op. */
void tailrig_chain_destroy(tailrig_chain* chain);

/* Number of tail bones N (Tail_1..Tail_N, Tail_End excluded); 0 for NULL. */
int32_t tailrig_chain_bone_count(const tailrig_chain* chain);

/* Rig joint index of tail bone i (0 = Tail_1); -1 when out of range. */
int32_t tailrig_chain_bone_joint(const tailrig_chain* chain, int32_t bone);

/* Replaces the per-step parameters ([build] fields are ignored). */
tailrig_status tailrig_chain_set_params(tailrig_chain* chain, const tailrig_params* params);

/* Puts the tail at rest in its settled carry pose for this hips world matrix
 * (teleport a character, start a cutscene). */
tailrig_status tailrig_chain_reset(tailrig_chain* chain, const double hips_world[16]);

/* Advances by dt seconds (0 <= dt <= 3600; 0 only refreshes the output) to the
 * new hips world matrix (column-major, rig units). A non-finite dt or matrix is
 * refused with TAILRIG_ERROR_NON_FINITE and the state is kept. */
tailrig_status tailrig_chain_step(tailrig_chain* chain, double dt, const double hips_world[16]);

/* Copies the local (parent-relative) rotation of every tail bone after the
 * latest step/reset (before the first one: the carry rest rotations):
 * out_xyzw[4 * i .. 4 * i + 3] for bone i. The bone's local transform is
 * T(bind translation) * R(this) * S(bind scale): exactly the glTF
 * node.rotation to write. capacity is the number of bones out_xyzw has room
 * for (>= bone count). */
tailrig_status tailrig_chain_local_rotations(const tailrig_chain* chain, double* out_xyzw,
                                             int32_t capacity);

/* Copies the world matrix (column-major, rig units) of every tail bone after
 * the latest step/reset: out[16 * i .. 16 * i + 15]. Bones between the hips
 * and Tail_1 are taken at their bind pose relative to the hips. */
tailrig_status tailrig_chain_world_matrices(const tailrig_chain* chain, double* out_matrices,
                                            int32_t capacity);

/* --- Colliders (issue 46) ---------------------------------------------------
 * Shapes the tail must not pass through, given per frame in world space with
 * the hips. Each link is tested as a segment and along its swing, and turned
 * about its head out of a capsule it touches, keeping its length (see
 * solver/colliders.h). */

/* Most capsules one frame may carry; more are refused (not silently dropped:
 * a leg the tail passed through without a word would be harder to find). */
#define TAILRIG_MAX_CAPSULES 16

/* A tapered capsule: the segment a..b (world, rig units) with radius radius_a
 * at a and radius_b at b (rig units, >= 0). a == b is a sphere. Every
 * coordinate and radius must be finite and within +-1e9 rig units. */
typedef struct tailrig_capsule {
  double a[3];
  double b[3];
  double radius_a;
  double radius_b;
} tailrig_capsule; /* 64 bytes */

#define TAILRIG_FRAME_INPUT_VERSION 1

/* One frame's input to tailrig_chain_step_frame: the hips and the colliders
 * where they are at the END of the frame; the solver interpolates both
 * across its internal steps from the previous frame's. Give the same
 * capsules in the same order every frame (a different count, a teleport or
 * a tailrig_chain_step in between starts them where they are, without a
 * sweep). tailrig_chain_reset takes no colliders: it poses the tail without
 * them and the next step turns it out. The capsules array is not referenced
 * after the call. Fill with
 * tailrig_frame_input_default(), or set version yourself. Layout without
 * implicit padding (C# [StructLayout(Sequential)]: uint, int, 16 doubles,
 * IntPtr). */
typedef struct tailrig_frame_input {
  uint32_t version;                /* TAILRIG_FRAME_INPUT_VERSION; others are refused */
  int32_t capsule_count;           /* 0..TAILRIG_MAX_CAPSULES */
  double hips_world[16];           /* column-major, rig units, as tailrig_chain_step */
  const tailrig_capsule* capsules; /* capsule_count of them; may be NULL when 0 */
} tailrig_frame_input;

/* Version 1, identity hips, no capsules. */
void tailrig_frame_input_default(tailrig_frame_input* out_input);

/* tailrig_chain_step with colliders: dt and frame->hips_world as there, plus
 * frame->capsules. With no capsules it is tailrig_chain_step, bit for bit.
 * Refused, state kept: NULL chain or frame, an unknown version, a
 * capsule_count outside 0..TAILRIG_MAX_CAPSULES, NULL capsules with a count,
 * a negative or too large value (TAILRIG_ERROR_INVALID_ARGUMENT); NaN or
 * infinity in dt, the hips or a capsule (TAILRIG_ERROR_NON_FINITE). */
tailrig_status tailrig_chain_step_frame(tailrig_chain* chain, double dt,
                                        const tailrig_frame_input* frame);

#define TAILRIG_COLLIDER_PARAMS_VERSION 1

/* How the tail meets colliders; per chain, read on every step. A versioned
 * struct of its own, not fields of tailrig_params: binaries built against
 * the first header pass a tailrig_params of its size, unversioned, so it
 * cannot grow without the library reading past their structs. Not in
 * tailrig_frame_input either: that says where things are this frame, not
 * how the tail behaves, and a frame filled field by field from an engine
 * would silently get no margin. A chain starts with the defaults;
 * tailrig_chain_set_params leaves these alone. */
typedef struct tailrig_collider_params {
  uint32_t version;  /* TAILRIG_COLLIDER_PARAMS_VERSION; others are refused */
  uint32_t reserved; /* 0 (refused otherwise: room for flags) */
  double margin;     /* link centreline to collider surface, metres (0..1e9; default 0.03) */
  double friction;   /* share of sliding removed per internal step in contact (0..1; 0.2) */
} tailrig_collider_params;

/* Version 1 with the defaults of solver::ChainParams. */
void tailrig_collider_params_default(tailrig_collider_params* out_params);

/* Replaces the chain's collider parameters. Refused, chain kept: NULL, an
 * unknown version, reserved != 0, out of range (TAILRIG_ERROR_INVALID_ARGUMENT),
 * NaN or infinity (TAILRIG_ERROR_NON_FINITE). */
tailrig_status tailrig_chain_set_collider_params(tailrig_chain* chain,
                                                 const tailrig_collider_params* params);

/* The chain's current collider parameters. Set out_params->version first
 * (tailrig_collider_params_default does): it says which layout the caller's
 * struct has, so a later library never writes past an older one. */
tailrig_status tailrig_chain_get_collider_params(const tailrig_chain* chain,
                                                 tailrig_collider_params* out_params);

#define TAILRIG_SWAY_PARAMS_VERSION 1

/* Idle sway (issue 46; solver/params.h): a standing tail sways side to side,
 * its rest arc turning about the hips' up axis by up to amplitude_deg at the
 * tip every period seconds; the sway fades out over fade seconds once the
 * body moves the tail faster than still_speed (the root's speed plus the
 * hips' turn rate times the tail's length; gone at twice it). A versioned
 * struct of its own for the reason tailrig_collider_params is. A chain
 * starts with it off (amplitude 0: the calm hang, bit for bit);
 * tailrig_chain_set_params leaves it alone. */
typedef struct tailrig_sway_params {
  uint32_t version;     /* TAILRIG_SWAY_PARAMS_VERSION; others are refused */
  uint32_t reserved;    /* 0 (refused otherwise: room for flags) */
  double amplitude_deg; /* turn of the rest arc at the tip, degrees (0..90; 0 = off, the default) */
  double period;        /* seconds per side-to-side cycle (0.01..3600; 2.4) */
  double still_speed;   /* m/s at the tail below which the body is still (1e-6..1e3; 0.1) */
  double fade; /* seconds: smoothing of that speed, the fade in and out (1e-3..3600; 0.5) */
} tailrig_sway_params;

/* Version 1, off, with the defaults of solver::ChainParams. */
void tailrig_sway_params_default(tailrig_sway_params* out_params);

/* Version 1 with the named set solver::idle_sway(): 20 deg every 2.4 s
 * (the tip of a 0.8 m tail hanging from hips at 1 m swings about 7 deg each
 * way round the vertical). */
void tailrig_sway_params_idle(tailrig_sway_params* out_params);

/* Replaces the chain's sway parameters; the sway's clock and the body's
 * smoothed speed go on. Refused, chain kept: NULL, an unknown version,
 * reserved != 0, out of range (TAILRIG_ERROR_INVALID_ARGUMENT), NaN or
 * infinity (TAILRIG_ERROR_NON_FINITE). */
tailrig_status tailrig_chain_set_sway_params(tailrig_chain* chain,
                                             const tailrig_sway_params* params);

/* The chain's current sway parameters; set out_params->version first
 * (tailrig_sway_params_default does), as for tailrig_chain_get_collider_params. */
tailrig_status tailrig_chain_get_sway_params(const tailrig_chain* chain,
                                             tailrig_sway_params* out_params);

/* One-line description of the latest error on this thread ("" if none). */
const char* tailrig_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* TAILRIG_SOLVER_H */
