// The MiniGrid tasks, with minigrid 3.2.0's ids and constructor arguments.
#include "envs/minigrid/babyai/registration.h"

#include <array>
#include <utility>

#include "core/registry.h"
#include "envs/minigrid/crossing.h"
#include "envs/minigrid/dist_shift.h"
#include "envs/minigrid/door_key.h"
#include "envs/minigrid/dynamic_obstacles.h"
#include "envs/minigrid/empty.h"
#include "envs/minigrid/fetch.h"
#include "envs/minigrid/four_rooms.h"
#include "envs/minigrid/go_to.h"
#include "envs/minigrid/key_corridor.h"
#include "envs/minigrid/lava_gap.h"
#include "envs/minigrid/locked_room.h"
#include "envs/minigrid/memory.h"
#include "envs/minigrid/multi_room.h"
#include "envs/minigrid/obstructed_maze.h"
#include "envs/minigrid/playground.h"
#include "envs/minigrid/put_near.h"
#include "envs/minigrid/red_blue_doors.h"
#include "envs/minigrid/unlock.h"
#include "envs/minigrid/wfc.h"

namespace envpool_lite {

void RegisterMinigrid(Registry& all_tasks) {
  using namespace minigrid;  // NOLINT
  // Every task registered as MiniGridTask<Task>: with the observation and
  // render options (minigrid_env.h's ViewOptions).
  MiniGridRegistry registry(all_tasks);
  for (int64_t size : {5, 6, 8, 16}) {
    const std::string s = std::to_string(size) + "x" + std::to_string(size);
    registry.Add<EmptyEnv>("MiniGrid-Empty-" + s + "-v0", {{"size", size}});
    if (size <= 6) {
      registry.Add<EmptyEnv>(
          "MiniGrid-Empty-Random-" + s + "-v0",
          {{"size", size}, {"agent_start_pos", NumberList{}}});
    }
    registry.Add<DoorKeyEnv>("MiniGrid-DoorKey-" + s + "-v0", {{"size", size}});
  }
  registry.Add<FourRoomsEnv>("MiniGrid-FourRooms-v0");
  // MiniGrid-WFC-*: the presets minigrid registers (WFC_PRESETS).
  for (const WfcPreset& preset : WfcPresets()) {
    registry.Add<WFCEnv>(std::string("MiniGrid-WFC-") + preset.name + "-v0",
                         {{"wfc_config", std::string(preset.name)}});
  }
  for (int64_t size : {5, 6, 7}) {
    registry.Add<LavaGapEnv>("MiniGrid-LavaGapS" + std::to_string(size) + "-v0",
                             {{"size", size}});
  }
  for (const char* kind : {"Lava", "Simple"}) {
    const std::string obstacle = std::string(kind) == "Lava" ? "lava" : "wall";
    for (auto [size, n] :
         {std::pair<int64_t, int64_t>{9, 1}, {9, 2}, {9, 3}, {11, 5}}) {
      registry.Add<CrossingEnv>(
          std::string("MiniGrid-") + kind + "CrossingS" + std::to_string(size) +
              "N" + std::to_string(n) + "-v0",
          {{"size", size}, {"num_crossings", n}, {"obstacle_type", obstacle}});
    }
  }
  registry.Add<DistShiftEnv>("MiniGrid-DistShift1-v0",
                             {{"strip2_row", int64_t{2}}});
  registry.Add<DistShiftEnv>("MiniGrid-DistShift2-v0",
                             {{"strip2_row", int64_t{5}}});
  for (auto [size, n] :
       {std::pair<int64_t, int64_t>{5, 2}, {6, 3}, {8, 4}, {16, 8}}) {
    const std::string s = std::to_string(size) + "x" + std::to_string(size);
    registry.Add<DynamicObstaclesEnv>("MiniGrid-Dynamic-Obstacles-" + s + "-v0",
                                      {{"size", size}, {"n_obstacles", n}});
    if (size <= 6) {
      registry.Add<DynamicObstaclesEnv>(
          "MiniGrid-Dynamic-Obstacles-Random-" + s + "-v0",
          {{"size", size},
           {"n_obstacles", n},
           {"agent_start_pos", NumberList{}}});
    }
  }
  // minNumRooms, maxNumRooms, maxRoomSize (N4-S5-v0 is minigrid's legacy
  // one, which makes 6 rooms).
  const std::pair<const char*, std::array<int64_t, 3>> multi_rooms[] = {
      {"MiniGrid-MultiRoom-N2-S4-v0", {2, 2, 4}},
      {"MiniGrid-MultiRoom-N4-S5-v0", {6, 6, 5}},
      {"MiniGrid-MultiRoom-N4-S5-v1", {4, 4, 5}},
      {"MiniGrid-MultiRoom-N6-v0", {6, 6, 10}}};
  for (int64_t size : {5, 6, 8}) {
    const std::string s = std::to_string(size) + "x" + std::to_string(size);
    registry.Add<GoToDoorEnv>("MiniGrid-GoToDoor-" + s + "-v0",
                              {{"size", size}});
  }
  for (int64_t size : {6, 8}) {
    const std::string s = std::to_string(size) + "x" + std::to_string(size);
    registry.Add<GoToObjectEnv>("MiniGrid-GoToObject-" + s + "-N2-v0",
                                {{"size", size}, {"numObjs", int64_t{2}}});
    registry.Add<RedBlueDoorsEnv>("MiniGrid-RedBlueDoors-" + s + "-v0",
                                  {{"size", size}});
  }
  for (int64_t size : {7, 9, 11, 13, 17}) {
    const std::string id = "MiniGrid-MemoryS" + std::to_string(size);
    if (size != 17) registry.Add<MemoryEnv>(id + "-v0", {{"size", size}});
    if (size >= 13) {
      registry.Add<MemoryEnv>(id + "Random-v0",
                              {{"size", size}, {"random_length", true}});
    }
  }
  for (auto [size, n] : {std::pair<int64_t, int64_t>{5, 2}, {6, 2}, {8, 3}}) {
    registry.Add<FetchEnv>("MiniGrid-Fetch-" + std::to_string(size) + "x" +
                               std::to_string(size) + "-N" + std::to_string(n) +
                               "-v0",
                           {{"size", size}, {"numObjs", n}});
  }
  for (auto [size, n] : {std::pair<int64_t, int64_t>{6, 2}, {8, 3}}) {
    registry.Add<PutNearEnv>("MiniGrid-PutNear-" + std::to_string(size) + "x" +
                                 std::to_string(size) + "-N" +
                                 std::to_string(n) + "-v0",
                             {{"size", size}, {"numObjs", n}});
  }
  registry.Add<LockedRoomEnv>("MiniGrid-LockedRoom-v0");
  registry.Add<UnlockEnv>("MiniGrid-Unlock-v0");
  registry.Add<UnlockEnv>("MiniGrid-UnlockPickup-v0",
                          {{"variant", int64_t{UnlockEnv::kPickupBox}}});
  registry.Add<UnlockEnv>("MiniGrid-BlockedUnlockPickup-v0",
                          {{"variant", int64_t{UnlockEnv::kBlocked}}});
  for (auto [size, rows] : {std::pair<int64_t, int64_t>{3, 1},
                            {3, 2},
                            {3, 3},
                            {4, 3},
                            {5, 3},
                            {6, 3}}) {
    registry.Add<KeyCorridorEnv>("MiniGrid-KeyCorridorS" +
                                     std::to_string(size) + "R" +
                                     std::to_string(rows) + "-v0",
                                 {{"room_size", size}, {"num_rows", rows}});
  }
  // ObstructedMaze (v0 and v1) and Playground
  {
    const std::string om = "MiniGrid-ObstructedMaze-";
    registry.Add<ObstructedMaze1DlhbEnv>(
        om + "1Dl-v0", {{"key_in_box", false}, {"blocked", false}});
    registry.Add<ObstructedMaze1DlhbEnv>(
        om + "1Dlh-v0", {{"key_in_box", true}, {"blocked", false}});
    registry.Add<ObstructedMaze1DlhbEnv>(om + "1Dlhb-v0");
    // agent_room, key_in_box, blocked, num_quarters, num_rooms_visited
    struct Full {
      const char* name;
      int64_t room_i, room_j;
      bool key_in_box, blocked;
      int64_t num_quarters, num_rooms_visited;
      bool v1;
    };
    const Full fulls[] = {{"2Dl-v0", 2, 1, false, false, 1, 4, false},
                          {"2Dlh-v0", 2, 1, true, false, 1, 4, false},
                          {"2Dlhb-v0", 2, 1, true, true, 1, 4, false},
                          {"1Q-v0", 1, 1, true, true, 1, 5, false},
                          {"2Q-v0", 2, 1, true, true, 2, 11, false},
                          {"Full-v0", 1, 1, true, true, 4, 25, false},
                          {"2Dlhb-v1", 2, 1, true, true, 1, 4, true},
                          {"1Q-v1", 1, 1, true, true, 1, 5, true},
                          {"2Q-v1", 2, 1, true, true, 2, 11, true},
                          {"Full-v1", 1, 1, true, true, 4, 25, true}};
    for (const Full& f : fulls) {
      const Config overrides = {
          {"agent_room", NumberList{static_cast<double>(f.room_i),
                                    static_cast<double>(f.room_j)}},
          {"key_in_box", f.key_in_box},
          {"blocked", f.blocked},
          {"num_quarters", f.num_quarters},
          {"num_rooms_visited", f.num_rooms_visited}};
      if (f.v1) {
        registry.Add<ObstructedMazeFullV1Env>(om + f.name, overrides);
      } else {
        registry.Add<ObstructedMazeFullEnv>(om + f.name, overrides);
      }
    }
    registry.Add<PlaygroundEnv>("MiniGrid-Playground-v0");
  }
  for (const auto& [id, p] : multi_rooms) {
    registry.Add<MultiRoomEnv>(
        id,
        {{"minNumRooms", p[0]}, {"maxNumRooms", p[1]}, {"maxRoomSize", p[2]}});
  }
  babyai::RegisterBabyAI(registry);
}

}  // namespace envpool_lite
