// Registering a Meta-World task: under metaworld's name ("reach-v3") and
// EnvPool's ("MetaWorld/Reach-v3"), the same env.
#pragma once

#include <cctype>
#include <string>

#include "core/registry.h"

namespace envpool_lite {
namespace metaworld {

// "pick-place-wall-v3" -> "MetaWorld/PickPlaceWall-v3"
inline std::string EnvPoolId(const std::string& name) {
  std::string base = name.substr(0, name.size() - 3);  // without "-v3"
  std::string out = "MetaWorld/";
  bool upper = true;
  for (char c : base) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(c)) : c;
    upper = false;
  }
  return out + "-v3";
}

template <typename E>
void AddTask(Registry& registry, const std::string& name) {
  registry.Add<E>(name);
  registry.Add<E>(EnvPoolId(name));
}

// The tasks of each part of the family (registration_*.cc).
void RegisterPickPush(Registry& registry);
void RegisterButtons(Registry& registry);
void RegisterArticulated(Registry& registry);
void RegisterSliding(Registry& registry);
void RegisterTools(Registry& registry);

}  // namespace metaworld
}  // namespace envpool_lite
