// rig-internal: a std::streambuf that appends to one std::string reserved up
// front (rig::save_glb encodes whole GLBs through it).
#pragma once

#include <cstddef>
#include <streambuf>
#include <string>
#include <string_view>

namespace rig {

// The encoded file in one string reserved for the buffers plus the JSON:
// an ostringstream grows by doubling, copying a 50 MB GLB several times.
class StringSink final : public std::streambuf {
 public:
  explicit StringSink(size_t reserve) { bytes_.reserve(reserve); }
  std::string_view view() const { return bytes_; }

 protected:
  std::streamsize xsputn(const char* p, std::streamsize n) override {
    bytes_.append(p, static_cast<size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) bytes_.push_back(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }

 private:
  std::string bytes_;
};

}  // namespace rig
