// The bake's spring sized to the tail it moves (issue 45 class 9).
//
// solver/params.h's defaults (root 0.9 Hz, tip 0.45 Hz, damping 0.65, a
// teleport at 1 m per frame) are one tail's: the scenario rig's 0.8 m one.
// Given as they are to a 0.66 m fox tail and a 26 m sauropod tail they
// cannot both be right, and measured in Blender over the shared tailed
// walks (scripts/blender/tail_motion_check.py) they are not: the baked tip
// moves 0.19x the artist's own on the Fox, 0.40-0.48x on the Rat and Wolf,
// 2.9x on the Apatosaurus and 3.4x on the curled ShibaInu.
//
// Why (measured, scripts: tail_motion_check.py and a parameter grid):
// - Each link is a damped spring towards its rest direction, so a tail's
//   response to the hips is set by its natural frequency against the
//   gait's. The Apatosaurus walk's 5.2 s stride (0.19 Hz; its vertical bob
//   0.38 Hz) lies on the fixed 0.45-0.9 Hz chain's lowest mode: the tail
//   resonates sideways (33 % of H of lateral tip sway; the artist's tail
//   swings 11 % of H, up and down). A stiffer or a looser tail than that
//   stays in scale (grid: tip 0.16 Hz or lower, or 1.8 Hz or higher).
// - The small stiff-looking tails (the Rat's and Wolf's, 2.3-3.7 m in the
//   files' metres) need their natural frequency near their 0.75-0.96 Hz
//   strides (the Rat's tip from 0.9 Hz up, at damping 0.65): the fixed
//   0.45 Hz leaves them lagging, filtered.
// - A frequency that follows the tail's length meets both: a tapered
//   elastic tail (a cantilever) rings at f ~ (r / L) sqrt(E / rho) / L, so
//   tails of one make and one slenderness share the wave speed c = f L and
//   the frequency falls as 1 / L. (A pendulum's sqrt(g / L) is too weak a
//   fall for these: it leaves the sauropod resonant or the rat filtered.)
//   The tail's mesh radius is not used: a fox's brush of fur measures 0.15
//   of its length and a rat's string 0.03, but fur adds no stiffness.
// - Gravity stays at 1 m/s^2: with f = c / L its sag g / (w^2 L) is 0.07 of
//   the length on the 26 m tail and less on shorter ones (the scenario
//   rig's defaults sag 0.16), so no tail droops more than the defaults let
//   it.
// - Not changed here: the teleport threshold (1 m of hips travel per frame,
//   absolute) is a cut for a 0.3 m animal and a jump's normal speed for a
//   15 m T-Rex: the T-Rex's Jump and Attack and the Apatosaurus' Jump and
//   Death are carried rigidly through their fastest frames. Scaled to half
//   of H the T-Rex's jump swings its tail 130 % of H (34 % carried) and into
//   its legs (Blender, tail_in_legs_bar.py: 8 % of samples deeper than
//   1 % of H, 3.4 % of H; none today), so it waits for the legs.
//
// The rule (kTailWaveSpeed, kSizedDamping: the middle of the range where
// five of the six shared tailed walks hold 0.5-2x, c 2-4 m/s at damping
// 0.5): tip frequency c / reach (tail_shape below), root frequency
// kRootOverTip times it (the defaults' 0.9 / 0.45: a stiff base, a whippy
// end), damping 0.5, and no carry on a held-up tail (below). Measured
// (Blender RMS ratio baked / artist over the walk): Apatosaurus 1.42, Rat
// 0.77, ShibaInu 1.63, T-Rex 1.18, Wolf 1.13. The Fox stays out (0.07): its
// artist flaps the tail up and down 11.6 % of H while the pelvis moves
// 1.3 % of H; no passive spring damped 0.15 or more gets above 0.39x at
// any frequency (grid), so that is an animated wag the bake cannot infer.
//
// The carry (params.h: 50 deg, the whole tail lifted backwards and up) is
// for a tail modelled hanging or streaming. A tail modelled held up over the
// back (solver::raised_tail_blend: its end above its root by a fifth of its
// length) shows its carry already, and build_chain keeps its authored curve;
// the carry on top turns the part over the back into the back. The
// defaults' soft spring sags 0.16 of the tail's length under gravity and
// the carry held a curl up against that; the sized spring sags 0.07 of the
// length at most (a 26 m tail; a 0.7 m one 0.002), so a held-up tail keeps
// its modelled pose without it. Measured on the ShibaInu's walk in Blender
// (real_rig_bar.py): with the carry (tip 4.5 Hz) tail p99 1.18, 1.1 % torn,
// body p99 1.74; without it 1.06, 0 % torn, body p99 1.46 (the stripped
// file: 2.01, 4.2 %, 1.35; main's soft spring with the carry: 1.04, 1.1 %,
// 1.58).
//
// A field the caller gives (harness --solver, a scenario's "solver") is
// used as given: SpringSizing says which ones the rule sets.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "rig/model/model.h"
#include "solver/chain.h"
#include "solver/params.h"

namespace pipeline {

inline constexpr double kTailWaveSpeed = 3.0;   // c = f_tip * L, m/s
inline constexpr double kRootOverTip = 2.0;     // root frequency / tip frequency
inline constexpr double kSizedDamping = 0.5;    // damping ratio, dimensionless
// The stiffest spring the rule sets: the root link's w h at the solver's
// internal step h at most this. Semi-implicit Euler is stable only for
// w h < 2 and keeps a spring's phase and damping only well below it; c / L
// grows without bound as a tail gets short (a 0.1 m stub: a 57 Hz root,
// w h = 3 at 120 Hz, and its bakes never settled: 30 warm-up passes, seams
// 0.5-0.6 deg; capped at w h 1.0 or 0.6 every loop of the short-tail
// fixtures settles in 2 passes). 0.6 at 120 Hz: root <= 11.5 Hz, tip
// <= 5.7 Hz (a reach under 0.52 m gets the cap).
inline constexpr double kMaxRootOmegaStep = 0.6;

// Which spring fields the rule sets (false: the caller gave it).
struct SpringSizing {
  bool frequencies = true;  // root_frequency_hz and tip_frequency_hz
  bool damping = true;      // damping_ratio
  bool carry = true;        // carry_deg ([build]: the chain is rebuilt)
};

// The fields of a --solver / scenario "solver" object the rule leaves alone.
SpringSizing sizing_without(const nlohmann::json& given);

// The tail as the rule reads it, in bind: its reach (root to end, metres;
// the links laid along their bind directions) and its end's rise above its
// root over its length (the hips frame's up axis; solver::raised_tail_blend).
// A straight tail reaches its length; a curved or curled one less: its mass
// lies nearer its root, so the body swings it as a shorter one (its moment
// of inertia about the root).
struct TailShape {
  double reach_m = 0;
  double rise_over_length = 0;
};
TailShape tail_shape(const rig::Skeleton& sk, const solver::ChainDesc& desc, const solver::ChainParams& p);

// Sets the fields `which` names from the tail's shape: tip frequency kTailWaveSpeed / reach, root kRootOverTip times
// it (both capped by kMaxRootOmegaStep at p.internal_step), damping kSizedDamping, and the carry faded out over a held-up tail
// (the carry note above). A zero reach leaves the frequencies. Returns true
// when a [build] field (the carry) changed.
bool size_spring_to_tail(const TailShape& shape, const SpringSizing& which, solver::ChainParams& p);

// One line for the report: "root 9.16 Hz, tip 4.58 Hz, damping 0.5, carry
// 50 deg; sized to the tail's 0.655 m reach (tip = 3 m/s / reach)".
std::string spring_summary(const solver::ChainParams& p, const SpringSizing& which, double reach_m);

// The tip frequency the rule sets for `reach_m` (kTailWaveSpeed / reach,
// capped by kMaxRootOmegaStep at `internal_step`); 0 without a reach.
double sized_tip_frequency(double reach_m, double internal_step);

}  // namespace pipeline
