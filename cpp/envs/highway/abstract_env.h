// Port of highway_env/envs/common/abstract.py (highway-env 1.12.1):
// AbstractEnv, the base of every task (its config, reset, step and
// _simulate). abstract.h adds HighwayPoolEnv, which makes a task an
// envpool_lite Env; the actions' and observations' methods, which read an
// AbstractEnv, are in action_methods.h and observation_methods.h.
//
// A task derives from AbstractEnv and ports its Python class's _reset,
// _reward, _rewards, _is_terminated and _is_truncated (ResetScene, Reward,
// Rewards, IsTerminated, IsTruncated). Its options are highway-env's config
// keys: AbstractDefaults() below has AbstractEnv.default_config()'s, each
// task's registration adds its own, and the observation and action dicts
// are flat typed options ("observation.type", "observation.vehicles_count",
// ...; python/envpool_lite/families/highway.py flattens them).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/env.h"
#include "envs/highway/action.h"
#include "envs/highway/behavior.h"
#include "envs/highway/controller.h"
#include "envs/highway/graphics.h"
#include "envs/highway/kinematics.h"
#include "envs/highway/observation.h"
#include "envs/highway/road.h"
#include "envs/highway/utils.h"
#include "refkit/numpy/random.h"

namespace envpool_lite::highway {

// Every observation and action key (observation.h and action.h list them),
// with a placeholder default: the options exist for every task, and the
// Python side passes every key of the chosen type (with highway-env's
// default for it) whenever the user gives an observation or action dict.
// `prefix` is "observation." or "observation.observation_config.".
inline void AddObservationKeys(Config* c, const std::string& prefix) {
  c->Set(prefix + "type", std::string("Kinematics"));
  c->Set(prefix + "features", StringList{});
  c->Set(prefix + "vehicles_count", int64_t{5});
  c->Set(prefix + "features_range", NamedNumbers{});
  c->Set(prefix + "absolute", false);
  c->Set(prefix + "order", std::string("sorted"));
  c->Set(prefix + "normalize", true);
  c->Set(prefix + "clip", true);
  c->Set(prefix + "see_behind", false);
  c->Set(prefix + "observe_intentions", false);
  c->Set(prefix + "include_obstacles", true);
  c->Set(prefix + "scales", NumberList{});
  c->Set(prefix + "grid_size", NumberList{-27.5, 27.5, -27.5, 27.5});
  c->Set(prefix + "grid_step", NumberList{5.0, 5.0});
  c->Set(prefix + "align_to_vehicle_axes", false);
  c->Set(prefix + "as_image", false);
  c->Set(prefix + "horizon", 10.0);
  c->Set(prefix + "cells", int64_t{16});
  c->Set(prefix + "maximum_range", 60.0);
  c->Set(prefix + "attributes", StringList{});
  c->Set(prefix + "observation_shape", NumberList{84, 84});
  c->Set(prefix + "stack_size", int64_t{4});
  c->Set(prefix + "weights", NumberList{0.2989, 0.5870, 0.1140});
  c->Set(prefix + "scaling", 0.0);
  c->Set(prefix + "centering_position", NumberList{});
}

inline void AddActionKeys(Config* c, const std::string& prefix) {
  c->Set(prefix + "type", std::string("DiscreteMetaAction"));
  c->Set(prefix + "acceleration_range", NumberList{-5.0, 5.0});
  c->Set(prefix + "steering_range", NumberList{-kPi / 4, kPi / 4});
  c->Set(prefix + "speed_range", NumberList{});
  c->Set(prefix + "longitudinal", true);
  c->Set(prefix + "lateral", true);
  c->Set(prefix + "dynamical", false);
  c->Set(prefix + "clip", true);
  c->Set(prefix + "actions_per_axis", int64_t{3});
  c->Set(prefix + "target_speeds", NumberList{20.0, 25.0, 30.0});
}

// AbstractEnv.default_config(), plus the observation and action keys, and
// the internal options the Python side fills (numpy's own loops and BLAS:
// utils.h's SetNumpy).
inline Config AbstractDefaults() {
  Config c;
  AddObservationKeys(&c, "observation.");
  AddObservationKeys(&c, "observation.observation_config.");
  AddActionKeys(&c, "action.");
  AddActionKeys(&c, "action.action_config.");
  c.Set("simulation_frequency", int64_t{15});
  c.Set("policy_frequency", int64_t{1});
  c.Set("other_vehicles_type",
        std::string("highway_env.vehicle.behavior.IDMVehicle"));
  c.Set("screen_width", int64_t{600});
  c.Set("screen_height", int64_t{150});
  c.Set("centering_position", NumberList{0.3, 0.5});
  c.Set("scaling", 5.5);
  c.Set("show_trajectories", false);
  c.Set("render_agent", true);
  c.Set("manual_control", false);
  c.Set("real_time_rendering", false);
  c.Set("neighbour_vehicles_connected_lanes", false);
  c.Set("max_episode_steps", int64_t{0});  // gymnasium's TimeLimit, if any
  c.Set("numpy_loops", NamedNumbers{});
  c.Set("numpy_blas", std::string());
  return c;
}

// AbstractEnv.
class AbstractEnv {
 public:
  static constexpr double PERCEPTION_DISTANCE = 5.0 * 40.0;  // 5 * MAX_SPEED

  explicit AbstractEnv(const Config& config)
      : config(config),
        simulation_frequency(static_cast<double>(
            config.GetInt("simulation_frequency", 1, 1 << 20))),
        policy_frequency(
            static_cast<double>(config.GetInt("policy_frequency", 1, 1 << 20))),
        frequency_ratio_(config.GetInt("simulation_frequency") /
                         config.GetInt("policy_frequency")),
        observation_config_(ReadObservationConfig(config, "observation.")),
        action_config_(ReadActionConfig(config, "action.")),
        other_vehicles_type(OtherVehiclesTypeFromPath(
            config.GetString("other_vehicles_type"))) {
    if (frequency_ratio_ < 1) {
      throw std::invalid_argument(
          "option 'policy_frequency' must be at most 'simulation_frequency'");
    }
    SetNumpy(config.GetNamedNumbers("numpy_loops"),
             config.GetString("numpy_blas"));
  }
  virtual ~AbstractEnv() = default;
  AbstractEnv(const AbstractEnv&) = delete;
  AbstractEnv& operator=(const AbstractEnv&) = delete;

  // The vehicle property: the first controlled vehicle.
  Vehicle* vehicle() const {
    return controlled_vehicles.empty() ? nullptr : controlled_vehicles[0].get();
  }

  // define_spaces(): the observation and action types, made anew (highway-env
  // does so twice per reset).
  // Its space() calls are kept: some observe the scene (TTC, KinematicsGoal,
  // AttributesObservation, whose observe() draws noise from np_random).
  // Where highway-env's space() falls back to a bare Space (a TTC observer
  // that is not an MDPVehicle), ours throws: define_spaces() goes on, and
  // only make() (HighwayPoolEnv::MakeSpec) reports it.
  void DefineSpaces() {
    observation_type = ObservationFactory(*this, observation_config_);
    WireRendering(observation_type.get());
    action_type = ActionFactory(*this, action_config_);
    try {
      observation_type->Space();
    } catch (const std::exception&) {
    }
    action_type->Space();
  }

  // reset() after the seeding: the scene, then its observation. The info's
  // action (highway-env's action_space.sample()) is not drawn: see
  // tests/hw_alignment.py.
  void Reset() {
    DefineSpaces();
    BeginEpisode();
    time = 0;
    steps = 0;
    done = false;
    ResetScene();
    if (road != nullptr) {
      road->neighbour_vehicles_connected_lanes =
          config.GetBool("neighbour_vehicles_connected_lanes");
    }
    DefineSpaces();
    obs = observation_type->Observe();
  }

  // For get_state's replay (abstract.h): np_random as the new scene's first
  // draw finds it, taken after reset()'s first define_spaces(), which
  // observes the previous episode's scene (lane-keeping's
  // AttributesObservation draws its noise there). A replayed reset
  // (replay_start set) puts the saved one back at that point, so that what
  // an env observed before (another pool's env: another scene) cannot
  // change the replay, however many numbers that observation draws.
  void BeginEpisode() {
    if (replay_start.has_value()) {
      np_random = *replay_start;
      replay_start.reset();
    }
    episode_start = np_random;
  }
  NumpyRandom episode_start{0};
  std::optional<NumpyRandom> replay_start;

  // step(action): the observation is taken before the reward, as there
  // (parking's reward reads it).
  struct StepOut {
    double reward;
    bool terminated, truncated;
  };
  StepOut Step(const void* action) {
    time += 1 / policy_frequency;
    Simulate(action);
    obs = observation_type->Observe();
    StepOut out;
    out.reward = Reward(action);
    out.terminated = IsTerminated();
    out.truncated = IsTruncated();
    return out;
  }

  // _simulate(action).
  void Simulate(const void* action) {
    for (int64_t frame = 0; frame < frequency_ratio_; ++frame) {
      if (action != nullptr && steps % frequency_ratio_ == 0) {
        action_type->Act(action);
      }
      road->Act();
      road->Step(1 / simulation_frequency);
      steps += 1;
    }
  }

  // render() (rgb_array): EnvViewer(self) made at the first call, the
  // window on the ego vehicle, the lidar's beams where the observation is a
  // LidarObservation that has observed; height x width x 3 RGB.
  void Render(uint8_t* rgb) {
    if (viewer_ == nullptr) {
      viewer_ = std::make_unique<EnvViewer>(
          static_cast<int>(config.GetInt("screen_width")),
          static_cast<int>(config.GetInt("screen_height")),
          config.GetFloat("scaling"), CenteringPosition(config));
    }
    LidarGridView lidar;
    const LidarGridView* lidar_view = nullptr;
    if (auto* l = dynamic_cast<LidarObservation*>(observation_type.get());
        l != nullptr && l->origin.has_value()) {
      lidar = {l->angle, l->grid.data(), l->cells, l->maximum_range,
               *l->origin};
      lidar_view = &lidar;
    }
    viewer_->Display(*road, vehicle(), simulation_frequency, lidar_view);
    viewer_->GetImage(rgb);
  }

  static Vec2 CenteringPosition(const Config& config) {
    const NumberList& c = config.GetNumberList("centering_position");
    if (c.size() != 2) {
      throw std::invalid_argument(
          "option 'centering_position' must be [x, y] (fractions of the "
          "screen)");
    }
    return {c[0], c[1]};
  }

  // Info fields a task adds to highway-env's speed, crashed and reward
  // terms (its _info's own keys: parking's is_success), and their values
  // after a reset or a step, in that order (a bool field: 0 or 1).
  static std::vector<ArraySpec> ExtraInfoSpecs() { return {}; }
  virtual std::vector<double> ExtraInfo() { return {}; }

  // The task's parts (_reset, _reward, _rewards, _is_terminated,
  // _is_truncated). `action` is the raw action of the step.
  virtual void ResetScene() = 0;
  virtual double Reward(const void* action) = 0;
  virtual std::vector<std::pair<std::string, double>> Rewards(
      const void* action) = 0;
  virtual bool IsTerminated() = 0;
  virtual bool IsTruncated() = 0;

  const Config& config;
  std::shared_ptr<Road> road;
  std::vector<std::shared_ptr<Vehicle>> controlled_vehicles;
  NumpyRandom np_random{0};
  double simulation_frequency;
  double policy_frequency;
  int64_t steps = 0;
  double time = 0;
  bool done = false;
  std::unique_ptr<ObservationType> observation_type;
  std::unique_ptr<ActionType> action_type;
  Observation obs;  // the last observe()

 private:
  // GrayscaleObservation draws with an EnvViewer of its own (its size,
  // scaling and centering, else the env's), centred on its observer.
  void WireRendering(ObservationType* type) {
    if (auto* g = dynamic_cast<GrayscaleObservation*>(type); g != nullptr) {
      const double scaling = g->scaling.value_or(0.0) != 0.0
                                 ? *g->scaling
                                 : config.GetFloat("scaling");
      Vec2 centering = CenteringPosition(config);
      if (g->centering_position.has_value() &&
          g->centering_position->size() == 2) {
        centering = {(*g->centering_position)[0], (*g->centering_position)[1]};
      }
      auto viewer = std::make_shared<EnvViewer>(
          static_cast<int>(g->observation_shape[0]),
          static_cast<int>(g->observation_shape[1]), scaling, centering);
      g->render_rgb = [this, viewer](GrayscaleObservation&, Vehicle* observer) {
        viewer->observer_vehicle = observer;
        viewer->Display(*road, vehicle(), simulation_frequency, nullptr);
        return viewer->GetImage();
      };
    } else if (auto* m = dynamic_cast<MultiAgentObservation*>(type);
               m != nullptr) {
      for (auto& agent : m->agents_observation_types) {
        WireRendering(agent.get());
      }
    }
  }

  std::unique_ptr<EnvViewer> viewer_;

 public:
 protected:
  int64_t frequency_ratio_;  // int(simulation_frequency // policy_frequency)
  ObservationConfig observation_config_;
  ActionConfig action_config_;

 public:
  OtherVehiclesType other_vehicles_type;
};

}  // namespace envpool_lite::highway
