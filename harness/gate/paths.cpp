#include "harness/gate/paths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace harness {

std::string data_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    // TAILRIG_INSTALL_DATA_DIR is relative to the install prefix (share/tailrig).
    const fs::path installed = exe.parent_path().parent_path() / TAILRIG_INSTALL_DATA_DIR;
    if (fs::is_directory(installed / "scenarios", ec)) return installed.string();
  }
  return TAILRIG_SOURCE_DIR;
}

std::string last_results_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  // XDG base directory spec: a relative XDG_CACHE_HOME is invalid and ignored.
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/tailrig/last_results.json";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/tailrig/last_results.json";
  return {};
}

}  // namespace harness
