// Placeholder (issue #7): tests for rig/limb_contact.h.
#include "rig/limb_contact.h"
