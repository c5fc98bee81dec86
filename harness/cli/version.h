#pragma once
namespace harness {
inline constexpr const char* kToolVersion = "tailrig-harness 0.1.0";
}
