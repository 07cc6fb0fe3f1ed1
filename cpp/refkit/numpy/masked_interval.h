// numpy's random_interval(max) (numpy/random/src/distributions): a value in
// [0, max] by masked rejection, the smallest all-ones mask covering max,
// drawing until one fits: 32-bit outputs while max fits them, else 64-bit
// ones. Shared by Generator (refkit/numpy/random.h: shuffle) and the legacy
// RandomState (refkit/numpy/random_state.h: randint, choice, shuffle); each
// passes its own bit generator (NextUint32 / NextUint64).
#pragma once

#include <cstdint>

namespace envpool_lite {

template <typename BitGen>
uint64_t MaskedInterval(BitGen& gen, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  uint64_t value;
  if (max <= 0xFFFFFFFFull) {
    while ((value = (gen.NextUint32() & mask)) > max) {
    }
  } else {
    while ((value = (gen.NextUint64() & mask)) > max) {
    }
  }
  return value;
}

}  // namespace envpool_lite
