// Port of highway_env/envs/common/abstract.py (highway-env 1.12.1):
// HighwayPoolEnv, which makes a task (an AbstractEnv, abstract_env.h) an
// envpool_lite Env. A task's header includes this one: it brings AbstractEnv
// and the methods of its actions and observations.
//
// A task derives from AbstractEnv and ports its Python class's _reset,
// _reward, _rewards, _is_terminated and _is_truncated (ResetScene, Reward,
// Rewards, IsTerminated, IsTruncated). Its options are highway-env's config
// keys: AbstractDefaults() in abstract_env.h has
// AbstractEnv.default_config()'s, each task's registration adds its own, and
// the observation and action dicts are flat typed options ("observation.type",
// "observation.vehicles_count", ...; python/envpool_lite/families/highway.py
// flattens them).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/env.h"
#include "envs/highway/abstract_env.h"
#include "envs/highway/action.h"
#include "envs/highway/action_methods.h"
#include "envs/highway/behavior.h"
#include "envs/highway/controller.h"
#include "envs/highway/graphics.h"
#include "envs/highway/kinematics.h"
#include "envs/highway/observation.h"
#include "envs/highway/observation_methods.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"
#include "refkit/numpy/random.h"

namespace envpool_lite::highway {

// One observation array into its batch field, cast to its dtype (exact:
// the values are already the dtype's), `offset` elements in (an agent's
// slot of a stacked multi-agent array).
inline void WriteObsArray(const ObsArray& a, void* dst, std::size_t offset) {
  const std::size_t n = a.data.size();
  switch (a.dtype) {
    case DType::kFloat32: {
      float* p = static_cast<float*>(dst) + offset;
      for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<float>(a.data[i]);
      break;
    }
    case DType::kFloat64:
      std::memcpy(static_cast<double*>(dst) + offset, a.data.data(),
                  n * sizeof(double));
      break;
    case DType::kUint8: {
      uint8_t* p = static_cast<uint8_t*>(dst) + offset;
      for (std::size_t i = 0; i < n; ++i)
        p[i] = static_cast<uint8_t>(a.data[i]);
      break;
    }
    default:
      throw std::logic_error("highway: unexpected observation dtype");
  }
}

// get_state / set_state, by replay, for HighwayPoolEnv and
// HighwayMultiAgentPoolEnv. A scene is a graph of shared, polymorphic
// objects: the road holds its network of lanes and its vehicles; a vehicle
// points at the road, at its lanes and its route's, a behaviour at the
// vehicles around it; the observation and action types point at the env and
// its vehicles. Saving it directly would mean writing every kind of lane,
// vehicle, controller and observation, with indices for each pointer.
// Replaying is exact and much simpler: a scene is made of np_random's
// draws from the episode's start (AbstractEnv::BeginEpisode) and the
// actions since, and nothing else outlives an episode (the scene, the
// observation and action types are made anew at each reset; render()'s
// viewer draws every frame whole). So an env saves np_random's state at
// its episode's start and the actions since, and LoadState resets with
// that state and steps the actions again: loading costs as much as the
// episode so far (highway-env's episodes are some 40 steps).
namespace replay_detail {

// The bytes of one action as the pool hands it over: the action space's
// first array, or (`stacked`, the multi-agent pool's) every agent's.
inline std::size_t ActionBytes(const ActionType& type, bool stacked) {
  const std::vector<ArraySpec> specs = type.Space();
  std::size_t bytes = specs.at(0).NumBytes();
  if (stacked && dynamic_cast<const MultiAgentAction*>(&type) != nullptr) {
    bytes = 0;
    for (const ArraySpec& spec : specs) bytes += spec.NumBytes();
  }
  return bytes;
}

// LoadState's part: `task` reset as the saved episode began, then its
// actions stepped again, through the pool env's Reset and Step.
template <typename PoolEnv, typename Task>
void Replay(StateReader& in, Task& task, std::size_t action_bytes,
            PoolEnv& env) {
  NumpyRandom start{0};
  std::string actions;
  in(start, actions);
  if (actions.size() % action_bytes != 0) {
    throw StateError("highway: the actions do not fit this env's");
  }
  task.replay_start = start;
  env.Reset();
  for (std::size_t i = 0; i < actions.size(); i += action_bytes) {
    env.Step(actions.data() + i);
  }
}

}  // namespace replay_detail

// A task as an envpool_lite Env. Task derives from AbstractEnv and has
// `static Config DefaultConfig()` (AbstractDefaults() plus its keys) and
// `static std::vector<std::string> RewardNames()` (its _rewards' keys, in
// order: each is the info field "rewards.<name>").
template <typename Task>
class HighwayPoolEnv : public Env {
 public:
  static Config DefaultConfig() { return Task::DefaultConfig(); }

  // The spaces are those of a task made and reset once (highway-env's
  // define_spaces() reads the scene: KinematicsGoal observes it).
  static EnvSpec MakeSpec(const Config& config) {
    Task task(config);
    task.Reset();
    EnvSpec spec;
    std::vector<ArraySpec> obs = task.observation_type->Space();
    if (obs.size() == 1) {
      spec.obs = obs[0];
      spec.obs.name = "obs";
    } else {
      spec.obs_dict = obs;
    }
    std::vector<ArraySpec> actions = task.action_type->Space();
    spec.action = actions[0];
    spec.action.name = "action";
    spec.info.push_back(MakeScalar<double>("speed"));
    spec.info.push_back(MakeScalar<bool>("crashed"));
    for (const std::string& name : Task::RewardNames()) {
      spec.info.push_back(MakeScalar<double>("rewards." + name));
    }
    for (const ArraySpec& extra : Task::ExtraInfoSpecs()) {
      spec.info.push_back(extra);
    }
    spec.max_episode_steps = config.GetInt("max_episode_steps", 0, 1 << 30);
    spec.render_height = config.GetInt("screen_height", 1, 1 << 14);
    spec.render_width = config.GetInt("screen_width", 1, 1 << 14);
    Task::CenteringPosition(config);
    spec.reward_float64 = true;
    return spec;
  }

  // gymnasium.make() resets the env once, with a generator seeded from the
  // operating system; reset(seed=s) then starts from that scene (its first
  // define_spaces() observes it). So does this, with a generator of its own,
  // before the seed is set.
  HighwayPoolEnv(const Config& config, uint64_t seed)
      : config_(config), task_(config_) {
    task_.np_random.Seed(seed ^ 0x5eed5eedULL);
    task_.Reset();
    action_bytes_ = replay_detail::ActionBytes(*task_.action_type, false);
    task_.np_random.Seed(seed);
  }

  void Seed(uint64_t seed) override { task_.np_random.Seed(seed); }

  void Reset() override {
    task_.Reset();
    actions_.clear();
    rewards_ = task_.Rewards(nullptr);
    extra_ = task_.ExtraInfo();
  }

  StepResult Step(const void* action) override {
    actions_.append(static_cast<const char*>(action), action_bytes_);
    auto out = task_.Step(action);
    rewards_ = task_.Rewards(action);
    extra_ = task_.ExtraInfo();
    StepResult result;
    result.reward = out.reward;
    result.terminated = out.terminated;
    result.truncated = out.truncated;
    return result;
  }

  void Render(uint8_t* rgb) override { task_.Render(rgb); }

  // By replay (replay_detail above): the episode's start, its actions.
  void SaveState(StateWriter& out) const override {
    out(task_.episode_start, actions_);
  }
  void LoadState(StateReader& in) override {
    replay_detail::Replay(in, task_, action_bytes_, *this);
  }

  void WriteObs(const Row& row) override {
    for (std::size_t k = 0; k < task_.obs.size(); ++k) {
      WriteObsArray(task_.obs[k], row.Obs<void>(static_cast<int>(k)), 0);
    }
    const Vehicle* v = task_.vehicle();
    *row.Info<double>(0) = v->speed;
    *row.Info<bool>(1) = v->crashed;
    for (std::size_t i = 0; i < rewards_.size(); ++i) {
      *row.Info<double>(static_cast<int>(2 + i)) = rewards_[i].second;
    }
    for (std::size_t i = 0; i < extra_.size(); ++i) {
      const int field = static_cast<int>(2 + rewards_.size() + i);
      if (extra_specs_[i].dtype == DType::kBool) {
        *row.Info<bool>(field) = extra_[i] != 0;
      } else {
        *row.Info<double>(field) = extra_[i];
      }
    }
  }

 private:
  Config config_;  // the task keeps a reference to it
  Task task_;
  std::vector<std::pair<std::string, double>> rewards_;
  std::vector<double> extra_;
  const std::vector<ArraySpec> extra_specs_ = Task::ExtraInfoSpecs();
  std::size_t action_bytes_ = 0;
  std::string actions_;  // the episode's actions, action_bytes_ each
};

}  // namespace envpool_lite::highway
