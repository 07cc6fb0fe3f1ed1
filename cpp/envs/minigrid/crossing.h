// MiniGrid-LavaCrossing* and SimpleCrossing*: rivers of lava (or walls)
// across the room, each with one crossing on a random path to the goal
// (minigrid/envs/crossing.py).
#pragma once

#include <algorithm>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_lite {
namespace minigrid {

class CrossingEnv : public MiniGridEnv {
 public:
  static Config DefaultConfig() {
    return {{"size", int64_t{9}},
            {"num_crossings", int64_t{1}},
            {"obstacle_type", std::string("lava")},  // or "wall"
            {"max_steps", int64_t{-1}},              // -1: 4 * size**2
            {"agent_view_size", int64_t{7}}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    const int64_t size = config.GetInt("size", 5, 255);
    if (size % 2 == 0) {
      throw std::invalid_argument(
          "option 'size' must be odd (minigrid's rivers lie on even rows and "
          "columns), got " +
          std::to_string(size));
    }
    config.GetInt("num_crossings", 0, size - 3);  // the rivers there are
    Obstacle(config);
    return MakeMiniGridSpec(config);
  }

  CrossingEnv(const Config& config, uint64_t seed)
      : MiniGridEnv(config, seed, Size(config), Size(config),
                    4 * int64_t{Size(config)} * Size(config),
                    /*see_through_walls=*/false),
        num_crossings_(static_cast<int>(config.GetInt("num_crossings"))),
        obstacle_(Obstacle(config)) {}

 protected:
  void GenGrid() override {
    WallRect(0, 0, width_, height_);
    agent_x_ = agent_y_ = 1;
    agent_dir_ = 0;
    PutObj(NewObj(kGoal, kGreen), width_ - 2, height_ - 2);
    // (vertical?, position) for every river there can be, shuffled.
    std::vector<std::pair<bool, int>> rivers;
    for (int i = 2; i < height_ - 2; i += 2) rivers.emplace_back(true, i);
    for (int j = 2; j < width_ - 2; j += 2) rivers.emplace_back(false, j);
    rng_.Shuffle(&rivers);
    rivers.resize(std::min<std::size_t>(rivers.size(), num_crossings_));
    std::vector<int> rivers_v, rivers_h;
    for (const auto& [vertical, pos] : rivers) {
      (vertical ? rivers_v : rivers_h).push_back(pos);
    }
    std::sort(rivers_v.begin(), rivers_v.end());
    std::sort(rivers_h.begin(), rivers_h.end());
    for (int i = 1; i < width_ - 1; ++i) {
      for (int j : rivers_h) PutObj(NewObj(obstacle_, Colour()), i, j);
    }
    for (int i : rivers_v) {
      for (int j = 1; j < height_ - 1; ++j) {
        PutObj(NewObj(obstacle_, Colour()), i, j);
      }
    }
    // The path: a horizontal move for each vertical river and a vertical
    // one for each horizontal river, shuffled.
    std::vector<char> path(rivers_v.size(), false);  // false: horizontal
    path.insert(path.end(), rivers_h.size(), true);
    rng_.Shuffle(&path);
    std::vector<int> limits_v = {0}, limits_h = {0};
    limits_v.insert(limits_v.end(), rivers_v.begin(), rivers_v.end());
    limits_v.push_back(height_ - 1);
    limits_h.insert(limits_h.end(), rivers_h.begin(), rivers_h.end());
    limits_h.push_back(width_ - 1);
    int room_i = 0, room_j = 0;
    for (bool vertical : path) {
      int i, j;
      if (!vertical) {
        i = limits_v[room_i + 1];
        j = Choice(limits_h[room_j] + 1, limits_h[room_j + 1]);
        ++room_i;
      } else {
        i = Choice(limits_v[room_i] + 1, limits_v[room_i + 1]);
        j = limits_h[room_j + 1];
        ++room_j;
      }
      grid_.Set(i, j, kNone);
    }
    SetMission(obstacle_ == kLava
                   ? "avoid the lava and get to the green goal square"
                   : "find the opening and get to the green goal square");
  }

 private:
  static int Size(const Config& config) {
    return static_cast<int>(config.GetInt("size"));
  }
  static Type Obstacle(const Config& config) {
    const std::string& name = config.GetString("obstacle_type");
    if (name == "lava") return kLava;
    if (name == "wall") return kWall;
    throw std::invalid_argument(
        "option 'obstacle_type' must be 'lava' or 'wall', got '" + name + "'");
  }
  Color Colour() const { return obstacle_ == kLava ? kRed : kGrey; }
  // np_random.choice(range(low, high))
  int Choice(int low, int high) {
    return low + static_cast<int>(rng_.Choice(high - low));
  }

  int num_crossings_;
  Type obstacle_;
};

}  // namespace minigrid
}  // namespace envpool_lite
