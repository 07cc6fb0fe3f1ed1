// Shadow Dexterous Hand: gymnasium-robotics 1.4.2's
// envs/shadow_dexterous_hand/ on the mujoco bindings: hand_env.py
// (MujocoHandEnv: 20 position actuators, action scaled onto their
// ctrlrange), reach.py (MujocoHandReachEnv: the fingertips to goal
// positions), manipulate.py (MujocoManipulateEnv: a block, egg or pen to a
// goal position and rotation), manipulate_touch_sensors.py (the same with
// the 92 touch sensors of the palm and fingers in the observation), and
// utils/rotations.py for the quaternion math.
//
// What the reference cannot run is refused at make(): relative_control=True
// (MujocoHandEnv._set_action calls MjData.get_joint_qpos, which the mujoco
// bindings do not have) and target_rotation 'ignore' / 'fixed' (_sample_goal
// calls the same missing method).
#pragma once

#include <numpy/random/bitgen.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "envs/gymnasium_robotics/robot_env.h"
#include "refkit/numpy/rotations.h"

// numpy's Generator.standard_normal (its ziggurat), from numpy's own random C
// library, as refkit/gymnasium/mujoco_env.h declares it.
extern "C" double random_standard_normal(bitgen_t* bitgen_state);

namespace envpool_lite {
namespace gymnasium_robotics {

// --- utils/rotations.py -----------------------------------------------------
// Each function computes what the reference's numpy expression computes on
// one quaternion / Euler triple, in its order, with numpy's sin, cos,
// arccos (NumpyMath) and its BLAS's norm (MujocoSim::Norm).

// quat_mul(q0, q1)
inline void QuatMul(const double* q0, const double* q1, double* out) {
  const double w0 = q0[0], x0 = q0[1], y0 = q0[2], z0 = q0[3];
  const double w1 = q1[0], x1 = q1[1], y1 = q1[2], z1 = q1[3];
  out[0] = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1;
  out[1] = w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1;
  out[2] = w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1;
  out[3] = w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1;
}

// quat_conjugate(q): -q with the first value negated back.
inline void QuatConjugate(const double* q, double* out) {
  out[0] = -(-q[0]);
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = -q[3];
}

// euler2quat and euler2mat: refkit/numpy/rotations.h.

// manipulate.py's quat_from_angle_and_axis(angle, axis): axis normalised,
// [cos(angle / 2), sin(angle / 2) * axis], normalised.
inline void QuatFromAngleAndAxis(const MujocoSim& sim, double angle,
                                 double* axis, double* q) {
  const double n = sim.Norm(axis, 3);
  for (int i = 0; i < 3; ++i) axis[i] /= n;
  q[0] = sim.np().Cos(angle / 2.0);
  const double s = sim.np().Sin(angle / 2.0);
  for (int i = 0; i < 3; ++i) q[1 + i] = s * axis[i];
  const double qn = sim.Norm(q, 4);
  for (int i = 0; i < 4; ++i) q[i] /= qn;
}

// [euler2quat(r) for r in get_parallel_rotations()]: the 24 axis-aligned
// rotations, each the canonical Euler angles of a product of multiples of
// 90 degrees, in the reference's order of first appearance.
inline std::vector<std::array<double, 4>> ParallelQuats(const MujocoSim& sim) {
  const double kPi = 3.141592653589793;
  const double mult90[4] = {0, kPi / 2, -kPi / 2, kPi};
  std::vector<std::array<double, 3>> rotations;
  for (double a : mult90) {
    for (double b : mult90) {
      for (double c : mult90) {
        const double euler[3] = {a, b, c};
        double mat[9];
        std::array<double, 3> canonical;
        Euler2Mat(sim.np(), euler, mat);
        sim.Mat2Euler(mat, canonical.data());
        for (double& v : canonical) v = std::nearbyint(v / (kPi / 2));
        if (canonical[0] == -2) canonical[0] = 2;
        if (canonical[2] == -2) canonical[2] = 2;
        for (double& v : canonical) v *= kPi / 2;
        bool is_new = true;
        for (const auto& r : rotations) {
          if (r == canonical) is_new = false;
        }
        if (is_new) rotations.push_back(canonical);
      }
    }
  }
  if (rotations.size() != 24) {
    throw std::runtime_error("Shadow Hand: expected 24 parallel rotations");
  }
  std::vector<std::array<double, 4>> quats(rotations.size());
  for (std::size_t i = 0; i < rotations.size(); ++i) {
    Euler2Quat(sim.np(), rotations[i].data(), quats[i].data());
  }
  return quats;
}

// --- hand_env.py: MujocoHandEnv ---------------------------------------------

// The options every Hand task has, beyond the family's internal ones.
inline void CheckRelativeControl(const Config& config) {
  if (config.GetBool("relative_control")) {
    throw std::invalid_argument(
        "option 'relative_control' must be False: gymnasium-robotics 1.4.2's "
        "MujocoHandEnv cannot run relative control (its _set_action calls "
        "MjData.get_joint_qpos, which the mujoco bindings do not have)");
  }
}

class HandEnv : public RobotEnv {
 public:
  static constexpr int kNSubsteps = 20;
  static constexpr int kNActions = 20;

 protected:
  HandEnv(const Config& config, uint64_t seed)
      : RobotEnv(config, seed, kNSubsteps) {
    CheckRelativeControl(config);
    // robot_get_obs reads the joints whose names start with "robot", in id
    // order.
    std::vector<std::string> names = sim_.JointNames();
    for (int j = 0; j < static_cast<int>(names.size()); ++j) {
      if (names[j].rfind("robot", 0) == 0) robot_joints_.push_back(j);
    }
    const mjModel* m = sim_.m();
    if (m->nu != kNActions) {
      throw std::runtime_error("Shadow Hand: the model has no 20 actuators");
    }
    for (int i = 0; i < m->nu; ++i) {
      const double lo = m->actuator_ctrlrange[2 * i];
      const double hi = m->actuator_ctrlrange[2 * i + 1];
      ctrl_low_[i] = lo;
      ctrl_high_[i] = hi;
      actuation_range_[i] = (hi - lo) / 2.0;
      actuation_center_[i] = (hi + lo) / 2.0;
    }
  }

  // MujocoHandEnv._set_action (absolute control): ctrl = center + action *
  // range, clipped to ctrlrange.
  void SetAction(const double* action) {
    double* ctrl = sim_.d()->ctrl;
    for (int i = 0; i < kNActions; ++i) {
      const double c = actuation_center_[i] + action[i] * actuation_range_[i];
      ctrl[i] = std::min(std::max(c, ctrl_low_[i]), ctrl_high_[i]);
    }
  }

  // BaseRobotEnv.step's action: np.clip to the action space (float32), then
  // _set_action (float32 values promoted to float64).
  void SetStepAction(const void* action) {
    const float* a = static_cast<const float*>(action);
    double full[kNActions];
    for (int i = 0; i < kNActions; ++i) {
      full[i] = static_cast<double>(std::min(std::max(a[i], -1.0f), 1.0f));
    }
    SetAction(full);
  }

  // robot_get_obs: the robot joints' qpos, then their qvel.
  void AddRobotObs(std::vector<double>* out) const {
    for (int j : robot_joints_) out->push_back(*sim_.JointQpos(j));
    for (int j : robot_joints_) out->push_back(*sim_.JointQvel(j));
  }

  // np_random.normal(scale=s): 0.0 + s * standard_normal, numpy's own code
  // on our PCG64 stream (as refkit/gymnasium/mujoco_env.h draws it).
  double Normal(double scale) {
    bitgen_t bitgen;
    bitgen.state = &rng_;
    bitgen.next_uint64 = [](void* st) {
      return static_cast<NumpyRandom*>(st)->NextUint64();
    };
    bitgen.next_uint32 = [](void* st) {
      return static_cast<uint32_t>(static_cast<NumpyRandom*>(st)->NextUint64());
    };
    bitgen.next_double = [](void* st) {
      return static_cast<NumpyRandom*>(st)->NextDouble();
    };
    bitgen.next_raw = bitgen.next_uint64;
    return 0.0 + scale * random_standard_normal(&bitgen);
  }

  std::vector<int> robot_joints_;
  double ctrl_low_[kNActions], ctrl_high_[kNActions];
  double actuation_range_[kNActions], actuation_center_[kNActions];
};

// --- reach.py: MujocoHandReachEnv -------------------------------------------

class HandReachEnv : public HandEnv {
 public:
  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{50}},
             {"reward_type", std::string("sparse")},
             {"distance_threshold", 0.01},
             {"relative_control", false}};
    AddInternalOptions(&c);
    c.Set("mujoco_model", std::string("hand/reach.xml"));
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    IsDense(config);
    config.GetFloat("distance_threshold");
    CheckRelativeControl(config);
    EnvSpec spec;
    spec.obs_dict = GoalObsSpecs(15, 63);
    spec.action = MakeBox<float>("action", {kNActions}, {-1.0}, {1.0});
    // info["is_success"]: (d < threshold).astype(np.float32)
    spec.info = {MakeScalar<float>("is_success")};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  HandReachEnv(const Config& config, uint64_t seed)
      : HandEnv(config, seed),
        dense_(IsDense(config)),
        distance_threshold_(config.GetFloat("distance_threshold")) {
    static const char* const kFingertips[5] = {
        "robot0:S_fftip", "robot0:S_mftip", "robot0:S_rftip", "robot0:S_lftip",
        "robot0:S_thtip"};
    for (int i = 0; i < 5; ++i) fingertips_[i] = sim_.SiteId(kFingertips[i]);
    EnvSetup();
    RecordInitialState();
    goal_.assign(15, 0.0);
  }

  void Reset() override {
    // MujocoRobotEnv._reset_sim, then _sample_goal.
    ResetSimState();
    sim_.Forward();
    SampleGoal();
    UpdateObs();
    is_success_ = 0.0f;  // reset's info is {}: the field reads 0
  }

  StepResult Step(const void* action) override {
    SetStepAction(action);
    MujocoStep();
    UpdateObs();
    const double d = GoalDistance(obs_.data(), goal_.data(), 15);
    is_success_ = d < distance_threshold_ ? 1.0f : 0.0f;
    StepResult r;
    // compute_reward: -(d > threshold).astype(np.float32), or -d.
    r.reward = dense_ ? -d : -(d > distance_threshold_ ? 1.0 : 0.0);
    return r;
  }

  void WriteObs(const Row& row) override {
    std::copy(obs_.begin(), obs_.begin() + 15, row.Obs<double>(0));
    std::copy(goal_.begin(), goal_.end(), row.Obs<double>(1));
    std::copy(obs_.begin() + 15, obs_.end(), row.Obs<double>(2));
    *row.Info<float>(0) = is_success_;
  }

  // The last observation and success (the base saves the goal).
  ENVPOOL_LITE_STATE_AFTER(HandEnv, obs_, is_success_)

 private:
  // _env_setup: DEFAULT_INITIAL_QPOS, mj_forward, then initial_goal (the
  // fingertips) and palm_xpos.
  void EnvSetup() {
    static const std::pair<const char*, double> kInitialQpos[] = {
        {"robot0:WRJ1", -0.16514339750464327},
        {"robot0:WRJ0", -0.31973286565062153},
        {"robot0:FFJ3", 0.14340512546557435},
        {"robot0:FFJ2", 0.32028208333591573},
        {"robot0:FFJ1", 0.7126053607727917},
        {"robot0:FFJ0", 0.6705281001412586},
        {"robot0:MFJ3", 0.000246444303701037},
        {"robot0:MFJ2", 0.3152655251085491},
        {"robot0:MFJ1", 0.7659800313729842},
        {"robot0:MFJ0", 0.7323156897425923},
        {"robot0:RFJ3", 0.00038520700007378114},
        {"robot0:RFJ2", 0.36743546201985233},
        {"robot0:RFJ1", 0.7119514095008576},
        {"robot0:RFJ0", 0.6699446327514138},
        {"robot0:LFJ4", 0.0525442258033891},
        {"robot0:LFJ3", -0.13615534724474673},
        {"robot0:LFJ2", 0.39872030433433003},
        {"robot0:LFJ1", 0.7415570009679252},
        {"robot0:LFJ0", 0.704096378652974},
        {"robot0:THJ4", 0.003673823825070126},
        {"robot0:THJ3", 0.5506291436028695},
        {"robot0:THJ2", -0.014515151997119306},
        {"robot0:THJ1", -0.0015229223564485414},
        {"robot0:THJ0", -0.7894883021600622}};
    for (const auto& [name, value] : kInitialQpos) {
      sim_.SetJointQpos(name, {value});
    }
    sim_.Forward();
    AchievedGoal(initial_goal_.data());
    const double* palm = sim_.d()->xpos + 3 * sim_.BodyId("robot0:palm");
    palm_xpos_ = {palm[0], palm[1], palm[2]};
  }

  // _get_achieved_goal: the five fingertip sites' positions.
  void AchievedGoal(double* out) const {
    for (int f = 0; f < 5; ++f) {
      const double* p = sim_.SiteXpos(fingertips_[f]);
      std::copy(p, p + 3, out + 3 * f);
    }
  }

  // _sample_goal: a finger (not the thumb) chosen to meet the thumb at a
  // point above the palm; with probability 0.1 the initial fingertips.
  void SampleGoal() {
    const int thumb = 4;
    const int finger = static_cast<int>(rng_.Choice(4));
    const double offset[3] = {0.0, -0.09, 0.05};
    double meeting[3];
    for (int i = 0; i < 3; ++i) meeting[i] = palm_xpos_[i] + offset[i];
    double noise[3];
    for (double& n : noise) n = Normal(0.005);
    for (int i = 0; i < 3; ++i) meeting[i] += noise[i];
    goal_.assign(initial_goal_.begin(), initial_goal_.end());
    for (int idx : {thumb, finger}) {
      double dir[3];
      for (int i = 0; i < 3; ++i) dir[i] = meeting[i] - goal_[3 * idx + i];
      const double n = sim_.Norm(dir, 3);
      for (double& v : dir) v /= n;
      for (int i = 0; i < 3; ++i)
        goal_[3 * idx + i] = meeting[i] - 0.005 * dir[i];
    }
    if (rng_.NextDouble() < 0.1) {
      goal_.assign(initial_goal_.begin(), initial_goal_.end());
    }
  }

  // _get_obs into obs_: achieved_goal (15), then the observation: robot
  // qpos, robot qvel, achieved_goal.
  void UpdateObs() {
    double achieved[15];
    AchievedGoal(achieved);
    obs_.clear();
    obs_.insert(obs_.end(), achieved, achieved + 15);
    AddRobotObs(&obs_);
    obs_.insert(obs_.end(), achieved, achieved + 15);
  }

  bool dense_;
  double distance_threshold_;
  int fingertips_[5];
  std::array<double, 15> initial_goal_{};
  std::array<double, 3> palm_xpos_{};
  std::vector<double> obs_;
  float is_success_ = 0.0f;
};

// --- manipulate.py: MujocoManipulateEnv -------------------------------------

enum class HandObject { kBlock, kEgg, kPen };

enum class TargetPosition { kIgnore, kFixed, kRandom };
enum class TargetRotation { kXyz, kZ, kParallel };

// touch_get_obs of manipulate_touch_sensors.py.
enum class TouchObs { kSensordata, kBoolean, kLog };

inline TargetPosition ParseTargetPosition(const Config& config) {
  const std::string& v = config.GetString("target_position");
  if (v == "ignore") return TargetPosition::kIgnore;
  if (v == "fixed") return TargetPosition::kFixed;
  if (v == "random") return TargetPosition::kRandom;
  throw std::invalid_argument(
      "option 'target_position' must be 'ignore', 'fixed' or 'random', got '" +
      v + "'");
}

inline TargetRotation ParseTargetRotation(const Config& config) {
  const std::string& v = config.GetString("target_rotation");
  if (v == "xyz") return TargetRotation::kXyz;
  if (v == "z") return TargetRotation::kZ;
  if (v == "parallel") return TargetRotation::kParallel;
  if (v == "ignore" || v == "fixed") {
    throw std::invalid_argument(
        "option 'target_rotation' '" + v +
        "' cannot be run by gymnasium-robotics 1.4.2 (its _sample_goal calls "
        "MjData.get_joint_qpos, which the mujoco bindings do not have): use "
        "'xyz', 'z' or 'parallel'");
  }
  throw std::invalid_argument(
      "option 'target_rotation' must be 'xyz', 'z' or 'parallel', got '" + v +
      "'");
}

inline TouchObs ParseTouchObs(const Config& config) {
  const std::string& v = config.GetString("touch_get_obs");
  if (v == "sensordata") return TouchObs::kSensordata;
  if (v == "boolean") return TouchObs::kBoolean;
  if (v == "log") return TouchObs::kLog;
  throw std::invalid_argument(
      "option 'touch_get_obs' must be 'sensordata', 'boolean' or 'log', got "
      "'" +
      v + "'");
}

inline void CheckTouchVisualisation(const Config& config) {
  const std::string& v = config.GetString("touch_visualisation");
  if (v != "on_touch" && v != "always" && v != "off") {
    throw std::invalid_argument(
        "option 'touch_visualisation' must be 'on_touch', 'always' or 'off', "
        "got '" +
        v + "'");
  }
}

inline const char* HandModel(HandObject object, bool touch) {
  switch (object) {
    case HandObject::kBlock:
      return touch ? "hand/manipulate_block_touch_sensors.xml"
                   : "hand/manipulate_block.xml";
    case HandObject::kEgg:
      return touch ? "hand/manipulate_egg_touch_sensors.xml"
                   : "hand/manipulate_egg.xml";
    case HandObject::kPen:
    default:
      return touch ? "hand/manipulate_pen_touch_sensors.xml"
                   : "hand/manipulate_pen.xml";
  }
}

// The number of touch sensors of the *_touch_sensors.xml models.
constexpr int kHandTouchSensors = 92;

template <HandObject O, bool Touch>
class HandManipulateEnv : public HandEnv {
  static constexpr bool kPen = O == HandObject::kPen;

  // The three values the pen's constructor fixes.
  static bool RandomizeInitialRotation(const Config& config) {
    return kPen ? false : config.GetBool("randomize_initial_rotation");
  }
  static bool IgnoreZTargetRotation(const Config& config) {
    return kPen ? true : config.GetBool("ignore_z_target_rotation");
  }
  static double DistanceThreshold(const Config& config) {
    return kPen ? 0.05 : config.GetFloat("distance_threshold");
  }

 public:
  static Config DefaultConfig() {
    // The defaults of MujocoHand{Block,Egg,Pen}[TouchSensors]Env. The pen's
    // constructor passes randomize_initial_rotation=False,
    // ignore_z_target_rotation=True and distance_threshold=0.05 itself, so
    // that they are no options of the pen tasks (the reference raises
    // TypeError, "multiple values", for them).
    Config c{{"max_episode_steps", int64_t{100}},
             {"reward_type", std::string("sparse")},
             {"target_position", std::string("random")},
             {"target_rotation", std::string("xyz")},
             {"randomize_initial_position", true},
             {"rotation_threshold", 0.1},
             {"relative_control", false}};
    if (!kPen) {
      c.Set("randomize_initial_rotation", true);
      c.Set("distance_threshold", 0.01);
      c.Set("ignore_z_target_rotation", false);
    }
    if (Touch) {
      c.Set("touch_get_obs", std::string("sensordata"));
      c.Set("touch_visualisation", std::string("on_touch"));
    }
    AddInternalOptions(&c);
    c.Set("mujoco_model", std::string(HandModel(O, Touch)));
    return c;
  }

  // robot qpos (24), robot qvel (24), object qvel (6), achieved_goal (7),
  // then the touch sensors.
  static constexpr int64_t kObsSize = 61 + (Touch ? kHandTouchSensors : 0);

  static EnvSpec MakeSpec(const Config& config) {
    IsDense(config);
    ParseTargetPosition(config);
    ParseTargetRotation(config);
    config.GetBool("randomize_initial_position");
    RandomizeInitialRotation(config);
    IgnoreZTargetRotation(config);
    DistanceThreshold(config);
    config.GetFloat("rotation_threshold");
    CheckRelativeControl(config);
    if (Touch) {
      ParseTouchObs(config);
      CheckTouchVisualisation(config);
    }
    EnvSpec spec;
    spec.obs_dict = GoalObsSpecs(7, kObsSize);
    spec.action = MakeBox<float>("action", {kNActions}, {-1.0}, {1.0});
    // info["is_success"]: achieved_pos * achieved_rot, np.float32
    spec.info = {MakeScalar<float>("is_success")};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  HandManipulateEnv(const Config& config, uint64_t seed)
      : HandEnv(config, seed),
        dense_(IsDense(config)),
        target_position_(ParseTargetPosition(config)),
        target_rotation_(ParseTargetRotation(config)),
        randomize_initial_position_(
            config.GetBool("randomize_initial_position")),
        randomize_initial_rotation_(RandomizeInitialRotation(config)),
        ignore_z_target_rotation_(IgnoreZTargetRotation(config)),
        distance_threshold_(DistanceThreshold(config)),
        rotation_threshold_(config.GetFloat("rotation_threshold")),
        touch_obs_(Touch ? ParseTouchObs(config) : TouchObs::kSensordata),
        object_joint_(sim_.JointId("object:joint")),
        object_center_(sim_.SiteId("object:center")),
        parallel_quats_(ParallelQuats(sim_)) {
    if (Touch) {
      // The sensors named robot0:TS_*, in id order (sensor_name2id's).
      const mjModel* m = sim_.m();
      for (int s = 0; s < m->nsensor; ++s) {
        const char* n = sim_.api().id2name(m, mjOBJ_SENSOR, s);
        if (n != nullptr &&
            std::string(n).find("robot0:TS_") != std::string::npos) {
          touch_sensors_.push_back(s);
        }
      }
      if (static_cast<int>(touch_sensors_.size()) != kHandTouchSensors) {
        throw std::runtime_error("Shadow Hand: expected 92 touch sensors");
      }
    }
    // _env_setup: initial_qpos is {}, so only mj_forward.
    sim_.Forward();
    RecordInitialState();
    goal_.assign(7, 0.0);
  }

  void Reset() override {
    // BaseRobotEnv.reset: _reset_sim until it succeeds, then _sample_goal.
    while (!ResetSim()) {
    }
    SampleGoal();
    UpdateObs();
    is_success_ = 0.0f;  // reset's info is {}: the field reads 0
  }

  StepResult Step(const void* action) override {
    SetStepAction(action);
    MujocoStep();
    UpdateObs();
    double d_pos, d_rot;
    GoalDistanceOf(obs_.data(), goal_.data(), &d_pos, &d_rot);
    // _is_success: (d_pos < thr) * (d_rot < thr), float32.
    const float achieved_pos = d_pos < distance_threshold_ ? 1.0f : 0.0f;
    const float achieved_rot = d_rot < rotation_threshold_ ? 1.0f : 0.0f;
    is_success_ = achieved_pos * achieved_rot;
    StepResult r;
    // compute_reward: success - 1.0 (float32), or -(10 * d_pos + d_rot).
    r.reward = dense_ ? -(10.0 * d_pos + d_rot)
                      : static_cast<double>(is_success_ - 1.0f);
    return r;
  }

  void WriteObs(const Row& row) override {
    std::copy(obs_.begin(), obs_.begin() + 7, row.Obs<double>(0));
    std::copy(goal_.begin(), goal_.end(), row.Obs<double>(1));
    std::copy(obs_.begin() + 7, obs_.end(), row.Obs<double>(2));
    *row.Info<float>(0) = is_success_;
  }

  // The last observation and success (the base saves the goal).
  ENVPOOL_LITE_STATE_AFTER(HandEnv, obs_, is_success_)

 private:
  static constexpr double kPi = 3.141592653589793;

  // MujocoManipulateEnv._reset_sim: the recorded state (no mj_resetData:
  // the solver's warm start and the rest of mjData carry over), the
  // object's pose randomised, 10 settling steps with a zero action, and
  // success when the object's centre stays above the palm.
  bool ResetSim() {
    mjData* d = sim_.d();
    d->time = initial_time_;
    std::copy(initial_qpos_.begin(), initial_qpos_.end(), d->qpos);
    std::copy(initial_qvel_.begin(), initial_qvel_.end(), d->qvel);
    for (int i = 0; i < sim_.m()->na; ++i) {
      d->act[i] = std::numeric_limits<double>::quiet_NaN();
    }
    sim_.Forward();
    double* object = sim_.JointQpos(object_joint_);
    double pos[3] = {object[0], object[1], object[2]};
    double quat[4] = {object[3], object[4], object[5], object[6]};
    if (randomize_initial_rotation_) {
      double offset[4], rotated[4];
      RandomRotation(offset);
      QuatMul(quat, offset, rotated);
      std::copy(rotated, rotated + 4, quat);
    }
    if (randomize_initial_position_ &&
        target_position_ != TargetPosition::kFixed) {
      double noise[3];
      for (double& n : noise) n = Normal(0.005);
      for (int i = 0; i < 3; ++i) pos[i] += noise[i];
    }
    const double n = sim_.Norm(quat, 4);
    for (double& q : quat) q /= n;
    std::copy(pos, pos + 3, object);
    std::copy(quat, quat + 4, object + 3);
    const double zeros[kNActions] = {};
    for (int i = 0; i < 10; ++i) {
      SetAction(zeros);
      sim_.Step(n_substeps_);
    }
    // is_on_palm
    sim_.Forward();
    return sim_.SiteXpos(object_center_)[2] > 0.04;
  }

  // The rotation _reset_sim and _sample_goal draw for target_rotation:
  // about z (z), about z then a parallel rotation (parallel), about a
  // random axis (xyz).
  void RandomRotation(double* q) {
    const double angle = rng_.Uniform(-kPi, kPi);
    if (target_rotation_ == TargetRotation::kXyz) {
      double axis[3];
      for (double& a : axis) a = rng_.Uniform(-1.0, 1.0);
      QuatFromAngleAndAxis(sim_, angle, axis, q);
      return;
    }
    double axis[3] = {0.0, 0.0, 1.0};
    QuatFromAngleAndAxis(sim_, angle, axis, q);
    if (target_rotation_ == TargetRotation::kParallel) {
      const auto& parallel = parallel_quats_[static_cast<std::size_t>(
          rng_.Integers(0, static_cast<int64_t>(parallel_quats_.size())))];
      double z_quat[4];
      std::copy(q, q + 4, z_quat);
      QuatMul(z_quat, parallel.data(), q);
    }
  }

  // _sample_goal
  void SampleGoal() {
    const double* object = sim_.JointQpos(object_joint_);
    if (target_position_ == TargetPosition::kRandom) {
      // target_position_range of the block, egg and pen.
      const double low[3] = {-0.04, -0.06, 0.0};
      const double high[3] = {0.04, 0.02, 0.06};
      double offset[3];
      for (int i = 0; i < 3; ++i) offset[i] = rng_.Uniform(low[i], high[i]);
      for (int i = 0; i < 3; ++i) goal_[i] = object[i] + offset[i];
    } else {
      for (int i = 0; i < 3; ++i) goal_[i] = object[i];
    }
    double q[4];
    RandomRotation(q);
    const double n = sim_.Norm(q, 4);
    for (int i = 0; i < 4; ++i) goal_[3 + i] = q[i] / n;
  }

  // _goal_distance(goal_a, goal_b): the position distance (0 when the
  // position is ignored) and the rotation angle between the quaternions
  // (with the pen's Z rotation ignored).
  void GoalDistanceOf(const double* a, const double* b, double* d_pos,
                      double* d_rot) const {
    *d_pos = 0.0;
    if (target_position_ != TargetPosition::kIgnore) {
      *d_pos = GoalDistance(a, b, 3);
    }
    double quat_a[4] = {a[3], a[4], a[5], a[6]};
    const double* quat_b = b + 3;
    if (ignore_z_target_rotation_) {
      double mat[9], euler_a[3], euler_b[3];
      Quat2Mat(quat_a, mat);
      sim_.Mat2Euler(mat, euler_a);
      Quat2Mat(quat_b, mat);
      sim_.Mat2Euler(mat, euler_b);
      euler_a[2] = euler_b[2];
      Euler2Quat(sim_.np(), euler_a, quat_a);
    }
    double conj_b[4], diff[4];
    QuatConjugate(quat_b, conj_b);
    QuatMul(quat_a, conj_b, diff);
    *d_rot = 2 * sim_.np().Arccos(std::min(std::max(diff[0], -1.0), 1.0));
  }

  // _get_obs into obs_: achieved_goal (the object's qpos), then the
  // observation: robot qpos, robot qvel, object qvel, achieved_goal, touch.
  void UpdateObs() {
    const double* object = sim_.JointQpos(object_joint_);
    const double* object_qvel = sim_.JointQvel(object_joint_);
    obs_.clear();
    obs_.insert(obs_.end(), object, object + 7);
    AddRobotObs(&obs_);
    obs_.insert(obs_.end(), object_qvel, object_qvel + 6);
    obs_.insert(obs_.end(), object, object + 7);
    if (Touch) {
      // sensordata indexed by the sensors' ids, as the reference does.
      const double* sensordata = sim_.d()->sensordata;
      for (int s : touch_sensors_) {
        const double v = sensordata[s];
        switch (touch_obs_) {
          case TouchObs::kSensordata:
            obs_.push_back(v);
            break;
          case TouchObs::kBoolean:
            obs_.push_back(v > 0.0 ? 1.0 : 0.0);
            break;
          case TouchObs::kLog:
            obs_.push_back(sim_.np().Log(v + 1.0));
            break;
        }
      }
    }
  }

  bool dense_;
  TargetPosition target_position_;
  TargetRotation target_rotation_;
  bool randomize_initial_position_, randomize_initial_rotation_;
  bool ignore_z_target_rotation_;
  double distance_threshold_, rotation_threshold_;
  TouchObs touch_obs_;
  int object_joint_, object_center_;
  std::vector<std::array<double, 4>> parallel_quats_;
  std::vector<int> touch_sensors_;
  std::vector<double> obs_;
  float is_success_ = 0.0f;
};

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
