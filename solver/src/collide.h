// Links against colliders (colliders.h), for the scalar step (internal).
#pragma once

#include <span>

#include "solver/colliders.h"
#include "small_math.h"

namespace solver::detail {

// A collider in metres, world space (the step's units).
struct CapsuleM {
  V3 a, b;
  double radius_a = 0.0, radius_b = 0.0;
};

struct LinkContact {
  bool hit = false;
  V3 normal{0.0, 0.0, 0.0};  // out of the last collider the link was turned out of
};

// The link from `head` (metres) of length `len` turned from direction
// `d_start` (its direction at the start of the internal step, unit) to `d`
// (unit): the direction it ends with, turned about its head out of every
// capsule by `margin`. The swing is tested in pieces its tip covers in less
// than half the thinnest capsule's radius; the first piece that touches one
// is turned out and ends the swing there.
V3 collide_link(const V3& head, double len, const V3& d_start, const V3& d, std::span<const CapsuleM> capsules,
                double margin, LinkContact& contact);

}  // namespace solver::detail
