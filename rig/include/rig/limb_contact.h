// Placeholder (issue #7): filled in by the limb_contact work.
#pragma once
