// Port of highway_env/envs/common/action.py (highway-env 1.12.1): the action
// types of an AbstractEnv, and action_factory.
//
// This header only declares the classes. The bodies that read the env or
// build vehicles are in action_methods.h, which includes
// abstract_env.h (class AbstractEnv must be complete there).
//
// Actions arrive as raw memory: Act(const void* action) reads ActionBytes()
// bytes: an int32 for DiscreteAction / DiscreteMetaAction, `size` float32
// for ContinuousAction; MultiAgentAction reads one inner action per agent,
// one after the other. Space() returns one envpool ArraySpec per agent
// ("action" for a single agent; "<i>.action" for agent i of a
// MultiAgentAction).
//
// ContinuousAction's arithmetic on the action is numpy's on a float32 array
// (clip and utils.lmap stay float32: the Python scalars are cast to float32
// first, NEP 50), which is what the Python env does with actions of its
// float32 space. (A float64 action given to the Python env would be mapped
// in float64 instead.)
//
// ---------------------------------------------------------------------------
// CONFIG KEYS (read by ReadActionConfig(config, prefix), with prefix
// "action." for the env's action; every key of the chosen type is read,
// nothing else). "None" is represented as noted.
//   <prefix>type            string: ContinuousAction | DiscreteAction |
//                           DiscreteMetaAction | MultiAgentAction
//   ContinuousAction:
//     acceleration_range    NumberList [lo, hi] (None: empty list)
//     steering_range        NumberList [lo, hi] (None: empty list)
//     speed_range           NumberList [lo, hi] (None: empty list)
//     longitudinal          bool
//     lateral               bool
//     dynamical             bool
//     clip                  bool
//   DiscreteAction:
//     acceleration_range    NumberList [lo, hi] (None: empty list)
//     steering_range        NumberList [lo, hi] (None: empty list)
//     longitudinal          bool
//     lateral               bool
//     dynamical             bool
//     clip                  bool
//     actions_per_axis      int
//   DiscreteMetaAction:
//     longitudinal          bool
//     lateral               bool
//     target_speeds         NumberList (None: empty list)
//   MultiAgentAction:
//     action_config.<key>   the inner type's keys, read recursively with
//                           prefix "<prefix>action_config."
// (Python treats an empty range like None: `x if x else DEFAULT`.)
// ---------------------------------------------------------------------------
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/array_spec.h"
#include "core/config.h"
#include "envs/highway/utils.h"

namespace envpool_lite::highway {

class AbstractEnv;
class Road;
class Vehicle;
struct VehicleAction;

// The constructor arguments of every action type (Python's defaults).
struct ActionConfig {
  std::string type = "DiscreteMetaAction";
  NumberList acceleration_range;  // empty: None
  NumberList steering_range;      // empty: None
  NumberList speed_range;         // empty: None
  bool longitudinal = true;
  bool lateral = true;
  bool dynamical = false;
  bool clip = true;
  int64_t actions_per_axis = 3;
  NumberList target_speeds;                     // empty: None
  std::shared_ptr<ActionConfig> action_config;  // MultiAgentAction's
};

inline ActionConfig ReadActionConfig(const Config& config,
                                     const std::string& prefix) {
  ActionConfig c;
  c.type = config.GetString(prefix + "type");
  if (c.type == "ContinuousAction" || c.type == "DiscreteAction") {
    c.acceleration_range = config.GetNumberList(prefix + "acceleration_range");
    c.steering_range = config.GetNumberList(prefix + "steering_range");
    if (c.type == "ContinuousAction") {
      c.speed_range = config.GetNumberList(prefix + "speed_range");
    }
    c.longitudinal = config.GetBool(prefix + "longitudinal");
    c.lateral = config.GetBool(prefix + "lateral");
    c.dynamical = config.GetBool(prefix + "dynamical");
    c.clip = config.GetBool(prefix + "clip");
    if (c.type == "DiscreteAction") {
      c.actions_per_axis =
          config.GetInt(prefix + "actions_per_axis", 1, 1 << 15);
    }
  } else if (c.type == "DiscreteMetaAction") {
    c.longitudinal = config.GetBool(prefix + "longitudinal");
    c.lateral = config.GetBool(prefix + "lateral");
    c.target_speeds = config.GetNumberList(prefix + "target_speeds");
  } else if (c.type == "MultiAgentAction") {
    c.action_config = std::make_shared<ActionConfig>(
        ReadActionConfig(config, prefix + "action_config."));
  } else {
    throw std::invalid_argument("Unknown action type '" + c.type + "'");
  }
  return c;
}

// ActionType.
class ActionType {
 public:
  explicit ActionType(AbstractEnv& env) : env(&env) {}
  virtual ~ActionType() = default;

  // space(), one spec per agent.
  virtual std::vector<ArraySpec> Space() const = 0;
  // act(action), from raw memory (see the top of this file).
  virtual void Act(const void* action) = 0;
  // The bytes Act reads.
  virtual std::size_t ActionBytes() const = 0;
  // get_available_actions() (DiscreteMetaAction only in Python).
  virtual std::vector<int64_t> GetAvailableActions() {
    throw std::logic_error("NotImplementedError: get_available_actions");
  }

  // The vehicle_class property, called:
  //   vehicle_class(road, position, heading, speed)
  virtual std::shared_ptr<Vehicle> Make(Road& road, Vec2 position,
                                        double heading, double speed) const = 0;
  //   vehicle_class.create_random(road, speed, lane_from, lane_to, lane_id,
  //                               spacing)
  virtual std::shared_ptr<Vehicle> CreateRandom(
      Road& road, std::optional<double> speed = std::nullopt,
      std::optional<std::string> lane_from = std::nullopt,
      std::optional<std::string> lane_to = std::nullopt,
      std::optional<int64_t> lane_id = std::nullopt,
      double spacing = 1) const = 0;
  //   vehicle_class.make_on_lane(road, lane_index, longitudinal, speed)
  virtual std::shared_ptr<Vehicle> MakeOnLane(
      Road& road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed = std::nullopt) const = 0;

  // The controlled_vehicle property: the vehicle set, else env.vehicle.
  Vehicle* controlled_vehicle() const;
  void set_controlled_vehicle(std::shared_ptr<Vehicle> vehicle) {
    controlled_vehicle_ = std::move(vehicle);
  }

  AbstractEnv* env;

 private:
  std::shared_ptr<Vehicle> controlled_vehicle_;  // __controlled_vehicle
};

// The classes an action type's vehicle_class can be.
enum class VehicleClass { kVehicle, kBicycleVehicle, kMDPVehicle };

// ContinuousAction.
class ContinuousAction : public ActionType {
 public:
  const std::array<double, 2> ACCELERATION_RANGE = {-5, 5.0};
  const std::array<double, 2> STEERING_RANGE = {-kPi / 4, kPi / 4};

  ContinuousAction(AbstractEnv& env, const ActionConfig& c);

  std::vector<ArraySpec> Space() const override;
  VehicleClass vehicle_class() const {
    return !dynamical ? VehicleClass::kVehicle : VehicleClass::kBicycleVehicle;
  }
  // get_action(action): {acceleration, steering}, float32 values (0 for a
  // disabled axis). Sets the controlled vehicle's MIN/MAX_SPEED from
  // speed_range as Python does.
  VehicleAction GetAction(const float* action);
  void Act(const void* action) override {
    ActValues(static_cast<const float*>(action));
  }
  // act(action) of `size` float32 values.
  void ActValues(const float* action);
  std::size_t ActionBytes() const override { return sizeof(float) * size; }

  std::shared_ptr<Vehicle> Make(Road& road, Vec2 position, double heading,
                                double speed) const override;
  std::shared_ptr<Vehicle> CreateRandom(Road& road, std::optional<double> speed,
                                        std::optional<std::string> lane_from,
                                        std::optional<std::string> lane_to,
                                        std::optional<int64_t> lane_id,
                                        double spacing) const override;
  std::shared_ptr<Vehicle> MakeOnLane(
      Road& road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed) const override;

  std::array<double, 2> acceleration_range;
  std::array<double, 2> steering_range;
  std::optional<std::array<double, 2>> speed_range;
  bool lateral;
  bool longitudinal;
  bool dynamical;
  bool clip;
  int64_t size;
  std::vector<float> last_action;
};

// DiscreteAction.
class DiscreteAction : public ContinuousAction {
 public:
  DiscreteAction(AbstractEnv& env, const ActionConfig& c);

  std::vector<ArraySpec> Space() const override;
  void Act(const void* action) override {
    ActIndex(*static_cast<const int32_t*>(action));
  }
  // act(action) of an int.
  void ActIndex(int64_t action);
  std::size_t ActionBytes() const override { return sizeof(int32_t); }

  int64_t actions_per_axis;
};

// DiscreteMetaAction.
class DiscreteMetaAction : public ActionType {
 public:
  // The label of each action index (Python dicts {index: label}).
  const std::vector<std::string> ACTIONS_ALL = {
      "LANE_LEFT", "IDLE", "LANE_RIGHT", "FASTER", "SLOWER"};
  const std::vector<std::string> ACTIONS_LONGI = {"SLOWER", "IDLE", "FASTER"};
  const std::vector<std::string> ACTIONS_LAT = {"LANE_LEFT", "IDLE",
                                                "LANE_RIGHT"};

  DiscreteMetaAction(AbstractEnv& env, const ActionConfig& c);

  std::vector<ArraySpec> Space() const override;
  VehicleClass vehicle_class() const { return VehicleClass::kMDPVehicle; }
  void Act(const void* action) override {
    ActIndex(*static_cast<const int32_t*>(action));
  }
  // act(action) of an int.
  void ActIndex(int64_t action);
  std::size_t ActionBytes() const override { return sizeof(int32_t); }
  std::vector<int64_t> GetAvailableActions() override;
  // self.actions_indexes[label] (KeyError: std::out_of_range).
  int64_t ActionIndex(const std::string& label) const;

  std::shared_ptr<Vehicle> Make(Road& road, Vec2 position, double heading,
                                double speed) const override;
  std::shared_ptr<Vehicle> CreateRandom(Road& road, std::optional<double> speed,
                                        std::optional<std::string> lane_from,
                                        std::optional<std::string> lane_to,
                                        std::optional<int64_t> lane_id,
                                        double spacing) const override;
  std::shared_ptr<Vehicle> MakeOnLane(
      Road& road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed) const override;

  bool longitudinal;
  bool lateral;
  std::vector<double> target_speeds;
  std::vector<std::string> actions;  // label of index i
};

// MultiAgentAction: one action type per controlled vehicle (at
// construction time), acting on that vehicle.
class MultiAgentAction : public ActionType {
 public:
  MultiAgentAction(AbstractEnv& env, const ActionConfig& c);

  std::vector<ArraySpec> Space() const override;
  // act(tuple): agent i's action at byte offset i * inner ActionBytes().
  void Act(const void* action) override;
  std::size_t ActionBytes() const override;
  // get_available_actions(): itertools.product of the agents' lists.
  std::vector<std::vector<int64_t>> GetAvailableActionTuples();

  // vehicle_class: action_factory(env, action_config).vehicle_class.
  std::shared_ptr<Vehicle> Make(Road& road, Vec2 position, double heading,
                                double speed) const override;
  std::shared_ptr<Vehicle> CreateRandom(Road& road, std::optional<double> speed,
                                        std::optional<std::string> lane_from,
                                        std::optional<std::string> lane_to,
                                        std::optional<int64_t> lane_id,
                                        double spacing) const override;
  std::shared_ptr<Vehicle> MakeOnLane(
      Road& road, const LaneIndex& lane_index, double longitudinal,
      std::optional<double> speed) const override;

  ActionConfig action_config;
  std::vector<std::unique_ptr<ActionType>> agents_action_types;
};

// action_factory(env, config). Defined in action_methods.h.
inline std::unique_ptr<ActionType> ActionFactory(AbstractEnv& env,
                                                 const ActionConfig& config);

}  // namespace envpool_lite::highway
