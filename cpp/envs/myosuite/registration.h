// Registering a MyoSuite task: under myosuite's id and EnvPool's
// ("MyoSuite/<id>"), the same env.
#pragma once

#include <string>

#include "core/registry.h"

namespace envpool_lite {
namespace myosuite {

template <typename E>
void AddTask(Registry& registry, const std::string& task_id,
             const Config& overrides) {
  registry.Add<E>(task_id, overrides);
  registry.Add<E>("MyoSuite/" + task_id, overrides);
}

// registration_tasks.cc (written from the reference's registry).
void RegisterTasks(Registry& registry);

}  // namespace myosuite
}  // namespace envpool_lite
