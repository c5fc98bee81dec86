// Which allocator this harness executable runs on (allocator.cpp).
#pragma once

#include <string>

namespace harness {

// "jemalloc 5.3.0 (thp always)" or "system malloc".
std::string allocator_description();

// Gives the pages of freed memory back to the kernel now (jemalloc here
// keeps them for reuse, never decaying): what a process does before it
// starts another whose cost it measures, so that the child gets the pages
// just freed, as a command run after another from a shell does, and not
// fresh ones while this process sits on its own (issue 47).
void release_free_memory();

}  // namespace harness
