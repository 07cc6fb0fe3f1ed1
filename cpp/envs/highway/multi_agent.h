// HighwayMultiAgentPoolEnv: a highway-env task with one or several
// controlled vehicles (intersection_env.h's) as an envpool_lite Env, the
// multi-agent counterpart of abstract.h's HighwayPoolEnv.
//
// A row has an explicit agent axis where highway-env has tuples:
// - a MultiAgentObservation (a tuple of each agent's observation) is each
//   of its arrays stacked over the agents: "obs" of shape (agents, ...) for
//   agents observing one array each (Kinematics), else one dict key per
//   inner key, each (agents, ...);
// - a MultiAgentAction (a tuple of each agent's action) is one array of
//   shape (agents, ...): (agents,) int32 in [0, n - 1] for Discrete(n)
//   agents (a Box: the pool has no vector of discrete actions), (agents, k)
//   float32 for continuous ones.
// Other observation and action types are as in HighwayPoolEnv.
//
// The info has HighwayPoolEnv's fields (speed and crashed of the first
// controlled vehicle, rewards.<name> the task's _rewards) and highway-env's
// per-agent ones, agents_rewards (agents,) float64 and agents_terminated
// (agents,) bool. The reward and terminated are the task's own (_reward:
// the mean of the agents' rewards; _is_terminated: any crash or every agent
// arrived) also where highway-env's MultiAgentWrapper returns the tuples
// agents_rewards and agents_terminated instead (intersection-multi-agent-v1,
// -v2): these are in the info.
//
// Task derives from AbstractEnv and has, besides HighwayPoolEnv's
// requirements, ComputeInfo(action) filling its info_rewards,
// agents_rewards and agents_terminated (its Step calls it).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"

namespace envpool_lite::highway {

namespace multi_agent_detail {

// `specs` (agent i's arrays named "<i>.<key>", agent after agent) as one
// array per key with a leading agent axis.
inline std::vector<ArraySpec> StackAgentSpecs(
    const std::vector<ArraySpec>& specs, std::size_t agents) {
  if (agents == 0 || specs.size() % agents != 0) {
    throw std::logic_error("highway: agents' arrays do not match");
  }
  const std::size_t keys = specs.size() / agents;
  std::vector<ArraySpec> out;
  for (std::size_t k = 0; k < keys; ++k) {
    ArraySpec stacked = specs[k];
    stacked.name = specs[k].name.substr(specs[k].name.find('.') + 1);
    stacked.shape.insert(stacked.shape.begin(), static_cast<int64_t>(agents));
    const bool per_element =
        specs[k].low.size() > 1 || specs[k].high.size() > 1;
    if (per_element) {
      stacked.low.clear();
      stacked.high.clear();
    }
    for (std::size_t i = 0; i < agents; ++i) {
      const ArraySpec& a = specs[i * keys + k];
      if (a.shape != specs[k].shape || a.dtype != specs[k].dtype) {
        throw std::invalid_argument(
            "highway: the agents' observations differ in shape");
      }
      if (per_element) {
        stacked.low.insert(stacked.low.end(), a.low.begin(), a.low.end());
        stacked.high.insert(stacked.high.end(), a.high.begin(), a.high.end());
      }
    }
    out.push_back(std::move(stacked));
  }
  return out;
}

// Copies an observation array into `dst` (its dtype), from element
// `offset` on.

}  // namespace multi_agent_detail

template <typename Task>
class HighwayMultiAgentPoolEnv : public Env {
 public:
  static Config DefaultConfig() { return Task::DefaultConfig(); }

  static EnvSpec MakeSpec(const Config& config) {
    Task task(config);
    task.Reset();
    const std::size_t agents = task.controlled_vehicles.size();
    EnvSpec spec;
    std::vector<ArraySpec> obs = task.observation_type->Space();
    if (auto* multi =
            dynamic_cast<MultiAgentObservation*>(task.observation_type.get())) {
      obs = multi_agent_detail::StackAgentSpecs(
          obs, multi->agents_observation_types.size());
    }
    if (obs.size() == 1) {
      spec.obs = obs[0];
      spec.obs.name = "obs";
    } else {
      spec.obs_dict = obs;
    }
    std::vector<ArraySpec> actions = task.action_type->Space();
    if (dynamic_cast<MultiAgentAction*>(task.action_type.get()) != nullptr) {
      for (ArraySpec& a : actions) {
        if (a.IsDiscrete()) {
          // Discrete(n) -> a Box in [0, n - 1] (stacked below).
          a.low = {0.0};
          a.high = {static_cast<double>(a.num_values - 1)};
          a.num_values = 0;
        }
      }
      actions = multi_agent_detail::StackAgentSpecs(actions, actions.size());
    }
    spec.action = actions[0];
    spec.action.name = "action";
    if (spec.action.NumBytes() != task.action_type->ActionBytes()) {
      throw std::logic_error("highway: action size mismatch");
    }
    spec.info.push_back(MakeScalar<double>("speed"));
    spec.info.push_back(MakeScalar<bool>("crashed"));
    for (const std::string& name : Task::RewardNames()) {
      spec.info.push_back(MakeScalar<double>("rewards." + name));
    }
    spec.info.push_back(MakeBox<double>(
        "agents_rewards", {static_cast<int64_t>(agents)}, {}, {}));
    spec.info.push_back(MakeBox<bool>("agents_terminated",
                                      {static_cast<int64_t>(agents)}, {}, {}));
    spec.max_episode_steps = config.GetInt("max_episode_steps", 0, 1 << 30);
    spec.render_height = config.GetInt("screen_height", 1, 1 << 14);
    spec.render_width = config.GetInt("screen_width", 1, 1 << 14);
    Task::CenteringPosition(config);
    spec.reward_float64 = true;
    return spec;
  }

  // As HighwayPoolEnv: the scene of gymnasium.make()'s reset first.
  HighwayMultiAgentPoolEnv(const Config& config, uint64_t seed)
      : config_(config), task_(config_) {
    task_.np_random.Seed(seed ^ 0x5eed5eedULL);
    task_.Reset();
    action_bytes_ = replay_detail::ActionBytes(*task_.action_type, true);
    task_.np_random.Seed(seed);
  }

  void Seed(uint64_t seed) override { task_.np_random.Seed(seed); }

  void Reset() override {
    task_.Reset();
    actions_.clear();
    task_.ComputeInfo(nullptr);
  }

  StepResult Step(const void* action) override {
    actions_.append(static_cast<const char*>(action), action_bytes_);
    auto out = task_.Step(action);
    StepResult result;
    result.reward = out.reward;
    result.terminated = out.terminated;
    result.truncated = out.truncated;
    return result;
  }

  void Render(uint8_t* rgb) override { task_.Render(rgb); }

  // By replay, as HighwayPoolEnv's (abstract.h, replay_detail).
  void SaveState(StateWriter& out) const override {
    out(task_.episode_start, actions_);
  }
  void LoadState(StateReader& in) override {
    replay_detail::Replay(in, task_, action_bytes_, *this);
  }

  void WriteObs(const Row& row) override {
    const Observation& obs = task_.obs;
    std::size_t keys = obs.size();
    if (auto* multi = dynamic_cast<MultiAgentObservation*>(
            task_.observation_type.get())) {
      keys = obs.size() / multi->agents_observation_types.size();
    }
    for (std::size_t j = 0; j < obs.size(); ++j) {
      const std::size_t k = j % keys, agent = j / keys;
      WriteObsArray(obs[j], row.Obs<void>(static_cast<int>(k)),
                    agent * obs[j].data.size());
    }
    const Vehicle* v = task_.vehicle();
    int field = 0;
    *row.Info<double>(field++) = v->speed;
    *row.Info<bool>(field++) = v->crashed;
    for (const auto& reward : task_.info_rewards) {
      *row.Info<double>(field++) = reward.second;
    }
    double* agents_rewards = row.Info<double>(field++);
    for (std::size_t i = 0; i < task_.agents_rewards.size(); ++i) {
      agents_rewards[i] = task_.agents_rewards[i];
    }
    bool* agents_terminated = row.Info<bool>(field++);
    for (std::size_t i = 0; i < task_.agents_terminated.size(); ++i) {
      agents_terminated[i] = task_.agents_terminated[i];
    }
  }

 private:
  Config config_;  // the task keeps a reference to it
  Task task_;
  std::size_t action_bytes_ = 0;
  std::string actions_;  // the episode's actions, action_bytes_ each
};

}  // namespace envpool_lite::highway
