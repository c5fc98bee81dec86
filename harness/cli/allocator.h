// Which allocator this harness executable runs on (allocator.cpp).
#pragma once

#include <string>

namespace harness {

// "jemalloc 5.3.0 (thp always)" or "system malloc".
std::string allocator_description();

}  // namespace harness
