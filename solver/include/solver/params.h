// Tunable parameters of the runtime tail spring chain (SPEC §4, §11).
// Plain struct with in-class defaults in physical units; every field says its
// unit. Fields marked [build] are consumed by build_chain() (rebuild the
// ChainDesc to change them); all other fields are read on every step().
#pragma once

namespace solver {

struct ChainParams {
  // --- Spring (SPEC §4) -----------------------------------------------------
  // Natural frequency of the root link, Hz.
  double root_frequency_hz = 0.9;
  // Natural frequency of the tip link, Hz. Links in between ramp linearly
  // (SPEC §11 reading): f_i = f_root + (f_tip - f_root) * i / (N - 1).
  double tip_frequency_hz = 0.45;
  // Damping ratio zeta of every link, dimensionless (1 = critical).
  double damping_ratio = 0.65;
  // Gravity magnitude, m/s^2, pulling along world -Y (a tail has muscles:
  // deliberately not 9.81).
  double gravity = 1.0;

  // --- Rest pose: carry and centred rest arc (SPEC §4) ------------------------
  // [build] Carry of the WHOLE tail, degrees: rest targets are lifted backwards
  // and up about the hips' lateral axis, distributed linearly over the links
  // (link i gets carry * (i+1) / N as absolute direction, not per joint).
  double carry_deg = 50.0;
  // [build] restCurve beta in [0, 1]: 0 = centred rest arc, 1 = authored
  // (bind) curve of the tail blended back in. A tail modelled held up (its
  // end above its root by a fifth of its length or more: curled over the
  // back) keeps its authored curve whatever this says (chain.cpp).
  double rest_curve = 0.0;
  // [build] Character forward axis in bind (model) space. The hips frame used
  // for carry, bend coupling and the forward plane is this axis (Z of the
  // hips frame), `lateral_axis` (X) and their cross product (Y, up), attached
  // to the hips bone. glTF characters face +Z with lateral +X.
  double forward_axis[3] = {0.0, 0.0, 1.0};
  // [build] Character lateral axis in bind (model) space, see forward_axis.
  // Carry rotates positively about it (tail goes backwards and up).
  double lateral_axis[3] = {1.0, 0.0, 0.0};
  // [build] Metres per rig unit (glTF 1, centimetre FBX 0.01). Hips world
  // transforms come in rig units; the solver works in metres internally.
  double meters_per_unit = 1.0;

  // --- Bend resistance (SPEC §4) ---------------------------------------------
  // Neighbour bend coupling rate k, 1/s. alpha = 1 - exp(-k dt). 0 disables.
  double bend_coupling_rate = 12.0;
  // Elastic bend limit past the rest direction, degrees. <= 0 disables.
  double bend_limit_deg = 30.0;

  // --- Forward plane (SPEC §4, §11) -------------------------------------------
  // Keep every particle on the back side of the plane through the tail root
  // whose normal is the hips' forward axis.
  bool forward_plane = true;

  // --- Ground contact (SPEC §4) ------------------------------------------------
  // Enables the floor plane y = floor_height (world, metres).
  bool floor_enabled = true;
  // Floor height g0, metres, world Y.
  double floor_height = 0.0;
  // Centreline clearance rho above the floor, metres.
  double floor_clearance = 0.025;
  // Contact velocity damping gamma, 1/s: v' = exp(-gamma dt)(vx, max(0,vy), vz).
  double contact_damping = 8.0;

  // --- Colliders (issue 46; colliders.h) -----------------------------------------
  // Clearance kept between a link's centreline and a collider's surface,
  // metres: the tail's own thickness.
  double collider_margin = 0.03;
  // Share of a link's sliding velocity along a collider removed per internal
  // step in contact, dimensionless in [0, 1].
  double collider_friction = 0.2;

  // --- Idle sway (issue 46) -------------------------------------------------------
  // A standing tail sways side to side: its rest directions turn about the
  // hips' up axis, adding up to idle_sway_deg at the tip (gravity and the
  // bend coupling take part of it: a hanging tail's tip swings less round
  // the vertical than its rest arc turns); the sway fades out over
  // idle_sway_fade seconds once the body moves the tail faster than
  // idle_sway_still_speed (the root's speed plus the hips' turn rate times
  // the tail's length; gone at twice it) and back in when it stops.
  // 0 = off: today's calm hang, bit for bit. The named set of issue 46 is
  // idle_sway() below.
  double idle_sway_deg = 0.0;          // turn of the rest arc at the tip, degrees (>= 0)
  double idle_sway_period = 2.4;       // seconds per side-to-side cycle (> 0)
  double idle_sway_still_speed = 0.1;  // m/s at the tail (see above) below which the body is still
  double idle_sway_fade = 0.5;         // seconds: smoothing of that speed (fade in / out)

  // --- Time stepping (beyond the spec: frame-rate independence) --------------
  // Fixed internal step, seconds. step() sub-steps the caller's frame time
  // with it (hips interpolated across the frame) and interpolates the output
  // between the last two internal states, so 30, 60 and 144 fps agree.
  double internal_step = 1.0 / 120.0;
  // Upper bound of internal steps per step() call; time beyond it is dropped
  // (a hitch does not cause a spiral of death). Count.
  int max_substeps = 64;
  // Maximum simulated settle time applied by reset() with the hips held still,
  // so the reset pose is the equilibrium carry pose including gravity sag and
  // floor contact, seconds (stops early once every particle is slower than
  // 1e-9 m/s). 0 = reset to the exact rest targets.
  double reset_settle_time = 20.0;

  // --- Teleport handling (beyond the spec) ------------------------------------
  // A hips translation larger than this within one step() call, metres, is a
  // teleport: the tail is carried along rigidly (its hips-frame state is kept).
  double teleport_distance = 1.0;
  // A hips rotation larger than this within one step() call, degrees, is a
  // teleport (see teleport_distance).
  double teleport_angle_deg = 90.0;
};

// The idle sway of issue 46 on top of `p`: the rest arc turns 20 deg each
// way every 2.4 s while the body stands still. On the scenario rig (0.8 m
// tail, hips at 1 m, defaults otherwise) the tip then swings 6.8 deg round
// the vertical each way (IdleSway holds it to 4-12 deg, as README states).
inline ChainParams idle_sway(ChainParams p) {
  p.idle_sway_deg = 20.0;
  p.idle_sway_period = 2.4;
  return p;
}

}  // namespace solver
