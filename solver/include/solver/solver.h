// Umbrella header of the embeddable tail spring chain (Eigen only).
#pragma once

#include "solver/bake.h"
#include "solver/chain.h"
#include "solver/params.h"
#include "solver/state.h"
#include "solver/step.h"
