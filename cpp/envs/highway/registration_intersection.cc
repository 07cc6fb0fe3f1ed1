// The highway family's intersection (single- and multi-agent) tasks
// (highway-env 1.12.1's ids, and EnvPool's names for them).
#include "core/registry.h"
#include "envs/highway/intersection_env.h"
#include "envs/highway/multi_agent.h"

namespace envpool_lite {

void RegisterHighwayIntersection(Registry& registry) {
  using highway::ContinuousIntersectionEnv;
  using highway::HighwayMultiAgentPoolEnv;
  using highway::IntersectionEnv;
  using highway::MultiAgentIntersectionEnv;
  const Config connected{{"neighbour_vehicles_connected_lanes", true}};
  registry.Add<HighwayMultiAgentPoolEnv<IntersectionEnv>>("intersection-v0");
  registry.Add<HighwayMultiAgentPoolEnv<ContinuousIntersectionEnv>>(
      "intersection-v1");
  registry.Add<HighwayMultiAgentPoolEnv<IntersectionEnv>>("intersection-v2",
                                                          connected);
  registry.Add<HighwayMultiAgentPoolEnv<MultiAgentIntersectionEnv>>(
      "intersection-multi-agent-v0");
  // With highway-env's MultiAgentWrapper, whose reward and terminated are
  // the info's agents_rewards and agents_terminated: here they stay the
  // env's own (multi_agent.h).
  registry.Add<HighwayMultiAgentPoolEnv<MultiAgentIntersectionEnv>>(
      "intersection-multi-agent-v1");
  registry.Add<HighwayMultiAgentPoolEnv<MultiAgentIntersectionEnv>>(
      "intersection-multi-agent-v2", connected);
  // EnvPool's names.
  registry.Add<HighwayMultiAgentPoolEnv<IntersectionEnv>>("Intersection-v0");
  registry.Add<HighwayMultiAgentPoolEnv<ContinuousIntersectionEnv>>(
      "Intersection-v1");
  registry.Add<HighwayMultiAgentPoolEnv<MultiAgentIntersectionEnv>>(
      "IntersectionMultiAgent-v0");
  registry.Add<HighwayMultiAgentPoolEnv<MultiAgentIntersectionEnv>>(
      "IntersectionMultiAgent-v1");
}

}  // namespace envpool_lite
