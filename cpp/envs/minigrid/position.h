// A position option (Empty's agent_start_pos, FourRooms' agent_pos and
// goal_pos): a pair of whole numbers inside the walls, or () for minigrid's
// None (a random one).
#pragma once

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/config.h"

namespace envpool_lite {
namespace minigrid {

inline std::optional<std::pair<int, int>> GetPosition(const Config& config,
                                                      const std::string& name,
                                                      int width, int height) {
  const NumberList& p = config.GetNumberList(name);
  if (p.empty()) return std::nullopt;
  if (p.size() != 2 || p[0] != std::floor(p[0]) || p[1] != std::floor(p[1])) {
    throw std::invalid_argument("option '" + name +
                                "' must be a pair of ints (x, y), or None");
  }
  const int x = static_cast<int>(p[0]), y = static_cast<int>(p[1]);
  if (x < 1 || x > width - 2 || y < 1 || y > height - 2) {
    throw std::invalid_argument(
        "option '" + name + "' must lie inside the walls of the " +
        std::to_string(width) + "x" + std::to_string(height) + " grid (1 to " +
        std::to_string(width - 2) + ", 1 to " + std::to_string(height - 2) +
        "), got (" + std::to_string(x) + ", " + std::to_string(y) + ")");
  }
  return std::make_pair(x, y);
}

}  // namespace minigrid
}  // namespace envpool_lite
