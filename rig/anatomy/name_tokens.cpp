#include "rig/anatomy/name_tokens.h"

#include <cctype>

namespace rig {

std::string lowercase(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

// "LeftUpLeg" -> left up leg; "thigh_l" -> thigh l; "UpperLeg.L" -> upper leg l.
std::vector<std::string> name_tokens(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(lowercase(cur)), cur.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    if (!cur.empty() && (std::isdigit(c) != 0) != (std::isdigit(static_cast<unsigned char>(cur.back())) != 0))
      flush();  // digit runs are tokens of their own
    if (std::isupper(c) && !cur.empty()) {
      const bool prev_lower = std::islower(static_cast<unsigned char>(cur.back()));
      const bool next_lower = i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      if (prev_lower || (next_lower && std::isupper(static_cast<unsigned char>(cur.back())))) flush();
    }
    cur.push_back(static_cast<char>(c));
  }
  flush();
  return out;
}

bool name_has_token(std::string_view name, std::string_view token) {
  const std::string want = lowercase(token);
  for (const std::string& t : name_tokens(name))
    if (t == want) return true;
  return false;
}

}  // namespace rig
