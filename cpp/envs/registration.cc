// Every family of tasks: one line each. A family lists its own tasks in
// cpp/envs/<family>/registration.cc; its name here is its folder's, and the
// name of its Python module (python/envpool_lite/families/<family>.py).
// Families built from an upstream library that was missing at build time
// (see CMakeLists.txt) are left out.
#include "envs/registration.h"

#include "core/registry.h"

namespace envpool_lite {

void RegisterAtari(Registry& registry);
void RegisterBox2d(Registry& registry);
void RegisterClassicControl(Registry& registry);
void RegisterDmControl(Registry& registry);
void RegisterGymnasiumRobotics(Registry& registry);
void RegisterHighway(Registry& registry);
void RegisterMetaworld(Registry& registry);
void RegisterMinigrid(Registry& registry);
void RegisterMujoco(Registry& registry);
void RegisterMyosuite(Registry& registry);
void RegisterPgx(Registry& registry);
void RegisterProcgen(Registry& registry);
void RegisterTesting(Registry& registry);
void RegisterToyText(Registry& registry);
void RegisterVizdoom(Registry& registry);

namespace {

void RegisterAllEnvs(Registry& registry) {
  registry.AddFamily("classic_control", RegisterClassicControl);
  registry.AddFamily("testing", RegisterTesting);
  registry.AddFamily("toy_text", RegisterToyText);
  registry.AddFamily("minigrid", RegisterMinigrid);
  registry.AddFamily("pgx", RegisterPgx);
#ifdef ENVPOOL_LITE_ATARI
  registry.AddFamily("atari", RegisterAtari);
#endif
#ifdef ENVPOOL_LITE_MUJOCO
  registry.AddFamily("mujoco", RegisterMujoco);
  registry.AddFamily("dm_control", RegisterDmControl);
  registry.AddFamily("gymnasium_robotics", RegisterGymnasiumRobotics);
#endif
#ifdef ENVPOOL_LITE_METAWORLD
  // In libenvpool_lite_metaworld.so, on its own MuJoCo (CMakeLists.txt).
  registry.AddFamily("metaworld", RegisterMetaworld);
#endif
#ifdef ENVPOOL_LITE_MYOSUITE
  // In libenvpool_lite_myosuite.so, on its own MuJoCo (CMakeLists.txt).
  registry.AddFamily("myosuite", RegisterMyosuite);
#endif
#ifdef ENVPOOL_LITE_BOX2D
  registry.AddFamily("box2d", RegisterBox2d);
#endif
#ifdef ENVPOOL_LITE_PROCGEN
  registry.AddFamily("procgen", RegisterProcgen);
#endif
#ifdef ENVPOOL_LITE_HIGHWAY
  registry.AddFamily("highway", RegisterHighway);
#endif
#ifdef ENVPOOL_LITE_VIZDOOM
  registry.AddFamily("vizdoom", RegisterVizdoom);
#endif
}

}  // namespace

const Registry& GlobalRegistry() {
  static const Registry registry = [] {
    Registry r;
    RegisterAllEnvs(r);
    return r;
  }();
  return registry;
}

}  // namespace envpool_lite
