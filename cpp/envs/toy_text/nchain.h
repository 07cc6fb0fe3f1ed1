// NChain-v0 as EnvPool defines it (envpool/toy_text/nchain.h, after gym
// 0.20's NChain; gymnasium has none): a chain of 5 states. Action 0 walks
// forward (+10 when already at the end, staying there), action 1 returns to
// the start (+2); with probability 0.2 the env takes the other action.
// Episodes end only by the time limit (1000 steps).
//
// The randomness is EnvPool's, so that an env seeded s draws what EnvPool's
// env seeded s draws: a std::mt19937 seeded with the seed (EnvPool: seed +
// env id, the pool's seed convention too), never reseeded by a reset, and
// one uniform_real_distribution(0, 1) draw per step.
#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/common.h"
#include "envs/toy_text/std_random.h"

namespace envpool_lite {

class NChainEnv : public Env {
 public:
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{1000}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    EnvSpec spec;
    spec.obs = toy_text::MakeDiscreteObs("obs", kLength);
    spec.action = MakeDiscrete("action", 2);
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    return spec;
  }

  NChainEnv(const Config& /*config*/, uint64_t seed)
      : gen_(static_cast<uint32_t>(seed)) {}

  void Seed(uint64_t seed) override { gen_.seed(static_cast<uint32_t>(seed)); }

  void Reset() override { s_ = 0; }

  StepResult Step(const void* action) override {
    int a = *static_cast<const int32_t*>(action);
    if (toy_text::StdUniform01(gen_) < kSlip) a = 1 - a;
    StepResult result;
    if (a != 0) {
      result.reward = kSmall;
      s_ = 0;
    } else if (s_ < kLength - 1) {
      ++s_;
    } else {
      result.reward = kLarge;
    }
    return result;
  }

  void WriteObs(const Row& row) override { *row.Obs<int64_t>() = s_; }

  ENVPOOL_LITE_STATE(gen_, s_)

 private:
  static constexpr int64_t kLength = 5;
  static constexpr double kSlip = 0.2;
  static constexpr double kSmall = 2.0;
  static constexpr double kLarge = 10.0;

  std::mt19937 gen_;
  int64_t s_ = 0;
};

}  // namespace envpool_lite
