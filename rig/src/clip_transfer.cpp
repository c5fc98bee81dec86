// Placeholder (issue #7): filled in by the clip_transfer work.
#include "rig/clip_transfer.h"
