// What `harness info` reports about a loaded file, as plain data and JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "rig/model/model.h"

namespace pipeline {

// Weld tolerance for counting and graph work, relative to model height H.
inline constexpr double kWeldToleranceOfH = 1e-5;

nlohmann::json summarize(const rig::Character& c);
void print_summary(const nlohmann::json& s, std::FILE* out);

}  // namespace pipeline
