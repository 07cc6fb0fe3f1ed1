// Generator.standard_normal() / normal(loc, scale) of numpy's Generator on
// our PCG64 stream (NumpyRandom): numpy's own ziggurat, called from numpy's
// random C library (numpy/random/lib/libnpyrandom.a, which the MuJoCo
// families link), so that the draws are numpy's by construction.
#pragma once

#include <numpy/random/bitgen.h>

#include "refkit/numpy/random.h"

extern "C" double random_standard_normal(bitgen_t* bitgen_state);

namespace envpool_lite {

inline double StandardNormal(NumpyRandom* rng) {
  bitgen_t bitgen;
  bitgen.state = rng;
  bitgen.next_uint64 = [](void* st) {
    return static_cast<NumpyRandom*>(st)->NextUint64();
  };
  bitgen.next_uint32 = [](void* st) {
    return static_cast<NumpyRandom*>(st)->NextUint32();
  };
  bitgen.next_double = [](void* st) {
    return static_cast<NumpyRandom*>(st)->NextDouble();
  };
  bitgen.next_raw = bitgen.next_uint64;
  return random_standard_normal(&bitgen);
}

// Generator.normal(loc, scale): loc + scale * standard_normal, as numpy's
// random_normal computes it.
inline double Normal(NumpyRandom* rng, double loc, double scale) {
  return loc + scale * StandardNormal(rng);
}

}  // namespace envpool_lite
