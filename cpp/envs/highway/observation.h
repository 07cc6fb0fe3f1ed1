// Port of highway_env/envs/common/observation.py (highway-env 1.12.1):
// the observation types of an AbstractEnv, and observation_factory.
//
// This header only declares the classes. The bodies that read the env
// (road, vehicles, np_random, ...) are in observation_methods.h, which
// includes abstract_env.h (class AbstractEnv must be complete there).
//
// Observations are returned as a list of arrays (ObsArray): one array named
// "obs" for a Box observation; one array per key for a Dict observation
// (KinematicsGoal: "achieved_goal", "desired_goal", "observation";
// AttributesObservation: its attribute names); for MultiAgentObservation
// (a Tuple), agent i's arrays with their names prefixed by "<i>." ("0.obs",
// "1.obs", or "0.observation", ...). Space() returns one envpool ArraySpec
// per array, with the same names, in the same order (a Dict's keys sorted,
// as gymnasium's spaces.Dict sorts them). The values of an ObsArray are
// stored as double but are already exactly the values of its dtype (float32
// observations are rounded to float32 where numpy casts them; uint8 ones are
// integers 0..255): the caller casts them to the dtype, which is exact.
//
// NEEDS from kinematics.h: `std::shared_ptr<RoadObject> goal;` on Vehicle
// (parking sets `vehicle.goal`; KinematicsGoalObservation reads it, see
// GoalOf in observation_methods.h, which compiles without it and throws).
//
// ---------------------------------------------------------------------------
// CONFIG KEYS (read by ReadObservationConfig(config, prefix), with prefix
// "observation." for the env's observation; every key of the chosen type is
// read, nothing else). "None" is represented as noted.
//   <prefix>type                  string: Kinematics | OccupancyGrid |
//                                 TimeToCollision | KinematicsGoal |
//                                 ExitObservation | LidarObservation |
//                                 AttributesObservation |
//                                 GrayscaleObservation | MultiAgentObservation
//   Kinematics, ExitObservation:
//     features            StringList   (None: empty list -> FEATURES)
//     vehicles_count      int
//     features_range      NamedNumbers {feature: [lo, hi]} (None: empty)
//     absolute            bool
//     order               string ("sorted" | "shuffled")
//     normalize           bool
//     clip                bool
//     see_behind          bool
//     observe_intentions  bool
//     include_obstacles   bool
//   KinematicsGoal: every Kinematics key above, plus
//     scales              NumberList
//   OccupancyGrid:
//     features            StringList   (None: empty list -> FEATURES)
//     grid_size           NumberList [x_min, x_max, y_min, y_max] (the
//                         row-major flattening of [[x_min, x_max],
//                         [y_min, y_max]]; None: empty list -> GRID_SIZE)
//     grid_step           NumberList [step_x, step_y] (None: empty list ->
//                         GRID_STEP)
//     features_range      NamedNumbers (None: empty)
//     absolute            bool
//     align_to_vehicle_axes bool
//     clip                bool
//     as_image            bool
//   TimeToCollision:
//     horizon             int (read with GetFloat, so a float works too)
//   LidarObservation:
//     cells               int
//     maximum_range       float
//     normalize           bool
//   AttributesObservation:
//     attributes          StringList
//   GrayscaleObservation:
//     observation_shape   NumberList [width, height]
//     stack_size          int
//     weights             NumberList (3 RGB weights)
//     scaling             float (None: 0.0, as `scaling or default` treats
//                         both alike)
//     centering_position  NumberList (None: empty list)
//   MultiAgentObservation:
//     observation_config.<key>  the inner type's keys, read recursively with
//                         prefix "<prefix>observation_config."
// ---------------------------------------------------------------------------
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
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
class Vehicle;
class RoadObject;

// One array of an observation (see the top of this file).
struct ObsArray {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  std::vector<double> data;  // row-major, values exact in dtype
};
using Observation = std::vector<ObsArray>;

// The constructor arguments of every observation type (Python's defaults).
struct ObservationConfig {
  std::string type = "Kinematics";
  // KinematicObservation (also ExitObservation, KinematicsGoalObservation).
  StringList features;  // empty: None
  int64_t vehicles_count = 5;
  NamedNumbers features_range;  // empty: None
  bool absolute = false;
  std::string order = "sorted";
  bool normalize = true;  // also LidarObservation's
  bool clip = true;       // also OccupancyGridObservation's
  bool see_behind = false;
  bool observe_intentions = false;
  bool include_obstacles = true;
  // KinematicsGoalObservation.
  NumberList scales;
  // OccupancyGridObservation.
  NumberList grid_size;  // [x_min, x_max, y_min, y_max]; empty: None
  NumberList grid_step;  // empty: None
  bool align_to_vehicle_axes = false;
  bool as_image = false;
  // TimeToCollisionObservation.
  double horizon = 10;
  // LidarObservation.
  int64_t cells = 16;
  double maximum_range = 60;
  // AttributesObservation.
  StringList attributes;
  // GrayscaleObservation.
  NumberList observation_shape;
  int64_t stack_size = 4;
  NumberList weights;
  double scaling = 0.0;           // 0: None
  NumberList centering_position;  // empty: None
  // MultiAgentObservation.
  std::shared_ptr<ObservationConfig> observation_config;
};

// Reads the keys of the type named by config[prefix + "type"] (see the list
// at the top of this file).
inline ObservationConfig ReadObservationConfig(const Config& config,
                                               const std::string& prefix) {
  ObservationConfig c;
  c.type = config.GetString(prefix + "type");
  auto kinematics = [&]() {
    c.features = config.GetStringList(prefix + "features");
    c.vehicles_count = config.GetInt(prefix + "vehicles_count");
    c.features_range = config.GetNamedNumbers(prefix + "features_range");
    c.absolute = config.GetBool(prefix + "absolute");
    c.order = config.GetString(prefix + "order");
    c.normalize = config.GetBool(prefix + "normalize");
    c.clip = config.GetBool(prefix + "clip");
    c.see_behind = config.GetBool(prefix + "see_behind");
    c.observe_intentions = config.GetBool(prefix + "observe_intentions");
    c.include_obstacles = config.GetBool(prefix + "include_obstacles");
  };
  if (c.type == "Kinematics" || c.type == "ExitObservation") {
    kinematics();
  } else if (c.type == "KinematicsGoal") {
    kinematics();
    c.scales = config.GetNumberList(prefix + "scales");
  } else if (c.type == "OccupancyGrid") {
    c.features = config.GetStringList(prefix + "features");
    c.grid_size = config.GetNumberList(prefix + "grid_size");
    c.grid_step = config.GetNumberList(prefix + "grid_step");
    c.features_range = config.GetNamedNumbers(prefix + "features_range");
    c.absolute = config.GetBool(prefix + "absolute");
    c.align_to_vehicle_axes = config.GetBool(prefix + "align_to_vehicle_axes");
    c.clip = config.GetBool(prefix + "clip");
    c.as_image = config.GetBool(prefix + "as_image");
  } else if (c.type == "TimeToCollision") {
    c.horizon = config.GetFloat(prefix + "horizon");
  } else if (c.type == "LidarObservation") {
    c.cells = config.GetInt(prefix + "cells", 1, 1 << 20);
    c.maximum_range = config.GetFloat(prefix + "maximum_range");
    c.normalize = config.GetBool(prefix + "normalize");
  } else if (c.type == "AttributesObservation") {
    c.attributes = config.GetStringList(prefix + "attributes");
  } else if (c.type == "GrayscaleObservation") {
    c.observation_shape = config.GetNumberList(prefix + "observation_shape");
    c.stack_size = config.GetInt(prefix + "stack_size", 1, 1 << 16);
    c.weights = config.GetNumberList(prefix + "weights");
    c.scaling = config.GetFloat(prefix + "scaling");
    c.centering_position = config.GetNumberList(prefix + "centering_position");
  } else if (c.type == "MultiAgentObservation") {
    c.observation_config = std::make_shared<ObservationConfig>(
        ReadObservationConfig(config, prefix + "observation_config."));
  } else {
    throw std::invalid_argument("Unknown observation type '" + c.type + "'");
  }
  return c;
}

// ObservationType.
class ObservationType {
 public:
  explicit ObservationType(AbstractEnv& env) : env(&env) {}
  virtual ~ObservationType() = default;

  // space(): the arrays of the observation. Like Python, the space of
  // TimeToCollision, KinematicsGoal and AttributesObservation is computed
  // by calling Observe() (with its side effects, e.g. the np_random draws
  // of lane-keeping's noisy attributes).
  virtual std::vector<ArraySpec> Space() = 0;
  // observe().
  virtual Observation Observe() = 0;

  // The observer_vehicle property: the vehicle set, else env.vehicle.
  Vehicle* observer_vehicle() const;
  void set_observer_vehicle(std::shared_ptr<Vehicle> vehicle) {
    observer_vehicle_ = std::move(vehicle);
  }

  AbstractEnv* env;

 private:
  std::shared_ptr<Vehicle> observer_vehicle_;  // __observer_vehicle
};

// A minimal pandas DataFrame of float64 values, as the observations build
// them with DataFrame.from_records(dicts): the union of the dicts' keys in
// order of first appearance, NaN where a record lacks a key.
struct Frame {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;

  int Col(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] == name) return static_cast<int>(i);
    }
    return -1;
  }
  // Appends a record {key: value} (from_records / concat).
  void AddRecord(const std::vector<std::pair<std::string, double>>& record) {
    std::vector<double> row(columns.size(),
                            std::numeric_limits<double>::quiet_NaN());
    for (const auto& [key, value] : record) {
      int c = Col(key);
      if (c < 0) {
        columns.push_back(key);
        for (auto& r : rows) {
          r.push_back(std::numeric_limits<double>::quiet_NaN());
        }
        row.push_back(value);
      } else {
        row[c] = value;
      }
    }
    rows.push_back(std::move(row));
  }
  // df[features]: the columns in that order (KeyError if one is missing).
  Frame Select(const std::vector<std::string>& features) const;
};

// TimeToCollisionObservation.
class TimeToCollisionObservation : public ObservationType {
 public:
  TimeToCollisionObservation(AbstractEnv& env, double horizon = 10)
      : ObservationType(env), horizon(horizon) {}
  std::vector<ArraySpec> Space() override;
  Observation Observe() override;

  double horizon;
};

// KinematicObservation.
class KinematicObservation : public ObservationType {
 public:
  const std::vector<std::string> FEATURES = {"presence", "x", "y", "vx", "vy"};

  explicit KinematicObservation(AbstractEnv& env,
                                const ObservationConfig& c = {})
      : ObservationType(env),
        features(c.features.empty() ? FEATURES : c.features),
        vehicles_count(c.vehicles_count),
        features_range(c.features_range),
        absolute(c.absolute),
        order(c.order),
        normalize(c.normalize),
        clip(c.clip),
        see_behind(c.see_behind),
        observe_intentions(c.observe_intentions),
        include_obstacles(c.include_obstacles) {}

  std::vector<ArraySpec> Space() override;
  // normalize_obs(df), in place.
  void NormalizeObs(Frame* df);
  Observation Observe() override;

  std::vector<std::string> features;
  int64_t vehicles_count;
  NamedNumbers features_range;  // empty: None (set on first normalize)
  bool absolute;
  std::string order;
  bool normalize;
  bool clip;
  bool see_behind;
  bool observe_intentions;
  bool include_obstacles;

 protected:
  // The end of observe(), from "Normalize and clip": normalize, fill the
  // missing rows, shuffle, cast to float32.
  Observation Finish(Frame df);
};

// OccupancyGridObservation.
class OccupancyGridObservation : public ObservationType {
 public:
  const std::vector<std::string> FEATURES = {"presence", "vx", "vy", "on_road"};
  const std::array<std::array<double, 2>, 2> GRID_SIZE = {
      {{-5.5 * 5, 5.5 * 5}, {-5.5 * 5, 5.5 * 5}}};
  const std::array<double, 2> GRID_STEP = {5, 5};

  explicit OccupancyGridObservation(AbstractEnv& env,
                                    const ObservationConfig& c = {});

  std::vector<ArraySpec> Space() override;
  // normalize(df), in place.
  void Normalize(Frame* df);
  Observation Observe() override;
  std::array<int64_t, 2> PosToIndex(Vec2 position, bool relative = false);
  Vec2 IndexToPos(std::array<int64_t, 2> index);
  void FillRoadLayerByLanes(int64_t layer_index,
                            double lane_perception_distance = 100);
  void FillRoadLayerByCell(int64_t layer_index);

  std::vector<std::string> features;
  std::array<std::array<double, 2>, 2> grid_size;
  std::array<double, 2> grid_step;
  std::array<int64_t, 3> grid_shape;  // self.grid.shape
  std::vector<double> grid;           // self.grid, row-major
  NamedNumbers features_range;        // empty: None (set on first normalize)
  bool absolute;
  bool align_to_vehicle_axes;
  bool clip;
  bool as_image;

 private:
  double& Grid(int64_t layer, int64_t i, int64_t j) {
    return grid[(layer * grid_shape[1] + i) * grid_shape[2] + j];
  }
};

// KinematicsGoalObservation.
class KinematicsGoalObservation : public KinematicObservation {
 public:
  KinematicsGoalObservation(AbstractEnv& env, const ObservationConfig& c)
      : KinematicObservation(env, c), scales(c.scales) {}
  std::vector<ArraySpec> Space() override;
  Observation Observe() override;

  std::vector<double> scales;
};

// AttributesObservation: env attributes by name (lane-keeping's "state",
// "derivative", "reference_state"). The env provides them through
// `get_attribute` (Python: getattr(self.env, attribute)), which the lead
// wires when creating the observation type.
class AttributesObservation : public ObservationType {
 public:
  struct Value {
    std::vector<int64_t> shape;
    std::vector<double> data;  // float64
  };
  AttributesObservation(AbstractEnv& env, const ObservationConfig& c)
      : ObservationType(env), attributes(c.attributes) {}
  std::vector<ArraySpec> Space() override;
  Observation Observe() override;

  std::vector<std::string> attributes;
  std::function<Value(const std::string& attribute)> get_attribute;
};

// ExitObservation.
class ExitObservation : public KinematicObservation {
 public:
  ExitObservation(AbstractEnv& env, const ObservationConfig& c)
      : KinematicObservation(env, c) {}
  Observation Observe() override;
};

// LidarObservation.
class LidarObservation : public ObservationType {
 public:
  static constexpr int64_t DISTANCE = 0;
  static constexpr int64_t SPEED = 1;

  LidarObservation(AbstractEnv& env, const ObservationConfig& c);
  std::vector<ArraySpec> Space() override;
  Observation Observe() override;
  // trace(origin, origin_velocity): fills and returns self.grid
  // (cells x 2, float32).
  const std::vector<float>& Trace(const Vec2& origin,
                                  const Vec2& origin_velocity);
  double PositionToAngle(const Vec2& position, const Vec2& origin) const;
  int64_t PositionToIndex(const Vec2& position, const Vec2& origin) const;
  int64_t AngleToIndex(double angle) const;
  Vec2 IndexToDirection(int64_t index) const;

  int64_t cells;
  double maximum_range;
  bool normalize;
  double angle;
  std::vector<float> grid;  // cells x 2
  std::optional<Vec2> origin;
};

// GrayscaleObservation. The frames come from the renderer (graphics.h,
// written by someone else): `render_rgb` returns the viewer's image
// (EnvViewer.get_image(): height x width x 3 uint8, row-major, for a viewer
// of screen_width = observation_shape[0], screen_height =
// observation_shape[1], offscreen, with this observation's `scaling` /
// `centering_position` when set, else the env's), after displaying it with
// this observation's observer vehicle. The lead wires it.
class GrayscaleObservation : public ObservationType {
 public:
  GrayscaleObservation(AbstractEnv& env, const ObservationConfig& c);
  std::vector<ArraySpec> Space() override;
  Observation Observe() override;

  std::array<int64_t, 2> observation_shape;
  std::array<int64_t, 3> shape;
  std::vector<double> weights;
  std::vector<uint8_t> obs;  // shape, row-major
  std::optional<double> scaling;
  std::optional<std::vector<double>> centering_position;
  std::function<std::vector<uint8_t>(GrayscaleObservation& self,
                                     Vehicle* observer)>
      render_rgb;

 private:
  std::vector<uint8_t> RenderToGrayscale();  // _render_to_grayscale
};

// MultiAgentObservation: one observation type per controlled vehicle (at
// construction time), observed by that vehicle.
class MultiAgentObservation : public ObservationType {
 public:
  MultiAgentObservation(AbstractEnv& env, const ObservationConfig& c);
  std::vector<ArraySpec> Space() override;
  Observation Observe() override;

  ObservationConfig observation_config;
  std::vector<std::unique_ptr<ObservationType>> agents_observation_types;
};

// observation_factory(env, config). Defined in observation_methods.h.
inline std::unique_ptr<ObservationType> ObservationFactory(
    AbstractEnv& env, const ObservationConfig& config);

}  // namespace envpool_lite::highway
