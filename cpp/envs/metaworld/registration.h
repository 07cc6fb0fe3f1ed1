// Registering a Meta-World task: under metaworld's name ("reach-v3") and
// EnvPool's ("MetaWorld/Reach-v3"), the same env; and in the table the
// benchmark pools build their envs from (benchmark.h).
#pragma once

#include <cctype>
#include <memory>
#include <string>

#include "core/registry.h"
#include "envs/metaworld/benchmark.h"

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
std::unique_ptr<SawyerEnv> BuildTask(const Config& config, uint64_t seed) {
  return std::make_unique<E>(config, seed);
}

template <typename E>
void AddTask(Registry& registry, const std::string& name) {
  registry.Add<E>(name);
  registry.Add<E>(EnvPoolId(name));
  TaskClasses()[name] = TaskClass{E::Task(), &BuildTask<E>};
}

// The tasks of each part of the family (registration_*.cc).
void RegisterPickPush(Registry& registry);
void RegisterButtons(Registry& registry);
void RegisterArticulated(Registry& registry);
void RegisterSliding(Registry& registry);
void RegisterTools(Registry& registry);
void RegisterBenchmarks(Registry& registry);  // after the tasks

}  // namespace metaworld
}  // namespace envpool_lite
