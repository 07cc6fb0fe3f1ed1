// np.load of a .npy file (numpy's format, version 1.0 to 3.0): a C-ordered
// array of unsigned bytes ('|u1') or little-endian float64 ('<f8'), read
// as float64 values, with its shape. What a reference's np.load reads (an
// asset its package ships); any other dtype or a Fortran-ordered array is
// refused.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool_lite {

struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<double> values;  // row-major
};

inline NpyArray LoadNpy(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::invalid_argument("np.load: cannot open " + path);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  auto fail = [&](const std::string& why) {
    return std::invalid_argument("np.load: " + path + ": " + why);
  };
  // The magic, the version, the header's length (2 bytes in 1.0, 4 after).
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    throw fail("not a .npy file");
  }
  const auto byte = [&](std::size_t i) {
    return static_cast<uint32_t>(static_cast<unsigned char>(bytes[i]));
  };
  std::size_t start = 10, length = byte(8) | byte(9) << 8;
  if (byte(6) >= 2) {
    if (bytes.size() < 12) throw fail("truncated header");
    start = 12;
    length = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
  }
  if (bytes.size() < start + length) throw fail("truncated header");
  const std::string header = bytes.substr(start, length);
  // The header dict's value of key, from its first non-space character.
  const auto value_of = [&](const std::string& key) {
    const std::size_t at = header.find("'" + key + "':");
    if (at == std::string::npos) throw fail("no '" + key + "' in its header");
    const std::string rest = header.substr(at + key.size() + 3);
    return rest.substr(std::min(rest.find_first_not_of(' '), rest.size()));
  };
  const std::string descr = value_of("descr");
  const bool u1 = descr.rfind("'|u1'", 0) == 0;
  const bool f8 = descr.rfind("'<f8'", 0) == 0;
  if (!u1 && !f8) throw fail("dtype other than uint8 or <f8");
  if (value_of("fortran_order").rfind("False", 0) != 0) {
    throw fail("Fortran-ordered arrays are not read");
  }
  NpyArray out;
  const std::string shape = value_of("shape");
  const std::size_t open = shape.find('('), close = shape.find(')');
  if (open == std::string::npos || close == std::string::npos) {
    throw fail("no shape");
  }
  int64_t count = 1;
  std::size_t at = open + 1;
  while (at < close) {
    const std::size_t comma = shape.find(',', at);
    const std::string item = shape.substr(at, std::min(comma, close) - at);
    if (item.find_first_not_of(' ') != std::string::npos) {
      out.shape.push_back(std::stoll(item));
      count *= out.shape.back();
    }
    if (comma == std::string::npos || comma > close) break;
    at = comma + 1;
  }
  const std::size_t width = u1 ? 1 : 8;
  const std::size_t data = start + length;
  if (bytes.size() - data != static_cast<std::size_t>(count) * width) {
    throw fail("its data does not fit its shape");
  }
  out.values.resize(static_cast<std::size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    if (u1) {
      out.values[i] = static_cast<double>(byte(data + i));
    } else {
      std::memcpy(&out.values[i], bytes.data() + data + 8 * i, 8);
    }
  }
  return out;
}

}  // namespace envpool_lite
