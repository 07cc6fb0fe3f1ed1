// Port of highway_env/envs/roundabout_env.py (highway-env 1.12.1):
// roundabout-v0 (RoundaboutEnv), roundabout-v1 (ConnectedLaneRoundaboutEnv),
// roundabout-generic-v0 (RoundaboutGenericEnv) and roundabout-generic-v1
// (ConnectedLaneRoundaboutGenericEnv). The ego vehicle enters a two-lane
// roundabout from the south and leaves it to the north, among vehicles with
// random destinations; rewarded for speed, penalised for crashes and lane
// changes; the episode ends at a crash or after `duration` seconds.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/highway/abstract.h"
#include "envs/highway/merge_env.h"

namespace envpool_lite::highway {

namespace roads_detail {

// np.deg2rad(x): numpy's loop is x * (NPY_PI / 180.0) (checked equal on
// every integer angle in [-400, 400)).
inline double Deg2Rad(double x) { return x * (kPi / 180.0); }

// Road(network, np_random, record_history, neighbour_vehicles_connected_lanes)
inline std::shared_ptr<Road> MakeRoad(std::shared_ptr<RoadNetwork> net,
                                      AbstractEnv& env) {
  return std::make_shared<Road>(
      std::move(net), std::vector<std::shared_ptr<RoadObject>>{},
      std::vector<std::shared_ptr<RoadObject>>{}, &env.np_random,
      env.config.GetBool("show_trajectories"),
      env.config.GetBool("neighbour_vehicles_connected_lanes"));
}

// `try: vehicle.plan_route_to(destination) except AttributeError: pass`
inline void TryPlanRouteTo(Vehicle* vehicle, const std::string& destination) {
  if (auto* c = As<ControlledVehicle>(vehicle)) {
    c->PlanRouteTo(destination);
  }
}

}  // namespace roads_detail

// class RoundaboutEnv(AbstractEnv)
class RoundaboutEnv : public AbstractEnv {
 public:
  static Config DefaultConfig() {
    Config c = AbstractDefaults();
    c.Set("observation.type", std::string("Kinematics"));
    c.Set("observation.absolute", true);
    c.Set("observation.features_range", NamedNumbers{{"x", {-100, 100}},
                                                     {"y", {-100, 100}},
                                                     {"vx", {-15, 15}},
                                                     {"vy", {-15, 15}}});
    c.Set("action.type", std::string("DiscreteMetaAction"));
    c.Set("action.target_speeds", NumberList{0, 8, 16});
    c.Set("incoming_vehicle_destination", int64_t{-1});  // -1: None
    c.Set("collision_reward", -1.0);
    c.Set("high_speed_reward", 0.2);
    c.Set("right_lane_reward", 0.0);
    c.Set("lane_change_reward", -0.05);
    c.Set("screen_width", int64_t{600});
    c.Set("screen_height", int64_t{600});
    c.Set("centering_position", NumberList{0.5, 0.6});
    c.Set("duration", 11.0);
    c.Set("normalize_reward", true);
    return c;
  }
  static std::vector<std::string> RewardNames() {
    return {"collision_reward", "high_speed_reward", "lane_change_reward",
            "on_road_reward"};
  }

  explicit RoundaboutEnv(const Config& config, int64_t max_destination = 2)
      : AbstractEnv(config),
        incoming_vehicle_destination_(
            config.GetInt("incoming_vehicle_destination", -1, max_destination)),
        collision_reward_(config.GetFloat("collision_reward")),
        high_speed_reward_(config.GetFloat("high_speed_reward")),
        lane_change_reward_(config.GetFloat("lane_change_reward")),
        duration_(config.GetFloat("duration")),
        normalize_reward_(config.GetBool("normalize_reward")) {
    config.GetFloat("right_lane_reward");
  }

  // _reset()
  void ResetScene() override {
    MakeRoad();
    MakeVehicles();
  }

  // _reward(action)
  double Reward(const void* action) override {
    const auto rewards = Rewards(action);
    double reward = 0;
    for (const auto& [name, value] : rewards) reward += Weight(name) * value;
    if (normalize_reward_) {
      reward = Lmap(reward, {collision_reward_, high_speed_reward_}, {0, 1});
    }
    reward *= rewards[3].second;  // on_road_reward
    return reward;
  }

  // _rewards(action)
  std::vector<std::pair<std::string, double>> Rewards(
      const void* action) override {
    Vehicle* v = vehicle();
    // MDPVehicle.get_speed_index(vehicle) / (DEFAULT_TARGET_SPEEDS.size - 1)
    const double speed_index =
        static_cast<double>(MDPVehicle::GetSpeedIndex(*v));
    return {
        {"collision_reward", v->crashed ? 1.0 : 0.0},
        {"high_speed_reward", speed_index / static_cast<double>(3 - 1)},
        {"lane_change_reward",
         roads_detail::ActionInZeroTwo(action_type.get(), action) ? 1.0 : 0.0},
        {"on_road_reward", v->OnRoad() ? 1.0 : 0.0},
    };
  }

  bool IsTerminated() override { return vehicle()->crashed; }

  bool IsTruncated() override { return time >= duration_; }

  // _make_road()
  virtual void MakeRoad() {
    const Vec2 center{0, 0};
    const double radius = 20;
    const double alpha = 24;

    auto net = std::make_shared<RoadNetwork>();
    const double radii[2] = {radius, radius + 4};
    const int n = LineType::NONE, c = LineType::CONTINUOUS,
              s = LineType::STRIPED;
    const LineTypes line[2] = {{c, s}, {n, c}};
    using roads_detail::Deg2Rad;
    auto circle = [&](int lane, double start, double end) {
      return std::make_shared<CircularLane>(
          center, radii[lane], Deg2Rad(start), Deg2Rad(end), false,
          AbstractLane::DEFAULT_WIDTH, line[lane]);
    };
    for (int lane = 0; lane < 2; ++lane) {
      net->AddLane("se", "ex", circle(lane, 90 - alpha, alpha));
      net->AddLane("ex", "ee", circle(lane, alpha, -alpha));
      net->AddLane("ee", "nx", circle(lane, -alpha, -90 + alpha));
      net->AddLane("nx", "ne", circle(lane, -90 + alpha, -90 - alpha));
      net->AddLane("ne", "wx", circle(lane, -90 - alpha, -180 + alpha));
      net->AddLane("wx", "we", circle(lane, -180 + alpha, -180 - alpha));
      net->AddLane("we", "sx", circle(lane, 180 - alpha, 90 + alpha));
      net->AddLane("sx", "se", circle(lane, 90 + alpha, 90 - alpha));
    }

    // Access lanes: (r)oad/(s)ine
    const double access = 170;
    const double dev = 85;
    const double a = 5;
    const double delta_st = 0.2 * dev;
    const double delta_en = dev - delta_st;
    const double w = 2 * kPi / dev;
    const double W = AbstractLane::DEFAULT_WIDTH;
    auto straight = [&](Vec2 start, Vec2 end, int left, int right) {
      return std::make_shared<StraightLane>(start, end, W,
                                            LineTypes{left, right});
    };
    auto sine = [&](Vec2 start, Vec2 end, double phase) {
      return std::make_shared<SineLane>(start, end, a, w, phase, W,
                                        LineTypes{c, c});
    };
    const double phase_en = -kPi / 2 + w * delta_en;
    net->AddLane("ser", "ses", straight({2, access}, {2, dev / 2}, s, c));
    net->AddLane("ses", "se",
                 sine({2 + a, dev / 2}, {2 + a, dev / 2 - delta_st}, -kPi / 2));
    net->AddLane(
        "sx", "sxs",
        sine({-2 - a, -dev / 2 + delta_en}, {-2 - a, dev / 2}, phase_en));
    net->AddLane("sxs", "sxr", straight({-2, dev / 2}, {-2, access}, n, c));

    net->AddLane("eer", "ees", straight({access, -2}, {dev / 2, -2}, s, c));
    net->AddLane(
        "ees", "ee",
        sine({dev / 2, -2 - a}, {dev / 2 - delta_st, -2 - a}, -kPi / 2));
    net->AddLane(
        "ex", "exs",
        sine({-dev / 2 + delta_en, 2 + a}, {dev / 2, 2 + a}, phase_en));
    net->AddLane("exs", "exr", straight({dev / 2, 2}, {access, 2}, n, c));

    net->AddLane("ner", "nes", straight({-2, -access}, {-2, -dev / 2}, s, c));
    net->AddLane(
        "nes", "ne",
        sine({-2 - a, -dev / 2}, {-2 - a, -dev / 2 + delta_st}, -kPi / 2));
    net->AddLane(
        "nx", "nxs",
        sine({2 + a, dev / 2 - delta_en}, {2 + a, -dev / 2}, phase_en));
    net->AddLane("nxs", "nxr", straight({2, -dev / 2}, {2, -access}, n, c));

    net->AddLane("wer", "wes", straight({-access, 2}, {-dev / 2, 2}, s, c));
    net->AddLane(
        "wes", "we",
        sine({-dev / 2, 2 + a}, {-dev / 2 + delta_st, 2 + a}, -kPi / 2));
    net->AddLane(
        "wx", "wxs",
        sine({dev / 2 - delta_en, -2 - a}, {-dev / 2, -2 - a}, phase_en));
    net->AddLane("wxs", "wxr", straight({-dev / 2, -2}, {-access, -2}, n, c));

    road = roads_detail::MakeRoad(net, *this);
  }

  // _make_vehicles()
  virtual void MakeVehicles() {
    const double position_deviation = 2.0;
    const double speed_deviation = 2.0;
    Road& r = *road;

    // Ego-vehicle
    const auto ego_lane = r.network->GetLane({"ser", "ses", 0});
    std::shared_ptr<Vehicle> ego = action_type->Make(
        r, ego_lane->Position(125.0, 0.0), ego_lane->HeadingAt(140.0), 8.0);
    roads_detail::TryPlanRouteTo(ego.get(), "nxs");
    r.vehicles.push_back(ego);
    controlled_vehicles = {ego};

    // Incoming vehicle
    const std::vector<std::string> destinations = {"exr", "sxr", "nxr"};
    auto choice = [&]() {
      return destinations[static_cast<size_t>(
          np_random.Integers(0, static_cast<int64_t>(destinations.size())))];
    };
    auto make = [&](const LaneIndex& lane_index, double longitudinal_mean,
                    double speed_mean) {
      const double longitudinal =
          longitudinal_mean + StandardNormal(np_random) * position_deviation;
      const double speed =
          speed_mean + StandardNormal(np_random) * speed_deviation;
      return MakeOtherVehicleOnLane(other_vehicles_type, r, lane_index,
                                    longitudinal, speed);
    };
    auto vehicle = make({"we", "sx", 1}, 5.0, 16);
    std::string destination;
    if (incoming_vehicle_destination_ >= 0) {
      destination =
          destinations[static_cast<size_t>(incoming_vehicle_destination_)];
    } else {
      destination = choice();
    }
    vehicle->PlanRouteTo(destination);
    vehicle->RandomizeBehavior();
    r.vehicles.push_back(vehicle);

    // Other vehicles
    for (int i : {1, -1}) {
      vehicle = make({"we", "sx", 0}, 20.0 * static_cast<double>(i), 16.0);
      vehicle->PlanRouteTo(choice());
      vehicle->RandomizeBehavior();
      r.vehicles.push_back(vehicle);
    }

    // Entering vehicle
    vehicle = make({"eer", "ees", 0}, 50.0, 16.0);
    vehicle->PlanRouteTo(choice());
    vehicle->RandomizeBehavior();
    r.vehicles.push_back(vehicle);
  }

 protected:
  // config.get(name, 0) of a reward term's name.
  double Weight(const std::string& name) const {
    if (name == "collision_reward") return collision_reward_;
    if (name == "high_speed_reward") return high_speed_reward_;
    if (name == "lane_change_reward") return lane_change_reward_;
    return 0;
  }

  int64_t incoming_vehicle_destination_;
  double collision_reward_, high_speed_reward_, lane_change_reward_;
  double duration_;
  bool normalize_reward_;
};

// class RoundaboutGenericEnv(RoundaboutEnv): configurable radius, number of
// lanes and number of other vehicles.
class RoundaboutGenericEnv : public RoundaboutEnv {
 public:
  static Config DefaultConfig() {
    Config c = RoundaboutEnv::DefaultConfig();
    c.Set("roundabout_radius", 20.0);
    c.Set("roundabout_lanes", int64_t{2});
    c.Set("vehicles_count", int64_t{5});
    c.Set("duration", 17.0);
    return c;
  }

  explicit RoundaboutGenericEnv(const Config& config)
      : RoundaboutEnv(config, int64_t{1} << 30),
        radius_(config.GetFloat("roundabout_radius")),
        num_lanes_(config.GetInt("roundabout_lanes", 1, 1000)),
        vehicles_count_(config.GetInt("vehicles_count", 0, 100000)) {}

  void MakeRoad() override {
    const Vec2 center{0, 0};
    const double radius = radius_;
    const int64_t num_lanes = num_lanes_;
    const double alpha = 24;

    auto net = std::make_shared<RoadNetwork>();
    std::vector<double> radii;
    for (int64_t i = 0; i < num_lanes; ++i) {
      radii.push_back(radius + static_cast<double>(4 * i));
    }
    const int n = LineType::NONE, c = LineType::CONTINUOUS,
              s = LineType::STRIPED;
    const std::string nodes[9] = {"se", "ex", "ee", "nx", "ne",
                                  "wx", "we", "sx", "se"};
    const double angles[8][2] = {
        {90 - alpha, alpha},         {alpha, -alpha},
        {-alpha, -90 + alpha},       {-90 + alpha, -90 - alpha},
        {-90 - alpha, -180 + alpha}, {-180 + alpha, -180 - alpha},
        {180 - alpha, 90 + alpha},   {90 + alpha, 90 - alpha},
    };
    using roads_detail::Deg2Rad;
    for (int64_t lane = 0; lane < num_lanes; ++lane) {
      LineTypes line_types;
      if (num_lanes == 1) {
        line_types = {c, c};
      } else if (lane == 0) {
        line_types = {c, s};
      } else if (lane == num_lanes - 1) {
        line_types = {n, c};
      } else {
        line_types = {n, s};
      }
      for (int i = 0; i < 8; ++i) {
        net->AddLane(nodes[i], nodes[i + 1],
                     std::make_shared<CircularLane>(
                         center, radii[static_cast<size_t>(lane)],
                         Deg2Rad(angles[i][0]), Deg2Rad(angles[i][1]), false,
                         AbstractLane::DEFAULT_WIDTH, line_types));
      }
    }

    // Exact coordinates on the outermost circle.
    const double outer_radius = radii.back();
    auto pt = [&](double angle_deg) {
      const double rad = Deg2Rad(angle_deg);
      return Vec2{outer_radius * Np().Cos(rad), outer_radius * Np().Sin(rad)};
    };
    const Vec2 p_se = pt(90 - alpha);
    const Vec2 p_ex = pt(alpha);
    const Vec2 p_ee = pt(-alpha);
    const Vec2 p_nx = pt(-90 + alpha);
    const Vec2 p_ne = pt(-90 - alpha);
    const Vec2 p_wx = pt(-180 + alpha);
    const Vec2 p_we = pt(180 - alpha);
    const Vec2 p_sx = pt(90 + alpha);

    // max(100.0, 2 * outer_radius + 40.0)
    const double dev = PyMax(100.0, 2 * outer_radius + 40.0);
    const double access = dev + 40.0;
    const double W = AbstractLane::DEFAULT_WIDTH;
    auto straight = [&](Vec2 start, Vec2 end, int left, int right) {
      return std::make_shared<StraightLane>(start, end, W,
                                            LineTypes{left, right});
    };
    auto sine = [&](Vec2 start, Vec2 end, double a, double w) {
      return std::make_shared<SineLane>(start, end, a, w, -kPi / 2, W,
                                        LineTypes{c, c});
    };
    double d, a, w;

    // South Entry (ses -> se)
    d = dev / 2 - p_se[1];
    a = (p_se[0] - 2) / 2;
    w = kPi / d;
    net->AddLane("ser", "ses", straight({2, access}, {2, dev / 2}, s, c));
    net->AddLane("ses", "se", sine({2 + a, dev / 2}, {2 + a, p_se[1]}, a, w));

    // South Exit (sx -> sxs)
    d = dev / 2 - p_sx[1];
    a = (p_sx[0] + 2) / 2;
    w = kPi / d;
    net->AddLane("sx", "sxs",
                 sine({p_sx[0] - a, p_sx[1]}, {p_sx[0] - a, dev / 2}, a, w));
    net->AddLane("sxs", "sxr", straight({-2, dev / 2}, {-2, access}, n, c));

    // East Entry (ees -> ee)
    d = dev / 2 - p_ee[0];
    a = (-2 - p_ee[1]) / 2;
    w = kPi / d;
    net->AddLane("eer", "ees", straight({access, -2}, {dev / 2, -2}, s, c));
    net->AddLane("ees", "ee", sine({dev / 2, -2 - a}, {p_ee[0], -2 - a}, a, w));

    // East Exit (ex -> exs)
    d = dev / 2 - p_ex[0];
    a = (2 - p_ex[1]) / 2;
    w = kPi / d;
    net->AddLane("ex", "exs",
                 sine({p_ex[0], p_ex[1] + a}, {dev / 2, p_ex[1] + a}, a, w));
    net->AddLane("exs", "exr", straight({dev / 2, 2}, {access, 2}, n, c));

    // North Entry (nes -> ne)
    d = p_ne[1] - (-dev / 2);
    a = (-2 - p_ne[0]) / 2;
    w = kPi / d;
    net->AddLane("ner", "nes", straight({-2, -access}, {-2, -dev / 2}, s, c));
    net->AddLane("nes", "ne",
                 sine({-2 - a, -dev / 2}, {-2 - a, p_ne[1]}, a, w));

    // North Exit (nx -> nxs)
    d = p_nx[1] - (-dev / 2);
    a = (2 - p_nx[0]) / 2;
    w = kPi / d;
    net->AddLane("nx", "nxs",
                 sine({p_nx[0] + a, p_nx[1]}, {p_nx[0] + a, -dev / 2}, a, w));
    net->AddLane("nxs", "nxr", straight({2, -dev / 2}, {2, -access}, n, c));

    // West Entry (wes -> we)
    d = p_we[0] - (-dev / 2);
    a = (p_we[1] - 2) / 2;
    w = kPi / d;
    net->AddLane("wer", "wes", straight({-access, 2}, {-dev / 2, 2}, s, c));
    net->AddLane("wes", "we", sine({-dev / 2, 2 + a}, {p_we[0], 2 + a}, a, w));

    // West Exit (wx -> wxs)
    d = p_wx[0] - (-dev / 2);
    a = (p_wx[1] + 2) / 2;
    w = kPi / d;
    net->AddLane("wx", "wxs",
                 sine({p_wx[0], p_wx[1] - a}, {-dev / 2, p_wx[1] - a}, a, w));
    net->AddLane("wxs", "wxr", straight({-dev / 2, -2}, {-access, -2}, n, c));

    road = roads_detail::MakeRoad(net, *this);
  }

  void MakeVehicles() override {
    const double speed_deviation = 2.0;
    Road& r = *road;
    const std::vector<std::string> destinations = {"exr", "sxr", "nxr", "wxr"};

    const LaneIndex ego_lane_id{"ser", "ses", 0};
    const auto ego_lane = r.network->GetLane(ego_lane_id);
    const double ego_longitudinal = ego_lane->length - 2.5;
    std::shared_ptr<Vehicle> ego =
        action_type->Make(r, ego_lane->Position(ego_longitudinal, 0.0),
                          ego_lane->HeadingAt(ego_longitudinal), 8.0);
    roads_detail::TryPlanRouteTo(ego.get(), "nxs");
    r.vehicles.push_back(ego);
    controlled_vehicles = {ego};

    const std::pair<std::string, std::string> spawn_lanes[7] = {
        {"we", "sx"},   {"sx", "se"},   {"ee", "nx"},   {"nx", "ne"},
        {"eer", "ees"}, {"ner", "nes"}, {"wer", "wes"},
    };
    std::vector<Vec2> spawned_points;
    spawned_points.push_back(ego_lane->Position(ego_longitudinal, 0.0));
    const double safe_distance = 7.0;
    const int tries = 10;
    for (int64_t k = 0; k < vehicles_count_; ++k) {
      for (int t = 0; t < tries; ++t) {
        const auto& lane_tuple = spawn_lanes[np_random.Integers(0, 7)];
        const int64_t available_lanes = static_cast<int64_t>(
            r.network->graph.at(lane_tuple.first).at(lane_tuple.second).size());
        const int64_t lane_index = np_random.Integers(0, available_lanes);
        const LaneIndex lane_id{lane_tuple.first, lane_tuple.second,
                                lane_index};
        const auto lane = r.network->GetLane(lane_id);
        const double longitudinal =
            np_random.Uniform(5.0, PyMax(5.0, lane->length - 5.0));
        const Vec2 candidate_position = lane->Position(longitudinal, 0.0);
        bool is_safe = true;
        for (const Vec2& point : spawned_points) {
          if (Norm(candidate_position - point) < safe_distance) {
            is_safe = false;
            break;
          }
        }
        if (is_safe) {
          auto vehicle = MakeOtherVehicleOnLane(
              other_vehicles_type, r, lane_id, longitudinal,
              14.0 + StandardNormal(np_random) * speed_deviation);
          std::string destination;
          if (incoming_vehicle_destination_ >= 0) {
            const int64_t dest_idx = std::min<int64_t>(
                incoming_vehicle_destination_,
                static_cast<int64_t>(destinations.size()) - 1);
            destination = destinations[static_cast<size_t>(dest_idx)];
          } else {
            destination = destinations[static_cast<size_t>(np_random.Integers(
                0, static_cast<int64_t>(destinations.size())))];
          }
          vehicle->PlanRouteTo(destination);
          vehicle->RandomizeBehavior();
          r.vehicles.push_back(vehicle);
          spawned_points.push_back(candidate_position);
          break;
        }
      }
    }
  }

 private:
  double radius_;
  int64_t num_lanes_, vehicles_count_;
};

}  // namespace envpool_lite::highway
