// gymnasium-robotics 1.4.2's maze tasks (maze.h): PointMaze-v3 and
// AntMaze-v3/v4/v5 on the maps of envs/maze/maps.py, each sparse and Dense,
// with the time limits its __init__.py registers.
#include "envs/gymnasium_robotics/maze.h"

#include "core/registry.h"

namespace envpool_lite {
namespace gymnasium_robotics {

namespace {

// maps.py's maps, a string per row: '1' wall, '0' empty, 'g' goal, 'r'
// reset, 'c' both.
struct MazeMap {
  const char* name;
  StringList rows;
  int64_t point_steps, ant_steps;
};

std::vector<MazeMap> MazeMaps() {
  const StringList open = {"1111111", "1000001", "1000001", "1000001",
                           "1111111"};
  const StringList medium = {"11111111", "10011001", "10010001", "11000111",
                             "10010001", "10100101", "10001001", "11111111"};
  const StringList large = {"111111111111", "100001000001", "101101010101",
                            "100000010001", "101111011101", "100101000001",
                            "110101010111", "100100010001", "111111111111"};
  // The Diverse_G (R) maps: the plain map with these cells 'r'/'g' (or 'c').
  auto with = [](StringList rows, const std::vector<std::pair<int, int>>& reset,
                 const std::vector<std::pair<int, int>>& goal, bool combined) {
    for (auto [i, j] : reset) rows[i][j] = combined ? 'c' : 'r';
    for (auto [i, j] : goal) rows[i][j] = combined ? 'c' : 'g';
    return rows;
  };
  std::vector<std::pair<int, int>> open_goals;
  for (int i = 1; i <= 3; ++i) {
    for (int j = 1; j <= 5; ++j) {
      if (i != 1 || j != 1) open_goals.emplace_back(i, j);
    }
  }
  const std::vector<std::pair<int, int>> medium_goals = {
      {2, 6}, {5, 1}, {6, 5}};
  const std::vector<std::pair<int, int>> large_goals = {
      {1, 6}, {3, 5}, {3, 10}, {5, 2}, {7, 4}, {7, 6}, {7, 9}};
  return {
      {"UMaze", {"11111", "10001", "11101", "10001", "11111"}, 300, 700},
      {"Open", open, 300, 700},
      {"Open_Diverse_G", with(open, {{1, 1}}, open_goals, false), 300, 700},
      {"Open_Diverse_GR", with(open, {{1, 1}}, open_goals, true), 300, 700},
      {"Medium", medium, 600, 1000},
      {"Medium_Diverse_G", with(medium, {{1, 1}}, medium_goals, false), 600,
       1000},
      {"Medium_Diverse_GR", with(medium, {{1, 1}}, medium_goals, true), 600,
       1000},
      {"Large", large, 800, 1000},
      {"Large_Diverse_G", with(large, {{1, 1}}, large_goals, false), 800, 1000},
      {"Large_Diverse_GR", with(large, {{1, 1}}, large_goals, true), 800, 1000},
  };
}

}  // namespace

void RegisterMaze(Registry& registry) {
  for (const MazeMap& map : MazeMaps()) {
    for (bool dense : {false, true}) {
      const std::string suffix = dense ? "Dense" : "";
      auto config = [&](int64_t steps) {
        return Config{{"maze_map", map.rows},
                      {"reward_type", std::string(dense ? "dense" : "sparse")},
                      {"max_episode_steps", steps}};
      };
      const std::string name = std::string(map.name) + suffix;
      registry.Add<PointMazeEnv>("PointMaze_" + name + "-v3",
                                 config(map.point_steps));
      registry.Add<AntMazeEnv<3>>("AntMaze_" + name + "-v3",
                                  config(map.ant_steps));
      registry.Add<AntMazeEnv<4>>("AntMaze_" + name + "-v4",
                                  config(map.ant_steps));
      registry.Add<AntMazeEnv<5>>("AntMaze_" + name + "-v5",
                                  config(map.ant_steps));
    }
  }
}

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
