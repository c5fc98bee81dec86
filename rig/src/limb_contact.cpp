// Placeholder (issue #7): filled in by the limb_contact work.
#include "rig/limb_contact.h"
