// Placeholder (issue #7): tests for rig/placement.h.
#include "rig/placement.h"
