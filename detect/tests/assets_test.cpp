// End-to-end tests on the real assets in ${TAILRIG_ASSETS}.
#include <gtest/gtest.h>
