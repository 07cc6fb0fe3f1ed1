// Dummy-v0: a test env for the engine itself (like EnvPool's Dummy env).
// Its observation tells exactly what happened to it, so tests can check that
// every action reached the right env: obs = [seed, episode, step in episode,
// last action]. Episodes last `episode_length + seed % 3` steps. Options make
// steps slow (to exercise async batching) or throw (to exercise errors), and
// `lives` > 1 makes a game of several such episodes (like Atari's
// episodic_life): each ends in termination, and the pool continues the game.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/env.h"

namespace envpool_lite {

class DummyEnv : public Env {
 public:
  static Config DefaultConfig() {
    return Config{{"max_episode_steps", int64_t{1000}},
                  {"episode_length", int64_t{10}},
                  {"step_sleep_us", int64_t{0}},
                  {"fail_on_step", int64_t{-1}},
                  {"fail_on_reset", false},
                  // Building: each env takes build_sleep_us, and the one
                  // seeded fail_on_build_seed throws (an engine that does
                  // not start).
                  {"build_sleep_us", int64_t{0}},
                  {"fail_on_build_seed", int64_t{-1}},
                  {"lives", int64_t{1}},
                  // false: get_state() refuses, as a family that cannot
                  // save its envs does (StateUnsupported).
                  {"saves_state", true}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetInt("episode_length", 1, std::numeric_limits<int32_t>::max());
    config.GetInt("lives", 1, 1000);
    config.GetInt("step_sleep_us", 0, 10'000'000);  // a step: at most 10 s
    config.GetInt("fail_on_step", -1, std::numeric_limits<int32_t>::max());
    config.GetInt("build_sleep_us", 0, 10'000'000);
    config.GetInt("fail_on_build_seed", -1,
                  std::numeric_limits<int32_t>::max());
    config.GetInt("max_episode_steps", 1, std::numeric_limits<int32_t>::max());
    EnvSpec spec;
    spec.obs = MakeBox<int64_t>("obs", {4}, {}, {});
    spec.action = MakeDiscrete("action", 6);
    spec.info = {MakeScalar<int32_t>("episode"), MakeScalar<int32_t>("lives")};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    return spec;
  }

  DummyEnv(const Config& config, uint64_t seed)
      : episode_length_(config.GetInt("episode_length")),
        sleep_us_(config.GetInt("step_sleep_us")),
        fail_on_step_(config.GetInt("fail_on_step")),
        fail_on_reset_(config.GetBool("fail_on_reset")),
        max_lives_(config.GetInt("lives")),
        saves_state_(config.GetBool("saves_state")),
        seed_(seed) {
    std::this_thread::sleep_for(
        std::chrono::microseconds(config.GetInt("build_sleep_us")));
    if (static_cast<int64_t>(seed) == config.GetInt("fail_on_build_seed")) {
      throw std::runtime_error("Dummy-v0 seeded " + std::to_string(seed) +
                               " failed to start");
    }
  }

  void Seed(uint64_t seed) override { seed_ = seed; }

  void Reset() override {
    if (fail_on_reset_) throw std::runtime_error("Dummy-v0 failed on reset");
    ++episode_;
    step_ = 0;
    last_action_ = -1;
    lives_ = max_lives_;
  }

  bool CanContinueGame() const override { return lives_ > 0; }
  void ContinueGame() override {
    step_ = 0;
    last_action_ = -1;
  }

  StepResult Step(const void* action) override {
    ++step_;
    last_action_ = *static_cast<const int32_t*>(action);
    if (step_ == fail_on_step_) {
      throw std::runtime_error("Dummy-v0 failed on step " +
                               std::to_string(step_));
    }
    if (sleep_us_ > 0) {
      // Varies by env so that envs finish out of order.
      std::this_thread::sleep_for(
          std::chrono::microseconds(sleep_us_ * (1 + seed_ % 4)));
    }
    StepResult r;
    r.reward = static_cast<float>(last_action_);
    r.terminated = step_ >= episode_length_ + static_cast<int64_t>(seed_ % 3);
    if (r.terminated) --lives_;
    return r;
  }

  void WriteObs(const Row& row) override {
    int64_t* obs = row.Obs<int64_t>();
    obs[0] = static_cast<int64_t>(seed_);
    obs[1] = episode_;
    obs[2] = step_;
    obs[3] = last_action_;
    *row.Info<int32_t>(0) = static_cast<int32_t>(episode_);
    *row.Info<int32_t>(1) = static_cast<int32_t>(lives_);
  }

  void SaveState(StateWriter& out) const override {
    if (!saves_state_) {
      throw StateUnsupported("this Dummy-v0 was made with saves_state=False");
    }
    out(seed_, episode_, step_, last_action_, lives_);
  }
  void LoadState(StateReader& in) override {
    in(seed_, episode_, step_, last_action_, lives_);
  }

 private:
  int64_t episode_length_;
  int64_t sleep_us_;
  int64_t fail_on_step_;
  bool fail_on_reset_;
  int64_t max_lives_;
  bool saves_state_;
  uint64_t seed_;
  int64_t episode_ = -1;
  int64_t step_ = 0;
  int64_t last_action_ = -1;
  int64_t lives_ = 0;
};

}  // namespace envpool_lite
