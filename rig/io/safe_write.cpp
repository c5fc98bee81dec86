#include "rig/io/safe_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace rig {
namespace {

namespace fs = std::filesystem;

Status io_error(const std::string& path, const std::string& what) {
  return Status::Error(Status::Code::kIoError, path + ": " + what);
}

std::string reason(int err) { return std::strerror(err); }

// Writes all of `bytes` to `fd`, retrying short writes and EINTR.
bool write_all(int fd, std::string_view bytes, int& err) {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      return false;
    }
    if (n == 0) {
      err = ENOSPC;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

bool write_all(int fd, std::span<const std::string_view> pieces, int& err) {
  for (std::string_view piece : pieces)
    if (!write_all(fd, piece, err)) return false;
  return true;
}

// A device, FIFO or socket: written in place, every error checked.
Status write_special(const std::string& path, std::span<const std::string_view> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return io_error(path, "cannot open for writing (" + reason(errno) + ")");
  int err = 0;
  if (!write_all(fd, bytes, err)) {
    ::close(fd);
    return io_error(path, "cannot write (" + reason(err) + ")");
  }
  // Devices often cannot be synced (EINVAL); a real failure still shows.
  if (::fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP && errno != EROFS) {
    err = errno;
    ::close(fd);
    return io_error(path, "cannot write (" + reason(err) + ")");
  }
  if (::close(fd) != 0) return io_error(path, "cannot write (" + reason(errno) + ")");
  return Status::Ok();
}

}  // namespace

Status write_file_atomic(const std::string& path, std::string_view bytes) {
  return write_file_atomic(path, std::span<const std::string_view>(&bytes, 1));
}

Status write_file_atomic(const std::string& path_in, std::span<const std::string_view> bytes) {
  if (path_in.empty()) return Status::Error(Status::Code::kIoError, "empty output path");
  std::string path = path_in;
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return io_error(path_in, "is a directory, not a file");
  if (exists && !S_ISREG(st.st_mode)) return write_special(path_in, bytes);
  // A symlink to a file: replace the file it points to, not the link.
  std::error_code ec;
  if (exists && fs::is_symlink(path, ec)) {
    const fs::path target = fs::canonical(path, ec);
    if (!ec) path = target.string();
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0)
    return io_error(path_in, "folder '" + dir.string() + "' does not exist");
  // Strings built by append: GCC 12 at -O3 reports a false -Wrestrict on
  // `"literal" + std::string&&` (Release build with warnings as errors).
  if (!S_ISDIR(dst.st_mode)) return io_error(path_in, std::string("'").append(dir.string()).append("' is not a folder"));

  std::string tmp_name = std::string(".").append(fs::path(path).filename().string()).append(".tmp-XXXXXX");
  std::string tmp = (dir / tmp_name).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return io_error(path_in, "cannot create a file in '" + dir.string() + "' (" + reason(errno) + ")");
  auto fail = [&](int err, const char* what) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return io_error(path_in, std::string(what) + " (" + reason(err) + ")");
  };
  // Keep the mode of the file being replaced; new files get rw-r--r--.
  const mode_t mode = exists ? (st.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) return fail(errno, "cannot set permissions");
  int err = 0;
  if (!write_all(fd, bytes, err)) return fail(err, "cannot write");
  if (::fsync(fd) != 0) return fail(errno, "cannot write");
  if (::close(fd) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return io_error(path_in, "cannot write (" + reason(err) + ")");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return io_error(path_in, "cannot replace the file (" + reason(err) + ")");
  }
  // Make the rename itself durable; a folder that cannot be synced is no error.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return Status::Ok();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (a.empty() || b.empty()) return false;
  const bool same = fs::equivalent(a, b, ec);
  return !ec && same;
}

}  // namespace rig
