// Catch-v0 as EnvPool defines it (envpool/toy_text/catch.h, after bsuite's
// catch; gymnasium has none): a ball falls one row per step down a
// height x width board from a random column of the top row; the paddle on
// the bottom row moves left (0), stays (1) or moves right (2). When the
// ball reaches the bottom row the episode ends: +1 if the paddle is under
// it, -1 otherwise. The observation is the board as float32, 1 where the
// ball and the paddle are.
//
// The randomness is EnvPool's, so that an env seeded s draws what EnvPool's
// env seeded s draws: a std::mt19937 seeded with the seed (EnvPool: seed +
// env id, the pool's seed convention too), never reseeded by a reset, and
// one uniform_int_distribution(0, width - 1) draw per reset.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/env.h"
#include "envs/toy_text/std_random.h"

namespace envpool_lite {

class CatchEnv : public Env {
 public:
  // EnvPool's default time limit is "none" (2**31 - 1 steps); an episode
  // lasts height - 1 steps.
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{std::numeric_limits<int32_t>::max()}},
            {"height", int64_t{10}},
            {"width", int64_t{5}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    // The ball needs a row to fall from; the board must fit in memory.
    const int64_t height = config.GetInt("height", 2, kMaxCells);
    const int64_t width = config.GetInt("width", 1, kMaxCells);
    if (height * width > kMaxCells) {
      throw std::invalid_argument(
          "options 'height' x 'width' must be at most " +
          std::to_string(kMaxCells) + " cells, got " +
          std::to_string(height * width));
    }
    EnvSpec spec;
    spec.obs = MakeBox<float>("obs", {height, width}, {0.0}, {1.0});
    spec.action = MakeDiscrete("action", 3);
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    return spec;
  }

  CatchEnv(const Config& config, uint64_t seed)
      : height_(static_cast<int>(config.GetInt("height"))),
        width_(static_cast<int>(config.GetInt("width"))),
        gen_(static_cast<uint32_t>(seed)) {}

  void Seed(uint64_t seed) override { gen_.seed(static_cast<uint32_t>(seed)); }

  void Reset() override {
    ball_row_ = 0;
    ball_col_ = toy_text::StdUniformInt(gen_, static_cast<uint32_t>(width_));
    paddle_ = width_ / 2;
  }

  StepResult Step(const void* action) override {
    const int a = *static_cast<const int32_t*>(action);
    paddle_ = std::clamp(paddle_ + a - 1, 0, width_ - 1);
    StepResult result;
    if (++ball_row_ == height_ - 1) {
      result.terminated = true;
      result.reward = ball_col_ == paddle_ ? 1.0 : -1.0;
    }
    return result;
  }

  // The ball's row and column and the paddle's column (Python draws the
  // board).
  std::vector<double> RenderState() const override {
    return {static_cast<double>(ball_row_), static_cast<double>(ball_col_),
            static_cast<double>(paddle_)};
  }

  void WriteObs(const Row& row) override {
    float* board = row.Obs<float>();
    std::fill(board, board + static_cast<std::size_t>(height_) * width_, 0.0f);
    board[static_cast<std::size_t>(ball_row_) * width_ + ball_col_] = 1.0f;
    board[static_cast<std::size_t>(height_ - 1) * width_ + paddle_] = 1.0f;
  }

  ENVPOOL_LITE_STATE(gen_, ball_row_, ball_col_, paddle_)

 private:
  static constexpr int64_t kMaxCells = int64_t{1} << 24;

  int height_;
  int width_;
  std::mt19937 gen_;
  int ball_row_ = 0;
  int ball_col_ = 0;
  int paddle_ = 0;
};

}  // namespace envpool_lite
