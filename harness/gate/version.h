// The harness's version, written into goldens and run results as tool_version.
#pragma once
namespace harness {
inline constexpr const char* kToolVersion = "tailrig-harness 0.1.0";
}
