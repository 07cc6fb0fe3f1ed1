// The random draws of EnvPool's own toy-text envs (NChain, Catch), which
// gymnasium does not have: EnvPool seeds a std::mt19937 with the env's seed
// (seed + env id) once, and draws through libstdc++'s distributions. The
// mt19937 stream is fixed by the C++ standard; the distributions are not,
// so the two EnvPool uses are written out here as libstdc++ (GCC 11 and
// later, which EnvPool's wheels are built with) computes them, and give
// the same values whatever standard library builds this.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace envpool_lite {
namespace toy_text {

// std::uniform_real_distribution<double>(0, 1)(gen):
// generate_canonical<double, 53>, two 32-bit draws, low word first.
inline double StdUniform01(std::mt19937& gen) {
  const double r = 4294967296.0;  // 2**32
  double sum = 0.0;
  double scale = 1.0;
  for (int k = 0; k < 2; ++k) {
    sum += static_cast<double>(gen()) * scale;
    scale *= r;
  }
  double value = sum / scale;
  if (value >= 1.0) value = std::nextafter(1.0, 0.0);
  return value;  // a + (b - a) * value, with a = 0, b = 1
}

// std::uniform_int_distribution<int>(0, n - 1)(gen), n >= 1: libstdc++'s
// _S_nd (Lemire's nearly-divisionless method over 32-bit draws).
inline int StdUniformInt(std::mt19937& gen, uint32_t n) {
  uint64_t product = static_cast<uint64_t>(gen()) * n;
  uint32_t low = static_cast<uint32_t>(product);
  if (low < n) {
    const uint32_t threshold = (0u - n) % n;
    while (low < threshold) {
      product = static_cast<uint64_t>(gen()) * n;
      low = static_cast<uint32_t>(product);
    }
  }
  return static_cast<int>(product >> 32);
}

}  // namespace toy_text
}  // namespace envpool_lite
