// What pgx's five MinAtar games (pgx/minatar/*.py) share: their options,
// the action set's mapping and the sticky action that start every _step,
// and a fixed-size jax.random.choice(key, a, p=p) for their spawn draws.
// (pgx's own minatar/utils.py only draws SVGs; nothing of it is needed
// here.)
//
// Options, as each game's constructor takes them:
// - use_minimal_action_set (bool, default true): pgx's action space is
//   the game's minimal action set (an action is an index into it, mapped
//   to MinAtar's full action id, 0..5 = noop, left, up, right, down, fire)
//   or, when false, all 6 full actions (the action is the full id). pgx's
//   legal_action_mask is all ones of the action space's size either way.
//   Each game's kNumActions is 6 (the largest) and its NumActions(config)
//   the size for the options (PgxEnv<Game> sizes the action space and the
//   mask from it); its legal_action_mask holds 6 entries, all true, of
//   which the adapter reports the first NumActions(config). (Seaquest's
//   minimal set is all 6 actions, so both values are the same game.)
// - sticky_action_prob (float, default 0.1): each _step first draws
//   uniform(key) and replays the previous (full) action when it is below
//   the probability.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <limits>

#include "core/config.h"
#include "refkit/jax/random.h"

namespace envpool_lite::pgx::minatar {

inline Config DefaultConfig() {
  return {{"max_episode_steps", int64_t{0}},
          {"use_minimal_action_set", true},
          {"sticky_action_prob", 0.1}};
}

// MinAtar's full action set: 0..5 = noop, left, up, right, down, fire.
inline constexpr int kNumFullActions = 6;

// Validates the options.
inline void CheckConfig(const Config& config) {
  config.GetBool("use_minimal_action_set");
  config.GetFloat("sticky_action_prob");  // finite (pgx asserts nothing)
}

// The action space's size (each game's NumActions): pgx's
// legal_action_mask is jnp.ones(minimal_action_set.shape[0]) with the
// minimal set, jnp.ones(6) without.
template <std::size_t N>
int NumActions(const Config& config,
               const std::array<int32_t, N>& minimal_action_set) {
  return config.GetBool("use_minimal_action_set")
             ? static_cast<int>(minimal_action_set.size())
             : kNumFullActions;
}

// The first line of every game's _step (MinAtar*._step), an action of the
// action space to MinAtar's full action id:
//   action = jax.lax.select(self.use_minimal_action_set,
//                           self.minimal_action_set[action], action)
// (PgxEnv's pool keeps the action inside the action space, so the gather
// is in bounds.)
template <std::size_t N>
int32_t FullAction(bool use_minimal_action_set,
                   const std::array<int32_t, N>& minimal_action_set,
                   int action) {
  return use_minimal_action_set ? minimal_action_set[action] : action;
}

// The probability as pgx compares it: `uniform(key) < sticky_action_prob`
// is a float32 array against a Python float, which JAX's weak typing
// converts to float32 (rounding to nearest; past float32's range, inf).
inline float StickyActionProb(const Config& config) {
  const double p = config.GetFloat("sticky_action_prob");
  constexpr double kMax = std::numeric_limits<float>::max();
  if (p > kMax) return std::numeric_limits<float>::infinity();
  if (p < -kMax) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(p);
}

// The first lines of every game's module-level _step:
//   action = jax.lax.cond(jax.random.uniform(key) < sticky_action_prob,
//                         lambda: state._last_action, lambda: action)
inline int32_t StickyAction(jax_random::Key key, float sticky_action_prob,
                            int32_t last_action, int32_t action) {
  return jax_random::Uniform(key) < sticky_action_prob ? last_action : action;
}

// jax.random.split(key, n)[i] without building all n keys (refkit/jax/random.h:
// key i of a split is Threefry2x32(key, hi(i), lo(i))).
inline jax_random::Key SplitAt(jax_random::Key key, uint64_t i) {
  return jax_random::ThreefryAt(key, i);
}

// jax_random::ChoiceIndex(key, p) (the index jax.random.choice(key, n,
// p=p) draws) for a float32 p of N <= 16 weights, with no allocation:
// jnp.cumsum of up to 16 elements is XLA's sequential float32 sum on the
// CPU; r = p_cuml[-1] * (1 - uniform(key)); jnp.searchsorted(p_cuml, r)
// (side="left", method="scan"): bit_width(N) halving steps from (0, N),
// going left when r <= p_cuml[mid] in the sort comparator's total order.
template <std::size_t N>
int32_t ChoiceIndex(jax_random::Key key, const std::array<float, N>& p) {
  static_assert(N > 0 && N <= 16, "cumsum is sequential only up to 16");
  std::array<float, N> cuml;
  float acc = 0.0f;
  for (std::size_t i = 0; i < N; ++i) cuml[i] = acc = acc + p[i];
  const float r = cuml[N - 1] * (1.0f - jax_random::Uniform(key));
  const int32_t r_key = jax_random::detail::TotalOrderKey(r);
  uint32_t low = 0;
  uint32_t high = N;
  for (int level = std::bit_width(N); level > 0; --level) {
    const uint32_t mid = low + (high - low) / 2;
    if (r_key <= jax_random::detail::TotalOrderKey(cuml[mid])) {
      high = mid;
    } else {
      low = mid;
    }
  }
  return static_cast<int32_t>(high);
}

// jax.random.choice(key, jnp.array([True, False]), p=jnp.array([1 / 3,
// 2 / 3])) (Asterix's is_gold, Seaquest's is_sub): the Python floats
// become float32 weights.
inline bool ChoiceOneThirdTrue(jax_random::Key key) {
  static constexpr std::array<float, 2> kP{static_cast<float>(1.0 / 3.0),
                                           static_cast<float>(2.0 / 3.0)};
  return ChoiceIndex(key, kP) == 0;
}

// jax.random.choice(key, jnp.array([True, False])): randint(key, (), 0, 2)
// picks index 0 (True) or 1 (False).
inline bool ChoiceTrueFalse(jax_random::Key key) {
  return jax_random::Randint(key, 0, 2) == 0;
}

// Python's (and jnp's) floor division of int32s, as `oxygen * 10 //
// MAX_OXYGEN` computes it for a negative numerator.
inline int32_t FloorDiv(int32_t a, int32_t b) {
  int32_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace envpool_lite::pgx::minatar
