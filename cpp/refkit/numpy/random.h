// NumpyRandom: the random stream of
//   np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
// which is what gymnasium.utils.seeding.np_random(seed) builds, reproduced
// bit for bit so that an env seeded with s draws exactly what the gymnasium
// env reset with seed=s draws.
//
// SeedSequence: the seed is split into little-endian uint32 words (one word
// below 2^32, two otherwise), hashed into a 4-word pool, and
// generate_state(4, uint64) expands the pool into PCG64's initial state and
// increment. PCG64 is the 128-bit LCG with the XSL-RR output function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/env_state.h"
#include "refkit/numpy/masked_interval.h"

namespace envpool_lite {

class NumpyRandom {
 public:
  explicit NumpyRandom(uint64_t seed) { Seed(seed); }

  void Seed(uint64_t seed) {
    uint64_t words[4];
    SeedSequenceState(seed, words);
    // pcg64_set_seed: state = words[0..1], inc = words[2..3], high word
    // first; then pcg_setseq_128_srandom_r.
    const uint128 init_state =
        (static_cast<uint128>(words[0]) << 64) | words[1];
    const uint128 init_seq = (static_cast<uint128>(words[2]) << 64) | words[3];
    state_ = 0;
    inc_ = (init_seq << 1) | 1;
    Step();
    state_ += init_state;
    Step();
    // A new Generator starts with no buffered 32-bit half.
    has_uint32_ = false;
    uinteger_ = 0;
  }

  // Generator.integers' raw source: PCG64's next 64 random bits.
  uint64_t NextUint64() {
    Step();
    // XSL-RR: xor the halves, rotate right by the top 6 bits of the state.
    const uint64_t xored =
        static_cast<uint64_t>(state_ >> 64) ^ static_cast<uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    return (xored >> rot) | (xored << ((64 - rot) & 63));
  }

  // numpy's next_double: the top 53 bits scaled into [0, 1).
  double NextDouble() {
    return static_cast<double>(NextUint64() >> 11) * (1.0 / 9007199254740992.0);
  }

  // Generator.uniform(low, high): low + (high - low) * next_double, with the
  // range computed first, as numpy's random_uniform(off, scale) does.
  double Uniform(double low, double high) {
    const double range = high - low;
    return low + range * NextDouble();
  }

  // PCG64's next_uint32 (numpy's pcg64_next32): one 64-bit draw serves two
  // calls, low half first; the high half waits in the bit generator (across
  // other draws, and across env resets without a seed, as in numpy) until
  // the next 32-bit call. NextUint64/NextDouble neither use nor clear it.
  uint32_t NextUint32() {
    if (has_uint32_) {
      has_uint32_ = false;
      return uinteger_;
    }
    const uint64_t next = NextUint64();
    has_uint32_ = true;
    uinteger_ = static_cast<uint32_t>(next >> 32);
    return static_cast<uint32_t>(next & 0xFFFFFFFFu);
  }

  // Generator.integers(low, high) (high exclusive, int64, one value), which
  // Generator.choice(a) also draws for its index (see Choice):
  // numpy's random_bounded_uint64_fill with rng = high - 1 - low. No draw
  // for a single value; Lemire's method over next_uint32 for ranges below
  // 2**32, over next_uint64 above; the full ranges take the raw draw.
  int64_t Integers(int64_t low, int64_t high) {
    const uint64_t rng =
        static_cast<uint64_t>(high) - static_cast<uint64_t>(low) - 1;
    if (rng == 0) return low;
    uint64_t value;
    if (rng <= 0xFFFFFFFFull) {
      value = rng == 0xFFFFFFFFull
                  ? NextUint32()
                  : BoundedLemire32(static_cast<uint32_t>(rng));
    } else {
      value = rng == ~uint64_t{0} ? NextUint64() : BoundedLemire64(rng);
    }
    return static_cast<int64_t>(static_cast<uint64_t>(low) + value);
  }

  // random_interval(max): a value in [0, max], as Generator.shuffle draws
  // for each position from the last down (masked rejection over
  // next_uint32 while max fits 32 bits, else over next_uint64).
  uint64_t Interval(uint64_t max) { return MaskedInterval(*this, max); }

  // Generator.shuffle(x) of a sequence (a list: swaps from the last
  // position down, each with an earlier or the same one).
  template <typename T>
  void Shuffle(std::vector<T>* x) {
    for (std::size_t i = x->size(); i-- > 1;) {
      const std::size_t j = Interval(i);
      T tmp = (*x)[i];
      (*x)[i] = (*x)[j];
      (*x)[j] = tmp;
    }
  }

  // The index Generator.choice(a) picks for a sequence a of n items,
  // uniformly (no p): integers(0, n). No draw when n is 1.
  int64_t Choice(int64_t n) { return Integers(0, n); }

  // Its state for get_state / set_state, field by field (no padding bytes:
  // equal states are equal bytes).
  ENVPOOL_LITE_STATE_FIELDS(state_, inc_, has_uint32_, uinteger_)

 private:
  using uint128 = unsigned __int128;

  // PCG64's default multiplier, 0x2360ED051FC65DA44385DF649FCCF645.
  static constexpr uint128 kMultiplier =
      (static_cast<uint128>(0x2360ED051FC65DA4ULL) << 64) |
      0x4385DF649FCCF645ULL;

  void Step() { state_ = state_ * kMultiplier + inc_; }

  // numpy's buffered_bounded_lemire_uint32: a value in [0, rng].
  uint32_t BoundedLemire32(uint32_t rng) {
    const uint32_t rng_excl = rng + 1;
    uint64_t m = static_cast<uint64_t>(NextUint32()) * rng_excl;
    uint32_t leftover = static_cast<uint32_t>(m);
    if (leftover < rng_excl) {
      const uint32_t threshold = (0xFFFFFFFFu - rng) % rng_excl;
      while (leftover < threshold) {
        m = static_cast<uint64_t>(NextUint32()) * rng_excl;
        leftover = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // numpy's bounded_lemire_uint64: a value in [0, rng].
  uint64_t BoundedLemire64(uint64_t rng) {
    const uint64_t rng_excl = rng + 1;
    uint128 m = static_cast<uint128>(NextUint64()) * rng_excl;
    uint64_t leftover = static_cast<uint64_t>(m);
    if (leftover < rng_excl) {
      const uint64_t threshold = (~uint64_t{0} - rng) % rng_excl;
      while (leftover < threshold) {
        m = static_cast<uint128>(NextUint64()) * rng_excl;
        leftover = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // SeedSequence(seed).generate_state(4, np.uint64), with numpy's constants.
  static void SeedSequenceState(uint64_t seed, uint64_t out[4]) {
    constexpr uint32_t kInitA = 0x43b0d7e5;
    constexpr uint32_t kMultA = 0x931e8875;
    constexpr uint32_t kInitB = 0x8b51f9dd;
    constexpr uint32_t kMultB = 0x58f38ded;
    constexpr uint32_t kMixMultL = 0xca01f9dd;
    constexpr uint32_t kMixMultR = 0x4973f715;
    constexpr int kXShift = 16;
    constexpr int kPoolSize = 4;

    // _int_to_uint32_array: 0 -> [0]; otherwise little-endian 32-bit words.
    std::vector<uint32_t> entropy;
    if (seed == 0) entropy.push_back(0);
    for (uint64_t n = seed; n > 0; n >>= 32) {
      entropy.push_back(static_cast<uint32_t>(n & 0xFFFFFFFFu));
    }

    uint32_t hash_const = kInitA;
    auto hashmix = [&hash_const](uint32_t value) {
      value ^= hash_const;
      hash_const *= kMultA;
      value *= hash_const;
      value ^= value >> kXShift;
      return value;
    };
    auto mix = [](uint32_t x, uint32_t y) {
      uint32_t result = kMixMultL * x - kMixMultR * y;
      result ^= result >> kXShift;
      return result;
    };

    // mix_entropy: at most 2 entropy words, so none are left over after
    // filling the 4-word pool.
    uint32_t pool[kPoolSize];
    for (int i = 0; i < kPoolSize; ++i) {
      pool[i] = hashmix(i < static_cast<int>(entropy.size()) ? entropy[i] : 0);
    }
    for (int src = 0; src < kPoolSize; ++src) {
      for (int dst = 0; dst < kPoolSize; ++dst) {
        if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
      }
    }

    // generate_state: 8 uint32 words cycling over the pool, paired
    // little-endian into 4 uint64.
    uint32_t state_words[8];
    uint32_t hash_b = kInitB;
    for (int i = 0; i < 8; ++i) {
      uint32_t v = pool[i % kPoolSize];
      v ^= hash_b;
      hash_b *= kMultB;
      v *= hash_b;
      v ^= v >> kXShift;
      state_words[i] = v;
    }
    for (int i = 0; i < 4; ++i) {
      out[i] = static_cast<uint64_t>(state_words[2 * i]) |
               (static_cast<uint64_t>(state_words[2 * i + 1]) << 32);
    }
  }

  uint128 state_ = 0;
  uint128 inc_ = 0;
  bool has_uint32_ = false;  // PCG64's has_uint32 / uinteger buffer
  uint32_t uinteger_ = 0;
};

}  // namespace envpool_lite
