// NumpyRandomState: the random stream of numpy's legacy
//   np.random.RandomState(seed)
// which is what dm_control's tasks draw from (task_kwargs={"random": seed}),
// reproduced bit for bit, with the legacy algorithms of the draws they make.
//
// RandomState(seed) with an int seed in [0, 2**32) runs numpy's
// mt19937_seed, which is the C++ standard's std::mt19937 seeding, and its
// 32-bit outputs are std::mt19937's. The draws on top are numpy's legacy
// ones (numpy/random/src/legacy/legacy-distributions.c and
// distributions.c), not Generator's: a double from two 32-bit words, the
// polar Box-Muller method with a cached second value for normals, and
// masked rejection sampling for bounded integers.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

#include "core/env_state.h"
#include "refkit/numpy/masked_interval.h"

namespace envpool_lite {

class NumpyRandomState {
 public:
  explicit NumpyRandomState(uint32_t seed) { Seed(seed); }

  // np.random.RandomState(seed) (or .seed(seed)): a new stream, no cached
  // normal.
  void Seed(uint32_t seed) {
    mt_.seed(seed);
    has_gauss_ = false;
    gauss_ = 0.0;
  }

  // mt19937_next32: the next 32-bit output.
  uint32_t NextUint32() { return static_cast<uint32_t>(mt_()); }

  // random_sample() / rand(): legacy_double, 53 bits from two outputs.
  double RandomSample() {
    const int32_t a = static_cast<int32_t>(NextUint32() >> 5);
    const int32_t b = static_cast<int32_t>(NextUint32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

  // uniform(low, high): low + (high - low) * random_sample(), the range
  // computed first.
  double Uniform(double low, double high) {
    const double range = high - low;
    return low + range * RandomSample();
  }

  // standard_normal() / randn(): legacy_gauss, the polar method; each
  // accepted pair gives two normals, the second kept for the next call.
  double StandardNormal() {
    if (has_gauss_) {
      has_gauss_ = false;
      const double cached = gauss_;
      gauss_ = 0.0;
      return cached;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * RandomSample() - 1.0;
      x2 = 2.0 * RandomSample() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    const double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss_ = f * x1;
    has_gauss_ = true;
    return f * x2;
  }

  // normal(loc, scale): loc + scale * standard_normal().
  double Normal(double loc, double scale) {
    return loc + scale * StandardNormal();
  }

  // randint(low, high) (high exclusive, the default int64 dtype) and
  // choice(n) (randint(0, n)): low + a masked draw in [0, high - 1 - low]:
  // 32-bit outputs while the range fits 32 bits, else 64-bit ones (two
  // outputs, high word first); no draw for a single value.
  int64_t RandInt(int64_t low, int64_t high) {
    const uint64_t rng =
        static_cast<uint64_t>(high) - static_cast<uint64_t>(low) - 1;
    return static_cast<int64_t>(static_cast<uint64_t>(low) + Masked(rng));
  }

  int64_t Choice(int64_t n) { return RandInt(0, n); }

  // random_interval(max): a value in [0, max], as shuffle() and
  // permutation() draw for each position (masked, 32-bit outputs while max
  // fits them).
  uint64_t Interval(uint64_t max) { return Masked(max); }

  // Its state for get_state / set_state, field by field (no padding bytes).
  ENVPOOL_LITE_STATE_FIELDS(mt_, has_gauss_, gauss_)

 private:
  uint64_t Masked(uint64_t rng) { return MaskedInterval(*this, rng); }
  template <typename BitGen>
  friend uint64_t MaskedInterval(BitGen& gen, uint64_t max);

  // mt19937_next64: two outputs, the first the high word.
  uint64_t NextUint64() {
    const uint64_t high = NextUint32();
    return (high << 32) | NextUint32();
  }

  std::mt19937 mt_;
  bool has_gauss_ = false;
  double gauss_ = 0.0;
};

}  // namespace envpool_lite
