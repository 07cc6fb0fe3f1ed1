// jax.random as JAX-defined envs (pgx's games, later other JAX env families)
// draw from it, reproduced bit for bit: jax 0.10.2's default PRNG,
// Threefry-2x32 with jax_threefry_partitionable=True (jax's default since
// 0.5), 32-bit mode (jax_enable_x64=False), on the CPU backend. A key is a
// legacy uint32[2] key (jax.random.PRNGKey); a C++ port carries it through
// a game exactly as the Python code carries its key.
//
// The float arithmetic is float32, as XLA's CPU backend does it. One point
// is not IEEE op-by-op: XLA's CPU compiler allows LLVM to contract a
// multiply feeding an add into one fused multiply-add (it sets
// AllowFPOpFusion=Fast), and on a host with FMA instructions (every x86-64
// CPU since Haswell, every aarch64 one) it does so in uniform's
// `floats * (maxval - minval) + minval`. Uniform below therefore uses
// std::fma there (checked against jax on an FMA host: the unfused form
// differs in ~40% of draws for a general range). Everything else is plain
// float32 with no contraction (the project compiles with -ffp-contract=off).
//
// Shapes: jax's partitionable random_bits numbers the elements of a shape
// with a 64-bit iota split into (hi, lo) uint32 counters, so shape () draws
// what element 0 of shape (1,) draws (and shape (a, b) what shape (a * b,)
// draws). The scalar forms below are jax's shape () calls.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <ranges>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace envpool_lite::jax_random {

using Key = std::array<uint32_t, 2>;

// jax._src.random.threefry2x32._threefry2x32_lowering: the Threefry-2x32
// block function, 20 rounds (5 blocks of 4 rotations) with a key injection
// after each block, on one counter pair (x0, x1).
inline std::array<uint32_t, 2> Threefry2x32(Key key, uint32_t x0, uint32_t x1) {
  static constexpr uint32_t kRotations[2][4] = {{13, 15, 26, 6},
                                                {17, 29, 16, 24}};
  const uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
  x0 += ks[0];
  x1 += ks[1];
  for (uint32_t block = 0; block < 5; ++block) {
    for (uint32_t r : kRotations[block % 2]) {
      x0 += x1;
      x1 = (x1 << r) | (x1 >> (32 - r));
      x1 ^= x0;
    }
    x0 += ks[(block + 1) % 3];
    x1 += ks[(block + 2) % 3] + (block + 1);
  }
  return {x0, x1};
}

// jax.random.PRNGKey(seed) (threefry_seed) with x64 disabled: the seed is
// taken as a 64-bit integer (jax converts a Python int with np.int64 first),
// canonicalized to int32 (wrapping: only its low 32 bits survive), so the
// high word (seed >> 32 of an int32) is 0 and the key is [0, seed mod 2**32]:
// PRNGKey(-1) == [0, 0xFFFFFFFF], PRNGKey(2**32 + 5) == [0, 5]. Eager jax
// accepts every Python int in [-2**63, 2**63) this way and raises
// OverflowError outside it, which int64_t cannot hold: nothing is left to
// reject here. (Under jax.jit a Python-int seed outside int32 raises
// OverflowError when the argument is parsed; an eager PRNGKey does not.)
inline Key PRNGKey(int64_t seed) {
  return {0u, static_cast<uint32_t>(static_cast<uint64_t>(seed))};
}

// Element i of jax's partitionable counters (prng.iota_2x32_shape): the
// 64-bit index i as (hi, lo).
inline std::array<uint32_t, 2> ThreefryAt(Key key, uint64_t i) {
  return Threefry2x32(key, static_cast<uint32_t>(i >> 32),
                      static_cast<uint32_t>(i));
}

// jax.random.split(key, n) (threefry _threefry_split_foldlike): key i is
// Threefry2x32(key, hi(i), lo(i)), both output words. jax raises for a
// negative n; so does this (std::invalid_argument).
inline std::vector<Key> Split(Key key, int n) {
  if (n < 0) throw std::invalid_argument("Split: n must be >= 0");
  std::vector<Key> out(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = ThreefryAt(key, i);
  return out;
}

// `a, b = jax.random.split(key)`: Split(key, 2) as a pair.
inline std::pair<Key, Key> Split2(Key key) {
  return {Threefry2x32(key, 0, 0), Threefry2x32(key, 0, 1)};
}

// jax.random.fold_in(key, data) (threefry_fold_in): the non-partitionable
// threefry_2x32 of the counter pair threefry_seed(data) = [0, data], i.e.
// Threefry2x32(key, 0, data). So fold_in(key, i) == split(key, n)[i] for
// i < n. jax takes Python ints in [0, 2**32) (negative ones raise) and
// wraps numpy int32s: pass static_cast<uint32_t>(data).
inline Key FoldIn(Key key, uint32_t data) { return Threefry2x32(key, 0, data); }

// jax.random.bits(key, (n,), uint32) / jax._src.random.core._random_bits(
// key, 32, (n,)) (threefry _threefry_random_bits_partitionable): element i
// is the xor of the two words of Threefry2x32(key, hi(i), lo(i)).
inline std::vector<uint32_t> RandomBits32(Key key, std::size_t n) {
  std::vector<uint32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = ThreefryAt(key, i);
    out[i] = b[0] ^ b[1];
  }
  return out;
}

// _random_bits(key, 32, ()): iota_2x32_shape(()) is (0, 0), so the same
// word as element 0 of shape (1,).
inline uint32_t RandomBits32(Key key) {
  const auto b = Threefry2x32(key, 0, 0);
  return b[0] ^ b[1];
}

namespace detail {

// lax.max on float32 as XLA does it: NaN if either operand is NaN.
inline float XlaMax(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::numeric_limits<float>::quiet_NaN();
  }
  return a > b ? a : b;
}

// jax._src.random.core._uniform's arithmetic on one 32-bit word (float32):
// the top 23 bits as the mantissa of a float in [1, 2), minus 1, scaled into
// [minval, maxval) with one fused multiply-add (see the file comment), then
// lax.max(minval, ...).
inline float UniformFromBits(uint32_t bits, float minval, float maxval) {
  const float one_two = std::bit_cast<float>((bits >> 9) | 0x3F800000u);
  const float floats = one_two - 1.0f;
  const float span = maxval - minval;
  return XlaMax(minval, std::fma(floats, span, minval));
}

// jax._src.random.core._randint's int32 arithmetic on the two words
// (higher_bits from split(key)[0], lower_bits from split(key)[1]):
// span = uint32(maxval - minval) (wrapping), 1 when maxval <= minval;
// multiplier = (2**16 % span)**2 % span (2**32 % span); offset =
// ((hi % span) * multiplier + lo % span) % span, all uint32 with wrapping
// (the product can wrap: that is jax's arithmetic, kept); minval + offset
// wrapping in int32.
inline int32_t RandintFromBits(uint32_t hi, uint32_t lo, int32_t minval,
                               int32_t maxval) {
  uint32_t span = static_cast<uint32_t>(maxval) - static_cast<uint32_t>(minval);
  if (maxval <= minval) span = 1;
  uint32_t multiplier = 65536u % span;
  multiplier = (multiplier * multiplier) % span;
  uint32_t offset = (hi % span) * multiplier + lo % span;
  offset %= span;
  return static_cast<int32_t>(static_cast<uint32_t>(minval) + offset);
}

// jnp.cumsum of a float32 vector as XLA's CPU backend computes it: jax
// lowers cumsum to a reduce-window sum, which XLA's ReduceWindowRewriter
// (base length 16 on the CPU) turns, for n > 16, into a two-level scan:
// pad with zeros to a multiple of 16, scan each row of 16 sequentially,
// scan the row totals (recursively, the same way) exclusively, and add
// that row offset to each element of the row. Up to 16 elements it is the
// sequential sum from 0.
inline std::vector<float> XlaCumsum(std::span<const float> x) {
  constexpr std::size_t kBase = 16;
  const std::size_t n = x.size();
  std::vector<float> out(n);
  if (n <= kBase) {
    float acc = 0.0f;
    for (std::size_t i = 0; i < n; ++i) out[i] = acc = acc + x[i];
    return out;
  }
  const std::size_t rows = (n + kBase - 1) / kBase;
  std::vector<float> inner(rows * kBase);
  std::vector<float> totals(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    float acc = 0.0f;
    for (std::size_t j = 0; j < kBase; ++j) {
      const std::size_t i = r * kBase + j;
      acc = acc + (i < n ? x[i] : 0.0f);
      inner[i] = acc;
    }
    totals[r] = acc;
  }
  const std::vector<float> scanned = XlaCumsum(totals);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = i / kBase;
    out[i] = inner[i] + (r == 0 ? 0.0f : scanned[r - 1]);
  }
  return out;
}

// The key of lax's sort comparators on a float (_canonicalize_float_for_sort
// then a TOTALORDER compare): -0 as +0, every NaN as +NaN, ordered
// -inf < ... < +inf < NaN.
inline int32_t TotalOrderKey(float x) {
  if (x == 0.0f) x = 0.0f;
  if (std::isnan(x)) x = std::numeric_limits<float>::quiet_NaN();
  const int32_t i = std::bit_cast<int32_t>(x);
  return i < 0 ? (i ^ 0x7FFFFFFF) : i;
}

// jnp.take's fill value (mode="fill", its default) for an index out of
// range: NaN for floats, the minimum for signed integers, the maximum for
// unsigned ones, true for bool.
template <class T>
T TakeFill() {
  if constexpr (std::is_same_v<T, bool>) {
    return true;
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();
  } else if constexpr (std::is_signed_v<T>) {
    return std::numeric_limits<T>::min();
  } else {
    return std::numeric_limits<T>::max();
  }
}

template <class T>
T Take(std::span<const T> a, int32_t index) {
  return index >= 0 && static_cast<std::size_t>(index) < a.size()
             ? a[static_cast<std::size_t>(index)]
             : TakeFill<T>();
}

}  // namespace detail

// jax.random.uniform(key, (n,), float32, minval, maxval).
inline std::vector<float> Uniform(Key key, std::size_t n, float minval,
                                  float maxval) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = ThreefryAt(key, i);
    out[i] = detail::UniformFromBits(b[0] ^ b[1], minval, maxval);
  }
  return out;
}

// jax.random.uniform(key, (n,)): [0, 1).
inline std::vector<float> Uniform(Key key, std::size_t n) {
  return Uniform(key, n, 0.0f, 1.0f);
}

// jax.random.uniform(key, (), float32, minval, maxval): shape ().
inline float Uniform(Key key, float minval, float maxval) {
  return detail::UniformFromBits(RandomBits32(key), minval, maxval);
}

// jax.random.uniform(key): a float32 in [0, 1), shape ().
inline float Uniform(Key key) { return Uniform(key, 0.0f, 1.0f); }

// jax.random.bernoulli(key, p) with a float32 p (mode="low"), shape ():
// uniform(key, (), float32) < p.
inline bool Bernoulli(Key key, float p) { return Uniform(key) < p; }

// jax.random.bernoulli(key, p, (n,)): element i is uniform(key, (n,))[i] <
// p, as 0/1.
inline std::vector<uint8_t> Bernoulli(Key key, std::size_t n, float p) {
  std::vector<uint8_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = ThreefryAt(key, i);
    out[i] = detail::UniformFromBits(b[0] ^ b[1], 0.0f, 1.0f) < p ? 1 : 0;
  }
  return out;
}

// jax.random.randint(key, (n,), minval, maxval) with dtype int32 (the
// default in 32-bit mode): k1, k2 = split(key); higher_bits =
// random_bits(k1, 32, (n,)), lower_bits = random_bits(k2, 32, (n,)); then
// detail::RandintFromBits. jax's minval/maxval clipping
// (_convert_and_clip_integer to int32, and the maxval_out_of_range span + 1
// for maxval above the dtype's max) never acts on int32 bounds: in 32-bit
// mode a Python int outside int32 raises OverflowError (randint is jitted)
// and a numpy int64 wraps to int32 before any clipping. maxval <= minval
// returns minval.
inline std::vector<int32_t> Randint(Key key, std::size_t n, int32_t minval,
                                    int32_t maxval) {
  const auto [k1, k2] = Split2(key);
  std::vector<int32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto hi = ThreefryAt(k1, i);
    const auto lo = ThreefryAt(k2, i);
    out[i] =
        detail::RandintFromBits(hi[0] ^ hi[1], lo[0] ^ lo[1], minval, maxval);
  }
  return out;
}

// jax.random.randint(key, (), minval, maxval), int32.
inline int32_t Randint(Key key, int32_t minval, int32_t maxval) {
  const auto [k1, k2] = Split2(key);
  return detail::RandintFromBits(RandomBits32(k1), RandomBits32(k2), minval,
                                 maxval);
}

// jax.random.choice(key, n) (shape (), replace=True, no p): randint(key,
// (), 0, n). jax raises ValueError for n <= 0; this throws
// std::invalid_argument.
inline int32_t Choice(Key key, int32_t n) {
  if (n <= 0) throw std::invalid_argument("Choice: n must be > 0");
  return Randint(key, 0, n);
}

// jax.random.choice(key, a) for a 1-D a (shape (), replace=True, no p):
// a[randint(key, (), 0, len(a))].
template <std::ranges::contiguous_range A>
auto Choice(Key key, const A& a) -> std::ranges::range_value_t<A> {
  using T = std::ranges::range_value_t<A>;
  const std::span<const T> s(std::ranges::data(a), std::ranges::size(a));
  if (s.empty()) throw std::invalid_argument("Choice: a must not be empty");
  return s[static_cast<std::size_t>(
      Randint(key, 0, static_cast<int32_t>(s.size())))];
}

// The index jax.random.choice(key, n, p=p) draws (shape (), replace=True)
// for float32 weights: p_cuml = jnp.cumsum(p) (detail::XlaCumsum); r =
// p_cuml[-1] * (1 - uniform(key, (), float32)); index =
// jnp.searchsorted(p_cuml, r) (side="left", method="scan": a fixed
// ceil(log2(n + 1)) halving steps from (low, high) = (0, n), going left
// when r <= p_cuml[mid] under the sort comparator's total order; the index
// is the final high). It is < n for finite non-negative weights with a
// positive sum (all-zero weights give 0); negative weights can give n
// (jnp.take then returns its fill value, see Choice below).
inline int32_t ChoiceIndex(Key key, std::span<const float> p) {
  if (p.empty()) throw std::invalid_argument("ChoiceIndex: p is empty");
  if (p.size() >
      static_cast<std::size_t>(std::numeric_limits<int32_t>::max())) {
    throw std::invalid_argument("ChoiceIndex: p is too long");
  }
  const std::vector<float> cuml = detail::XlaCumsum(p);
  const float r = cuml.back() * (1.0f - Uniform(key));
  const int32_t r_key = detail::TotalOrderKey(r);
  const auto n = static_cast<uint32_t>(p.size());
  uint32_t low = 0;
  uint32_t high = n;
  for (int level = std::bit_width(n); level > 0; --level) {
    const uint32_t mid = low + (high - low) / 2;
    if (r_key <= detail::TotalOrderKey(cuml[mid])) {
      high = mid;
    } else {
      low = mid;
    }
  }
  return static_cast<int32_t>(high);
}

// The same for a bool mask p (pgx: p=(board == 0)): jax promotes it to
// float32 0/1 weights (promote_dtypes_inexact), whose cumsum is exact.
inline int32_t ChoiceIndex(Key key, std::span<const bool> p) {
  std::vector<float> weights(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) weights[i] = p[i] ? 1.0f : 0.0f;
  return ChoiceIndex(key, std::span<const float>(weights));
}

// jax.random.choice(key, a, p=p) for a 1-D a (shape (), replace=True), p
// float32 or bool: a[ChoiceIndex(key, p)] (jnp.take: an index of len(a),
// which only negative weights produce, gives jnp.take's fill value).
// pgx: choice(key, jnp.arange(16), p=(board == 0)),
//      choice(key, jnp.int32([1, 2]), p=jnp.array([0.9, 0.1])).
template <std::ranges::contiguous_range A, std::ranges::contiguous_range P>
auto Choice(Key key, const A& a, const P& p) -> std::ranges::range_value_t<A> {
  using T = std::ranges::range_value_t<A>;
  using W = std::ranges::range_value_t<P>;
  static_assert(std::is_same_v<W, float> || std::is_same_v<W, bool>,
                "Choice: p must hold float or bool");
  const std::span<const T> as(std::ranges::data(a), std::ranges::size(a));
  const std::span<const W> ps(std::ranges::data(p), std::ranges::size(p));
  if (as.size() != ps.size()) {
    throw std::invalid_argument("Choice: p must have the size of a");
  }
  return detail::Take(as, ChoiceIndex(key, ps));
}

// jax._src.random.core._shuffle's number of sort rounds for n elements:
// ceil(3 * ln(max(1, n)) / ln(2**32 - 1)) in float64: 0 for n <= 1, 1 for
// n <= 1625, 2 up to n = 2642245, then 3.
inline int ShuffleRounds(std::size_t n) {
  const double size = static_cast<double>(std::max<std::size_t>(1, n));
  return static_cast<int>(
      std::ceil(3.0 * std::log(size) / std::log(4294967295.0)));
}

// jax._src.random.core._shuffle(key, x, 0) on a 1-D x, in place: for each
// round, key, subkey = split(key); sort x stably by random_bits(subkey, 32,
// (n,)) (lax.sort_key_val, is_stable=True, ascending uint32 keys).
template <class T>
void ShuffleInPlace(Key key, std::span<T> x) {
  const std::size_t n = x.size();
  const int rounds = ShuffleRounds(n);
  std::vector<uint32_t> order(n);
  std::vector<T> sorted(n);
  for (int round = 0; round < rounds; ++round) {
    const auto [next, subkey] = Split2(key);
    key = next;
    const std::vector<uint32_t> sort_keys = RandomBits32(subkey, n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return sort_keys[a] < sort_keys[b];
    });
    for (std::size_t i = 0; i < n; ++i) sorted[i] = x[order[i]];
    std::copy(sorted.begin(), sorted.end(), x.begin());
  }
}

// jax.random.permutation(key, n) for an int n: _shuffle(key,
// jnp.arange(n)) (int32; a negative n gives an empty arange, as in jax).
inline std::vector<int32_t> Permutation(Key key, int32_t n) {
  std::vector<int32_t> out(static_cast<std::size_t>(std::max(n, 0)));
  std::iota(out.begin(), out.end(), 0);
  ShuffleInPlace(key, std::span<int32_t>(out));
  return out;
}

// jax.random.permutation(key, x) for a 1-D array x (independent=True or
// not: for 1-D both are _shuffle(key, x, 0)). pgx:
// permutation(key, jnp.int32([0, 0, 1, 1, 2, 2]), independent=True), and a
// 136-element int8 deck.
template <std::ranges::contiguous_range A>
auto Permutation(Key key, const A& x)
    -> std::vector<std::ranges::range_value_t<A>> {
  std::vector<std::ranges::range_value_t<A>> out(std::ranges::begin(x),
                                                 std::ranges::end(x));
  ShuffleInPlace(key, std::span(out));
  return out;
}

// jax.random.choice(key, n, (k,), replace=False) (no p): permutation(key,
// n)[:k]. jax raises ValueError for k > n or n <= 0 (with k > 0).
inline std::vector<int32_t> ChoiceWithoutReplacement(Key key, int32_t n,
                                                     std::size_t k) {
  if (k == 0) return {};
  if (n <= 0 || k > static_cast<std::size_t>(n)) {
    throw std::invalid_argument(
        "ChoiceWithoutReplacement: need 0 < k <= n or k == 0");
  }
  std::vector<int32_t> out = Permutation(key, n);
  out.resize(k);
  return out;
}

// jax.random.choice(key, a, (k,), replace=False) for a 1-D a (no p):
// permutation(key, a)[:k].
template <std::ranges::contiguous_range A>
auto ChoiceWithoutReplacement(Key key, const A& a, std::size_t k)
    -> std::vector<std::ranges::range_value_t<A>> {
  if (k == 0) return {};
  if (std::ranges::size(a) == 0 || k > std::ranges::size(a)) {
    throw std::invalid_argument(
        "ChoiceWithoutReplacement: need 0 < k <= len(a) or k == 0");
  }
  auto out = Permutation(key, a);
  out.resize(k);
  return out;
}

}  // namespace envpool_lite::jax_random
