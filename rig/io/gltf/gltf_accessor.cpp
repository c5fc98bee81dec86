// glTF accessor decoding (read_accessor, gltf_source.h): normalized
// integers, byte strides and sparse substitution, every value checked finite
// and plausible. Decoded here because Assimp 5.2 gets them wrong.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <functional>
#include <type_traits>

#include "rig/io/gltf/gltf_source.h"

namespace rig {
namespace {

int component_size(int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    case TINYGLTF_COMPONENT_TYPE_INT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
    case TINYGLTF_COMPONENT_TYPE_DOUBLE: return 8;
    default: return 0;
  }
}

int component_count(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return 1;
    case TINYGLTF_TYPE_VEC2: return 2;
    case TINYGLTF_TYPE_VEC3: return 3;
    case TINYGLTF_TYPE_VEC4: return 4;
    case TINYGLTF_TYPE_MAT2: return 4;
    case TINYGLTF_TYPE_MAT3: return 9;
    case TINYGLTF_TYPE_MAT4: return 16;
    default: return 0;
  }
}

std::string short_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

[[gnu::always_inline]] inline double decode(const unsigned char* p, int type, bool normalized) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? std::max(v / 127.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : p[0];
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(v / 32767.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? v / 65535.0 : v;
    }
    case TINYGLTF_COMPONENT_TYPE_INT: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_DOUBLE: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
  return 0.0;
}

// Reads elements [first, first + n) of the `count` elements of `comps`
// components in a buffer view; the checks are the whole range's whatever
// part is decoded (n = count - first: all of it).
bool read_view(const tinygltf::Model& m, int view_index, size_t offset, size_t count, int comps,
               int type, bool normalized, std::vector<double>& out, std::string& error, size_t first = 0,
               size_t n = SIZE_MAX, bool* plausible = nullptr) {
  if (view_index < 0 || view_index >= static_cast<int>(m.bufferViews.size())) {
    error = "bufferView " + std::to_string(view_index) + " does not exist";
    return false;
  }
  const tinygltf::BufferView& view = m.bufferViews[view_index];
  if (view.buffer < 0 || view.buffer >= static_cast<int>(m.buffers.size())) {
    error = "bufferView " + std::to_string(view_index) + " names a missing buffer";
    return false;
  }
  const auto& data = m.buffers[view.buffer].data;
  const size_t csize = component_size(type);
  const size_t elem = csize * comps;
  const size_t stride = view.byteStride ? view.byteStride : elem;
  if (csize == 0 || stride < elem || stride > 252) {
    error = "bufferView " + std::to_string(view_index) + " has an invalid stride or type";
    return false;
  }
  // Every sum below is checked against the size it must stay under first, so
  // offsets near 2^64 cannot wrap around into range.
  if (count > kMaxAccessorElements || view.byteOffset > data.size() ||
      view.byteLength > data.size() - view.byteOffset || offset > view.byteLength) {
    error = "accessor data runs past bufferView " + std::to_string(view_index);
    return false;
  }
  const size_t needed = count == 0 ? 0 : (count - 1) * stride + elem;  // count, stride bounded: no overflow
  if (needed > view.byteLength - offset) {
    error = "accessor data runs past bufferView " + std::to_string(view_index);
    return false;
  }
  n = std::min(n, count - std::min(first, count));
  const size_t begin = view.byteOffset + offset + first * stride;
  out.resize(n * comps);
  // One loop per component type: decode's switch folds away instead of
  // running per component (issue 47: 5 % of a 1 M-vertex fix). Same values.
  // Whether every value is finite and within kMaxCoordinate (NaN fails the
  // comparison) comes with the decode, not from a second pass (values_ok
  // then only names the first that is not).
  bool all_plausible = true;
  const unsigned char* from = data.data() + begin;
  double* to = out.data();
  // The component count known at compile time for scalars, vec3 and vec4
  // (0: any other, read at run time): the inner loop unrolls.
  auto fill_n = [&](auto type_constant, auto comps_constant) {
    constexpr int kType = decltype(type_constant)::value;
    constexpr int kComps = decltype(comps_constant)::value;
    const int nc = kComps ? kComps : comps;
    for (size_t i = 0; i < n; ++i, from += stride, to += nc)
      for (int c = 0; c < nc; ++c) {
        const double v = decode(from + c * csize, kType, normalized);
        all_plausible &= std::abs(v) <= kMaxCoordinate;
        to[c] = v;
      }
  };
  auto fill = [&](auto type_constant) {
    switch (comps) {
      case 1: fill_n(type_constant, std::integral_constant<int, 1>{}); break;
      case 3: fill_n(type_constant, std::integral_constant<int, 3>{}); break;
      case 4: fill_n(type_constant, std::integral_constant<int, 4>{}); break;
      default: fill_n(type_constant, std::integral_constant<int, 0>{}); break;
    }
  };
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_BYTE>{}); break;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE>{});
      break;
    case TINYGLTF_COMPONENT_TYPE_SHORT: fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_SHORT>{}); break;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT>{});
      break;
    case TINYGLTF_COMPONENT_TYPE_INT: fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_INT>{}); break;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT>{});
      break;
    case TINYGLTF_COMPONENT_TYPE_FLOAT: fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_FLOAT>{}); break;
    default: fill(std::integral_constant<int, TINYGLTF_COMPONENT_TYPE_DOUBLE>{}); break;  // csize != 0: the only other
  }
  if (plausible) *plausible = all_plausible;
  return true;
}

// Every value finite and plausible; `first` numbers the elements in the message.
bool values_ok(const std::vector<double>& out, const int index, const size_t first, const int components,
               std::string& error) {
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) {
      error = "accessor " + std::to_string(index) + " element " + std::to_string(first + i / components) +
              " holds NaN or infinity";
      return false;
    }
    if (std::abs(out[i]) > kMaxCoordinate) {
      error = "accessor " + std::to_string(index) + " element " + std::to_string(first + i / components) +
              " holds an implausible value (" + short_number(out[i]) + ")";
      return false;
    }
  }
  return true;
}

// The accessor's own fields usable (read_accessor's first checks).
bool accessor_ok(const tinygltf::Model& m, int index, int& components, std::string& error) {
  if (index < 0 || index >= static_cast<int>(m.accessors.size())) {
    error = "accessor " + std::to_string(index) + " does not exist";
    return false;
  }
  const tinygltf::Accessor& a = m.accessors[index];
  components = component_count(a.type);
  if (components == 0 || component_size(a.componentType) == 0) {
    error = "accessor " + std::to_string(index) + " has an unknown type";
    return false;
  }
  if (a.count > kMaxAccessorElements) {
    error = "accessor " + std::to_string(index) + " count " + std::to_string(a.count) + " is over the limit of " +
            std::to_string(kMaxAccessorElements);
    return false;
  }
  return true;
}

}  // namespace

bool reads_in_ranges(const tinygltf::Model& m, const int index) {
  if (index < 0 || index >= static_cast<int>(m.accessors.size())) return false;
  const tinygltf::Accessor& a = m.accessors[index];
  return a.bufferView >= 0 && !(a.sparse.isSparse && a.sparse.count > 0);
}

bool read_accessor_range(const tinygltf::Model& m, int index, size_t first, size_t n, std::vector<double>& out,
                         int& components, std::string& error) {
  if (!accessor_ok(m, index, components, error)) return false;
  const tinygltf::Accessor& a = m.accessors[index];
  bool plausible = false;
  return read_view(m, a.bufferView, a.byteOffset, a.count, components, a.componentType, a.normalized, out, error,
                   first, n, &plausible) &&
         (plausible || values_ok(out, index, first, components, error));
}

bool read_accessor_blocks(const tinygltf::Model& m, int index, int& components, std::string& error,
                          const std::function<bool(size_t first, const std::vector<double>& values)>& use) {
  if (!reads_in_ranges(m, index)) {
    std::vector<double> all;
    if (!read_accessor(m, index, all, components, error)) return false;
    use(0, all);
    return true;
  }
  // Blocks of whole elements: a few hundred KB decoded at a time instead of
  // the whole accessor as doubles (issue 47: 120 MB of fresh pages at 1 M
  // vertices for positions, indices, joints and weights). At least one
  // block, so an empty accessor's view is checked too.
  const size_t count = m.accessors[index].count;
  std::vector<double> values;
  bool using_values = true;
  size_t first = 0;
  do {
    if (!read_accessor_range(m, index, first, kAccessorBlock, values, components, error)) return false;
    if (using_values) using_values = use(first, values);
    first += kAccessorBlock;
  } while (first < count);
  return true;
}

bool read_accessor(const tinygltf::Model& m, int index, std::vector<double>& out, int& components,
                   std::string& error) {
  if (!accessor_ok(m, index, components, error)) return false;
  const tinygltf::Accessor& a = m.accessors[index];
  if (a.bufferView >= 0) {
    if (!read_view(m, a.bufferView, a.byteOffset, a.count, components, a.componentType,
                   a.normalized, out, error))
      return false;
  } else {
    out.assign(a.count * components, 0.0);  // no view: zeros, then sparse values
  }
  if (a.sparse.isSparse && a.sparse.count > 0) {
    std::vector<double> idx, val;
    const size_t n = a.sparse.count;
    if (n > a.count) {
      error = "accessor " + std::to_string(index) + " has more sparse values than elements";
      return false;
    }
    if (!read_view(m, a.sparse.indices.bufferView, a.sparse.indices.byteOffset, n, 1,
                   a.sparse.indices.componentType, false, idx, error) ||
        !read_view(m, a.sparse.values.bufferView, a.sparse.values.byteOffset, n, components,
                   a.componentType, a.normalized, val, error))
      return false;
    for (size_t i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(idx[i]);
      if (k >= a.count) {
        error = "accessor " + std::to_string(index) + " sparse index out of range";
        return false;
      }
      std::copy_n(&val[i * components], components, &out[k * components]);
    }
  }
  return values_ok(out, index, 0, components, error);
}

}  // namespace rig
