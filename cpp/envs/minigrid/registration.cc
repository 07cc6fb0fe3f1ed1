// The MiniGrid tasks, with minigrid 3.2.0's ids and constructor arguments.
#include "core/registry.h"
#include "envs/minigrid/door_key.h"
#include "envs/minigrid/empty.h"
#include "envs/minigrid/four_rooms.h"

namespace envpool_lite {

void RegisterMinigrid(Registry& registry) {
  using namespace minigrid;  // NOLINT
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
}

}  // namespace envpool_lite
