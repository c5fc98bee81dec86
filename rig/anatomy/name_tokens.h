// Bone and clip names as words: ONE tokenizer for every place that reads a
// name (roles, tail and prop masks, gait tokens of clip names), so "TAILBone"
// reads "tail bone" everywhere. Tokens split at non-alphanumerics, at
// lower->upper case changes, before the last capital of a capital run that
// a lower-case letter follows ("TAILBone" -> tail bone), and at letter/digit
// changes ("b_Tail01_012" -> b tail 01 012); they are lower-case. Names
// help read a body, never decide alone, and are never matched by substring
// ("ForeArm" holds no "ear").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rig {

std::vector<std::string> name_tokens(std::string_view name);

// `s` in lower case (ASCII), as tokens are compared.
std::string lowercase(std::string_view s);

// True when `token` (case-insensitive) is a whole token of `name`; tokens
// split at non-alphanumerics, lower->upper case changes and letter/digit
// changes ("mixamorig:Tail1", "TailBase", "tail_02"; not "Retail").
bool name_has_token(std::string_view name, std::string_view token);

}  // namespace rig
