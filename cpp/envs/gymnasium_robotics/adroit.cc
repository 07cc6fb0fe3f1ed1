// gymnasium-robotics 1.4.2's Adroit tasks (adroit.h): the dense ids and the
// *Sparse ids, as gymnasium_robotics/__init__.py registers them (reward_type,
// max_episode_steps=200).
#include "envs/gymnasium_robotics/adroit.h"

#include "core/registry.h"

namespace envpool_lite {
namespace gymnasium_robotics {

template <AdroitKind K>
void AddAdroit(Registry& registry, const std::string& name) {
  registry.Add<AdroitEnv<K>>(name + "-v1",
                             {{"reward_type", std::string("dense")}});
  registry.Add<AdroitEnv<K>>(name + "Sparse-v1",
                             {{"reward_type", std::string("sparse")}});
}

void RegisterAdroit(Registry& registry) {
  AddAdroit<AdroitKind::kDoor>(registry, "AdroitHandDoor");
  AddAdroit<AdroitKind::kHammer>(registry, "AdroitHandHammer");
  AddAdroit<AdroitKind::kPen>(registry, "AdroitHandPen");
  AddAdroit<AdroitKind::kRelocate>(registry, "AdroitHandRelocate");
}

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
