// Placeholder (issue #7): filled in by the placement work.
#include "rig/placement.h"
