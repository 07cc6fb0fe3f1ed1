// Meta-World: metaworld 3.1.1's sawyer_xyz_env.py (SawyerXYZEnv on
// gymnasium's MujocoEnv) and utils/reward_utils.py, on the MuJoCo metaworld
// pins (3.3.0: this family is compiled against that version's headers, in a
// library of its own; CMakeLists.txt).
//
// A task id is one of metaworld's 50 v3 envs as MT1 makes it
// (metaworld.make_mt_envs(name, seed=s)): at construction, the 50 goals
// ("tasks", each a rand_vec) that _make_tasks draws from np.random seeded
// with s (a legacy RandomState, two reset_model calls per goal, as its
// env.reset() makes them); at each reset a task picked by the env's
// np_random (Generator(PCG64(s)), seeded by env.seed(s)), then reset() as
// SawyerXYZEnv does it: reset_model(), mj_resetData, reset_model() again,
// the previous-frame half of the observation set to the current one.
//
// Each task (one header each) derives from SawyerEnv and defines what its
// file defines: its model, hand_init_pos and spaces (Spec), the draws of
// its rand_vec (DrawRandVec), reset_model (ResetModel), the object
// positions and quaternions of the observation, and evaluate_state.
#pragma once

#include <mujoco/mujoco.h>
#include <numpy/random/bitgen.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "refkit/mujoco/api.h"
#include "refkit/mujoco/render.h"
#include "refkit/mujoco/state.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/random.h"
#include "refkit/numpy/random_state.h"

namespace envpool_lite {
namespace metaworld {

using mujoco::Api;
using mujoco::DataDeleter;
using mujoco::DataPtr;
using mujoco::LoadApi;
using mujoco::LoadModel;
using mujoco::ModelPtr;

using Vec3 = std::array<double, 3>;

// metaworld's _N_GOALS: the goals MT1 draws for a task.
constexpr int kNumGoals = 50;

// --- reward_utils.py --------------------------------------------------------

enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared
};

// `x ** 2` of an np.float64 scalar (or a Python float): libm's pow, not
// x * x (they differ in about 1 in 1000 values); the exponent is volatile so
// that the compiler does not turn pow(x, 2.0) into x * x.
inline double ScalarSquare(double x) {
  volatile double two = 2.0;
  return std::pow(x, two);
}

// _sigmoids(x, value_at_1, sigmoid) of one value, numpy's loops for the
// transcendental functions (the reference computes on 0-d arrays).
inline double Sigmoids(const NumpyMath& np, double x, double value_at_1,
                       Sigmoid sigmoid) {
  constexpr double kPi = 3.141592653589793;
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2 * np.Log(value_at_1));
      const double xs = x * scale;
      return np.Exp(-0.5 * ScalarSquare(xs));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = np.Arccosh(1 / value_at_1);
      return 1 / np.Cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1 / value_at_1 - 1);
      const double xs = x * scale;
      return 1 / (ScalarSquare(xs) + 1);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1 / value_at_1 - 1;
      return 1 / (std::abs(x) * scale + 1);
    }
    case Sigmoid::kCosine: {
      const double scale = np.Arccos(2 * value_at_1 - 1) / kPi;
      const double sx = x * scale;
      return std::abs(sx) < 1 ? (1 + np.Cos(kPi * sx)) / 2 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double scale = 1 - value_at_1;
      const double sx = x * scale;
      return std::abs(sx) < 1 ? 1 - sx : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double scale = std::sqrt(1 - value_at_1);
      const double sx = x * scale;
      return std::abs(sx) < 1 ? 1 - ScalarSquare(sx) : 0.0;
    }
    case Sigmoid::kTanhSquared:
    default: {
      const double scale = np.Arctanh(std::sqrt(1 - value_at_1));
      const double t = np.Tanh(x * scale);
      return 1 - ScalarSquare(t);
    }
  }
}

// tolerance(x, bounds=(lower, upper), margin, sigmoid, value_at_margin).
inline double Tolerance(const NumpyMath& np, double x, double lower,
                        double upper, double margin,
                        Sigmoid sigmoid = Sigmoid::kGaussian,
                        double value_at_margin = 0.1) {
  if (lower > upper) {
    throw std::runtime_error("Lower bound must be <= upper bound.");
  }
  if (margin < 0) {
    throw std::runtime_error("`margin` must be non-negative.");
  }
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return in_bounds ? 1.0 : Sigmoids(np, d, value_at_margin, sigmoid);
}

// hamacher_product(a, b).
inline double HamacherProduct(double a, double b) {
  if (!((0.0 <= a && a <= 1.0) && (0.0 <= b && b <= 1.0))) {
    throw std::runtime_error("hamacher_product: a and b must be in [0, 1]");
  }
  const double denominator = a + b - (a * b);
  return denominator > 0 ? (a * b) / denominator : 0;
}

// A float as Python computes with numpy 2's scalars (NEP 50): a Python
// float (or int), a numpy float32 or a numpy float64. A float32 with a Python
// float computes in float32 (the Python float rounded to float32 first, also
// when compared); with a float64, in float64. (The gripper's effort,
// action[-1], is a float32 and makes _gripper_caging_reward's result one.)
struct PyFloat {
  enum Kind { kPython, kF32, kF64 };
  double v = 0;
  Kind kind = kPython;
  PyFloat() = default;
  PyFloat(double value, Kind k = kPython)  // NOLINT: a Python float
      : v(k == kF32 ? static_cast<double>(static_cast<float>(value)) : value),
        kind(k) {}
  static PyFloat F32(float value) { return {static_cast<double>(value), kF32}; }
  static PyFloat F64(double value) { return {value, kF64}; }
};

inline PyFloat::Kind PyResultKind(const PyFloat& a, const PyFloat& b) {
  return std::max(a.kind, b.kind);
}

#define ENVPOOL_LITE_PYFLOAT_OP(OP)                                            \
  inline PyFloat operator OP(const PyFloat& a, const PyFloat& b) {             \
    const PyFloat::Kind k = PyResultKind(a, b);                                \
    if (k == PyFloat::kF32) {                                                  \
      return PyFloat::F32(static_cast<float>(a.v) OP static_cast<float>(b.v)); \
    }                                                                          \
    return {a.v OP b.v, k};                                                    \
  }
ENVPOOL_LITE_PYFLOAT_OP(+)
ENVPOOL_LITE_PYFLOAT_OP(-)
ENVPOOL_LITE_PYFLOAT_OP(*)
ENVPOOL_LITE_PYFLOAT_OP(/)
#undef ENVPOOL_LITE_PYFLOAT_OP

#define ENVPOOL_LITE_PYFLOAT_CMP(OP)                             \
  inline bool operator OP(const PyFloat& a, const PyFloat& b) {  \
    if (PyResultKind(a, b) == PyFloat::kF32) {                   \
      return static_cast<float>(a.v) OP static_cast<float>(b.v); \
    }                                                            \
    return a.v OP b.v;                                           \
  }
ENVPOOL_LITE_PYFLOAT_CMP(<)
ENVPOOL_LITE_PYFLOAT_CMP(<=)
ENVPOOL_LITE_PYFLOAT_CMP(>)
ENVPOOL_LITE_PYFLOAT_CMP(>=)
#undef ENVPOOL_LITE_PYFLOAT_CMP

// hamacher_product(a, b) of typed floats (a float32 operand makes it a
// float32 computation; 0, a Python int, when the denominator is not
// positive).
inline PyFloat HamacherProduct(const PyFloat& a, const PyFloat& b) {
  if (!((0.0 <= a.v && a.v <= 1.0) && (0.0 <= b.v && b.v <= 1.0))) {
    throw std::runtime_error("hamacher_product: a and b must be in [0, 1]");
  }
  const PyFloat denominator = a + b - (a * b);
  return denominator > PyFloat(0.0) ? (a * b) / denominator : PyFloat(0.0);
}

// scipy's Rotation.from_matrix(m).as_quat() (x, y, z, w) of an orthogonal
// matrix (MuJoCo's xmat: scipy's orthogonality check passes, no SVD): the
// largest of the diagonal and the trace picks the formula, then the
// quaternion is divided by its norm.
inline std::array<double, 4> MatrixToQuat(const double* m) {
  const double trace = m[0] + m[4] + m[8];
  const double decision[4] = {m[0], m[4], m[8], trace};
  int choice = 0;
  for (int k = 1; k < 4; ++k) {
    if (decision[k] > decision[choice]) choice = k;
  }
  std::array<double, 4> q{};
  if (choice == 0) {
    q = {1 - trace + 2 * m[0], m[3] + m[1], m[6] + m[2], m[7] - m[5]};
  } else if (choice == 1) {
    q = {m[3] + m[1], 1 - trace + 2 * m[4], m[7] + m[5], m[2] - m[6]};
  } else if (choice == 2) {
    q = {m[6] + m[2], m[7] + m[5], 1 - trace + 2 * m[8], m[3] - m[1]};
  } else {
    q = {m[7] - m[5], m[2] - m[6], m[3] - m[1], 1 + trace};
  }
  const double norm =
      std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& v : q) v /= norm;
  return q;
}

// The info fields every task reports (evaluate_state's dict), float64.
struct Info {
  double success = 0, near_object = 0, grasp_success = 0, grasp_reward = 0,
         in_place_reward = 0, obj_to_target = 0, unscaled_reward = 0;
};

inline const char* const kInfoNames[] = {
    "success",         "near_object",   "grasp_success",  "grasp_reward",
    "in_place_reward", "obj_to_target", "unscaled_reward"};

// What a task's constructor fixes (SawyerXYZEnv.__init__'s arguments and
// the spaces it sets).
struct TaskSpec {
  const char* model;  // under metaworld/assets
  Vec3 hand_low{-0.2, 0.55, 0.05}, hand_high{0.2, 0.75, 0.3};
  bool has_mocap_bounds = false;
  Vec3 mocap_low{}, mocap_high{};
  double action_scale = 1.0 / 100;
  std::vector<double> reset_low, reset_high;  // _random_reset_space
  Vec3 goal_low{}, goal_high{};               // goal_space
  // reset_model's draws while the rand_vec is not frozen (as _make_tasks
  // resets): a rand_vec redrawn while its x, y lie within `apart` (0: never)
  // of its values 3-4, or of `apart_from` where apart_from_point is set.
  double apart = 0;
  bool apart_from_point = false;
  std::array<double, 2> apart_from{};
};

// One env of a benchmark pool (benchmark.h): the goals the benchmark drew
// for its task, how a reset picks one, and whether the goal is observed.
struct TaskSet {
  std::vector<std::vector<double>> rand_vecs;
  // PseudoRandomTaskSelectWrapper (the ML benchmarks): the next goal of a
  // list shuffled at each pass, taken at the first reset and, with
  // sample_on_reset, at every reset; else RandomTaskSelectWrapper (MT): a
  // goal picked by np_random at every reset.
  bool pseudorandom = false;
  bool sample_on_reset = true;
  bool partially_observable = false;  // the goal zeroed in the observation
};

// SawyerXYZEnv: the arm moved by its mocap body, the gripper by two
// actuators; observation 39 numbers: hand (3), gripper opening (1), up to
// two objects' positions and quaternions (14, zero-padded), the same 18 of
// the previous step, the goal (3, or zeros when partially observable).
class SawyerEnv : public Env {
 public:
  static constexpr int kObsSize = 39;
  static constexpr int kFrameSkip = 5;

  static Config BaseConfig(const char* model) {
    Config c{{"max_episode_steps", int64_t{500}},
             {"reward_function_version", std::string("v2")},
             {"terminate_on_success", false},
             {"mujoco_lib", std::string()},
             {"mujoco_model", std::string(model)},
             {"numpy_blas", std::string()},
             {"numpy_loops", NamedNumbers{}}};
    AddRenderOptions(&c);
    return c;
  }

  // render(): metaworld's width and height (480), its camera_name, or a
  // camera id (-1: gymnasium's free camera).
  static void AddRenderOptions(Config* c) {
    c->Set("render_width", int64_t{480});
    c->Set("render_height", int64_t{480});
    c->Set("render_camera_id", int64_t{-1});
    c->Set("camera_name", std::string());
  }

  static bool IsV2(const Config& config) {
    const std::string& v = config.GetString("reward_function_version");
    if (v != "v1" && v != "v2") {
      throw std::invalid_argument(
          "option 'reward_function_version' must be 'v1' or 'v2', got '" + v +
          "'");
    }
    return v == "v2";
  }

  static EnvSpec BaseSpec(const Config& config, const TaskSpec& task) {
    IsV2(config);
    const int64_t limit = config.GetInt("max_episode_steps");
    if (limit < 1 || limit > 500) {
      throw std::invalid_argument(
          "option 'max_episode_steps' must be in [1, 500] (metaworld's "
          "max_path_length is 500), got " +
          std::to_string(limit));
    }
    EnvSpec spec;
    std::vector<double> low, high;
    ObsBounds(task, false, &low, &high);
    spec.obs = MakeBox<double>("obs", {kObsSize}, low, high);
    spec.action = MakeBox<float>("action", {4}, {-1.0}, {1.0});
    for (const char* name : kInfoNames)
      spec.info.push_back(MakeScalar<double>(name));
    spec.max_episode_steps = limit;
    spec.reward_float64 = true;
    for (const char* name : {"render_width", "render_height"}) {
      const int64_t v = config.GetInt(name);
      if (v < 1 || v > 8192) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "' must be in [1, 8192], got " +
                                    std::to_string(v));
      }
    }
    if (config.GetInt("render_camera_id") != -1 &&
        !config.GetString("camera_name").empty()) {
      throw std::invalid_argument(
          "options 'camera_name' and 'render_camera_id': give one (gymnasium's "
          "MujocoRenderer: 'Both `camera_id` and `camera_name` cannot be "
          "specified at the same time.')");
    }
    spec.render_width = config.GetInt("render_width");
    spec.render_height = config.GetInt("render_height");
    return spec;
  }

  void Seed(uint64_t seed) override {
    rng_.Seed(seed);
    GenerateTasks(seed);
  }

  // This env as one of a benchmark pool's: env.seed(seed), then its goals.
  void UseTaskSet(uint64_t seed, TaskSet set) {
    rng_.Seed(seed);
    tasks_ = std::move(set.rand_vecs);
    pseudorandom_ = set.pseudorandom;
    sample_on_reset_ = set.sample_on_reset;
    task_index_ = -1;
    partially_observable_ = set.partially_observable;
    ObsBounds(task_, partially_observable_, &obs_low_, &obs_high_);
  }

  void Reset() override {
    if (!pseudorandom_) {
      // RandomTaskSelectWrapper: a task by the env's np_random, set_task.
      rand_vec_ = tasks_[static_cast<std::size_t>(
          rng_.Choice(static_cast<int64_t>(tasks_.size())))];
    } else if (sample_on_reset_ || task_index_ < 0) {
      // PseudoRandomTaskSelectWrapper._set_pseudo_random_task.
      task_index_ = (task_index_ + 1) % static_cast<int>(tasks_.size());
      if (task_index_ == 0) rng_.Shuffle(&tasks_);
      rand_vec_ = tasks_[static_cast<std::size_t>(task_index_)];
    }
    curr_path_length_ = 0;
    ResetModel();
    api_.reset_data(m(), d());
    ResetModel();
    UpdateObservation();
    std::copy(obs_.begin(), obs_.begin() + 18, prev_obs_.begin());
    std::copy(obs_.begin(), obs_.begin() + 18, obs_.begin() + 18);
    info_ = Info{};
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    // set_xyz_action: clip to [-1, 1] (float32), times action_scale
    // (float32), added to mocap_pos, clipped to the mocap bounds.
    float clipped[4];
    for (int i = 0; i < 4; ++i)
      clipped[i] = std::min(std::max(a[i], -1.0f), 1.0f);
    for (int i = 0; i < 3; ++i) {
      const float delta = clipped[i] * static_cast<float>(task_.action_scale);
      const double p = d()->mocap_pos[i] + static_cast<double>(delta);
      d()->mocap_pos[i] = std::min(std::max(p, mocap_low_[i]), mocap_high_[i]);
    }
    const double quat[4] = {1, 0, 1, 0};
    std::copy(quat, quat + 4, d()->mocap_quat);
    // do_simulation([a[-1], -a[-1]], frame_skip) of the unclipped action.
    DoSimulation(static_cast<double>(a[3]), -static_cast<double>(a[3]));
    ++curr_path_length_;
    api_.forward(m(), d());
    UpdateObservation();
    for (int i = 0; i < kObsSize; ++i) {
      obs_[i] = std::min(std::max(obs_[i], obs_low_[i]), obs_high_[i]);
    }
    StepResult r;
    r.reward = EvaluateState(obs_.data(), a, &info_);
    // AutoTerminateOnSuccessWrapper, when on.
    r.terminated = terminate_on_success_ && info_.success == 1.0;
    return r;
  }

  // render(): gymnasium's MujocoRenderer as metaworld's env makes it
  // (render_mode="rgb_array"): an offscreen viewer made at the first frame,
  // a scene of 1000 geoms, the camera named or numbered, else the free
  // camera the viewer sets up then (looking at the median of the geoms'
  // positions from the model's extent) and keeps; the data as the last step
  // left it.
  void Render(uint8_t* rgb) override {
    if (!renderer_) {  // the viewer, made at the first frame
      renderer_ = mujoco::MakeRenderer(mujoco_lib_, m(), "Meta-World", 1000);
    }
    if (!camera_ready_) {  // its camera, set up then (or loaded with a state)
      camera_ready_ = true;
      camera_ = renderer_->DefaultCamera();
      camera_.fixedcamid = camera_id_;
      if (camera_id_ >= 0) {
        camera_.type = mjCAMERA_FIXED;
      } else {  // OffScreenViewer._init_camera
        camera_.type = mjCAMERA_FREE;
        std::vector<double> column(static_cast<std::size_t>(m()->ngeom));
        for (int i = 0; i < 3; ++i) {
          for (int g = 0; g < m()->ngeom; ++g) {
            column[g] = d()->geom_xpos[3 * g + i];
          }
          camera_.lookat[i] = Median(&column);
        }
        camera_.distance = m()->stat.extent;
      }
    }
    renderer_->Render(m(), d(), render_height_, render_width_, camera_, rgb);
  }

  // get_state / set_state: the model's arrays (the goal sites and bodies
  // reset_model moves), the data, the env's np_random and goals (a benchmark
  // env's set and its place in it), what reset_model and the last step
  // left, and render()'s camera. A task adds its own fields with
  // ENVPOOL_LITE_STATE_AFTER(its base, ...).
  void SaveState(StateWriter& out) const override {
    mujoco_state::SaveModel(m(), out);
    mujoco_state::SaveData(d(), out);
    out(rng_, tasks_, rand_vec_, pseudorandom_, sample_on_reset_,
        partially_observable_, task_index_, obs_low_, obs_high_, init_tcp_,
        obj_init_pos_, target_pos_, curr_path_length_, obs_, prev_obs_, info_,
        camera_ready_, camera_);
  }
  void LoadState(StateReader& in) override {
    mujoco_state::LoadModel(m(), in);
    mujoco_state::LoadData(d(), in);
    in(rng_, tasks_, rand_vec_, pseudorandom_, sample_on_reset_,
       partially_observable_, task_index_, obs_low_, obs_high_, init_tcp_,
       obj_init_pos_, target_pos_, curr_path_length_, obs_, prev_obs_, info_,
       camera_ready_, camera_);
  }

  void WriteObs(const Row& row) override {
    std::copy(obs_.begin(), obs_.end(), row.Obs<double>());
    const double values[] = {info_.success,         info_.near_object,
                             info_.grasp_success,   info_.grasp_reward,
                             info_.in_place_reward, info_.obj_to_target,
                             info_.unscaled_reward};
    for (int i = 0; i < 7; ++i) *row.Info<double>(i) = values[i];
  }

 protected:
  SawyerEnv(const Config& config, uint64_t seed, TaskSpec task)
      : task_(std::move(task)),
        v2_(IsV2(config)),
        api_(LoadApi(config.GetString("mujoco_lib"))),
        model_(LoadModel(api_, config.GetString("mujoco_model"))),
        data_(api_.make_data(model_.get()), DataDeleter{&api_}),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))),
        np_(config.GetNamedNumbers("numpy_loops")),
        rng_(seed) {
    if (!data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
    terminate_on_success_ = config.GetBool("terminate_on_success");
    mujoco_lib_ = config.GetString("mujoco_lib");
    render_width_ = static_cast<int>(config.GetInt("render_width"));
    render_height_ = static_cast<int>(config.GetInt("render_height"));
    // MujocoEnv._initialize_simulation: the offscreen buffer of the size
    // render() draws.
    m()->vis.global.offwidth = render_width_;
    m()->vis.global.offheight = render_height_;
    camera_id_ = RenderCamera(config);
    mocap_low_ = task_.has_mocap_bounds ? task_.mocap_low : task_.hand_low;
    mocap_high_ = task_.has_mocap_bounds ? task_.mocap_high : task_.hand_high;
    ObsBounds(task_, false, &obs_low_, &obs_high_);
    // SawyerMocapBase.__init__: reset_mocap_welds; then mj_forward.
    for (int i = 0; i < m()->neq; ++i) {
      if (m()->eq_type[i] == mjEQ_WELD) {
        const double weld[11] = {0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 5};
        std::copy(weld, weld + std::min(11, mjNEQDATA),
                  m()->eq_data + mjNEQDATA * i);
      }
    }
    api_.forward(m(), d());
    init_qpos_.assign(d()->qpos, d()->qpos + m()->nq);
    init_qvel_.assign(d()->qvel, d()->qvel + m()->nv);
    hand_ = Id(mjOBJ_BODY, "hand");
    right_claw_ = Id(mjOBJ_BODY, "rightclaw");
    left_claw_ = Id(mjOBJ_BODY, "leftclaw");
    right_effector_ = Id(mjOBJ_SITE, "rightEndEffector");
    left_effector_ = Id(mjOBJ_SITE, "leftEndEffector");
    mocap_ = m()->body_mocapid[Id(mjOBJ_BODY, "mocap")];
    left_pad_ = Id(mjOBJ_BODY, "leftpad");
    right_pad_ = Id(mjOBJ_BODY, "rightpad");
    // touching_object's pad geoms (looked up there if a model lacks them).
    left_pad_geom_ = api_.name2id(m(), mjOBJ_GEOM, "leftpad_geom");
    right_pad_geom_ = api_.name2id(m(), mjOBJ_GEOM, "rightpad_geom");
    obs_.assign(kObsSize, 0.0);
    prev_obs_.assign(18, 0.0);
  }

  // The task's part (its file's methods).
  virtual void ResetModel() = 0;
  virtual void ObjectsPosQuat(std::vector<double>* out) = 0;  // pos, quat, ...
  virtual double EvaluateState(const double* obs, const float* action,
                               Info* info) = 0;

  // Call at the end of the task's constructor: MT1's goals of seed `seed`.
  void Init(uint64_t seed) { GenerateTasks(seed); }

 public:
  // _get_state_rand_vec's draws in one reset_model while the rand_vec is not
  // frozen (as _make_tasks resets): np.random.uniform over the reset space,
  // again while the task's distance check fails.
  static std::vector<double> DrawRandVec(const TaskSpec& task,
                                         const NumpyBlas& blas,
                                         NumpyRandomState* random) {
    std::vector<double> v(task.reset_low.size());
    for (;;) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        v[i] = random->Uniform(task.reset_low[i], task.reset_high[i]);
      }
      if (task.apart <= 0) return v;
      const double to_x = task.apart_from_point ? task.apart_from[0] : v[3];
      const double to_y = task.apart_from_point ? task.apart_from[1] : v[4];
      const double diff[2] = {v[0] - to_x, v[1] - to_y};
      if (!(blas.Norm(diff, 2) < task.apart)) return v;  // np.linalg.norm
    }
  }

  // _make_tasks' goals of one task from np.random's state: 50 resets of a
  // fresh env with its rand_vec unfrozen, each calling reset_model twice; a
  // goal is the last rand_vec drawn in each.
  static std::vector<std::vector<double>> DrawGoals(const TaskSpec& task,
                                                    const NumpyBlas& blas,
                                                    NumpyRandomState* random) {
    std::vector<std::vector<double>> goals;
    for (int g = 0; g < kNumGoals; ++g) {
      DrawRandVec(task, blas, random);
      goals.push_back(DrawRandVec(task, blas, random));
    }
    return goals;
  }

 protected:
  // --- helpers of sawyer_xyz_env.py ---------------------------------------
  mjModel* m() const { return model_.get(); }
  mjData* d() const { return data_.get(); }

  int Id(mjtObj type, const char* name) const {
    const int id = api_.name2id(m(), type, name);
    if (id < 0) {
      throw std::invalid_argument(
          std::string("Meta-World: the model has no '") + name + "'");
    }
    return id;
  }
  // get_body_com(name): data.body(name).xpos
  Vec3 BodyCom(int body) const {
    const double* p = d()->xpos + 3 * body;
    return {p[0], p[1], p[2]};
  }
  Vec3 SitePos(int site) const {
    const double* p = d()->site_xpos + 3 * site;
    return {p[0], p[1], p[2]};
  }
  // tcp_center: (right + left end effector sites) / 2.0
  Vec3 TcpCenter() const {
    const Vec3 r = SitePos(right_effector_), l = SitePos(left_effector_);
    return {(r[0] + l[0]) / 2.0, (r[1] + l[1]) / 2.0, (r[2] + l[2]) / 2.0};
  }

  // _reset_hand(steps=50)
  void ResetHand(int steps = 50) {
    for (int i = 0; i < steps; ++i) {
      std::copy(hand_init_pos_.begin(), hand_init_pos_.end(),
                d()->mocap_pos + 3 * mocap_);
      const double quat[4] = {1, 0, 1, 0};
      std::copy(quat, quat + 4, d()->mocap_quat + 4 * mocap_);
      DoSimulation(-1.0, 1.0);
    }
    init_tcp_ = TcpCenter();
  }

  // gymnasium's do_simulation: ctrl, frame_skip mj_steps, then
  // mj_rnePostConstraint.
  void DoSimulation(double c0, double c1) {
    d()->ctrl[0] = c0;
    d()->ctrl[1] = c1;
    for (int i = 0; i < kFrameSkip; ++i) api_.step(m(), d());
    api_.rne_post_constraint(m(), d());
  }

  // set_state(qpos, qvel): copy, then mj_forward.
  void SetState(const std::vector<double>& qpos,
                const std::vector<double>& qvel) {
    std::copy(qpos.begin(), qpos.end(), d()->qpos);
    std::copy(qvel.begin(), qvel.end(), d()->qvel);
    api_.forward(m(), d());
  }

  // _set_obj_xyz(pos): qpos[9:12] = pos, qvel[9:15] = 0, set_state.
  void SetObjXyz(const Vec3& pos) {
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    for (int i = 0; i < 3; ++i) qpos[9 + i] = pos[i];
    for (int i = 9; i < 15; ++i) qvel[i] = 0;
    SetState(qpos, qvel);
  }

  // touching_object(object_geom_id): the efc_force of the contacts between
  // each pad geom and the object, summed in contact order (a contact
  // without constraint, efc_address -1, reads the last efc_force as Python
  // indexes it); both sums positive.
  bool TouchingObject(int object_geom) const {
    const int left =
        left_pad_geom_ >= 0 ? left_pad_geom_ : Id(mjOBJ_GEOM, "leftpad_geom");
    const int right = right_pad_geom_ >= 0 ? right_pad_geom_
                                           : Id(mjOBJ_GEOM, "rightpad_geom");
    double force[2] = {0, 0};
    const int pads[2] = {left, right};
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < d()->ncon; ++i) {
        const mjContact& c = d()->contact[i];
        const bool pad = c.geom1 == pads[k] || c.geom2 == pads[k];
        const bool obj = c.geom1 == object_geom || c.geom2 == object_geom;
        if (!(pad && obj)) continue;
        int adr = c.efc_address;
        if (adr < 0) adr += d()->nefc;
        if (adr < 0 || adr >= d()->nefc) {
          throw std::runtime_error("touching_object: efc index out of range");
        }
        force[k] += d()->efc_force[adr];
      }
    }
    return 0 < force[0] && 0 < force[1];
  }

  // _get_state_rand_vec() once the task is set: its rand_vec.
  const std::vector<double>& StateRandVec() const { return rand_vec_; }

  // np.linalg.norm(x) of a vector: sqrt of numpy's BLAS ddot.
  double Norm(const double* x, int n) const { return blas_.Norm(x, n); }
  double Norm3(const Vec3& a, const Vec3& b) const {
    const double diff[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return Norm(diff, 3);
  }

  // _gripper_caging_reward(action, obj_pos, obj_radius, pad_success_thresh,
  // object_reach_radius, xz_thresh, desired_gripper_effort, high_density,
  // medium_density), with numpy 2's types: when the gripper's effort
  // (0 < action[-1] <= desired_gripper_effort, a float32) counts (caging >
  // 0.97), the float32 it is makes the product, the densities' means and so
  // the result float32s.
  PyFloat GripperCagingRewardPy(const float* action, const Vec3& obj_pos,
                                double obj_radius, double pad_success_thresh,
                                double object_reach_radius, double xz_thresh,
                                double desired_gripper_effort = 1.0,
                                bool high_density = false,
                                bool medium_density = false) {
    const Vec3 left_pad = BodyCom(left_pad_);
    const Vec3 right_pad = BodyCom(right_pad_);
    const double pad_y_lr[2] = {left_pad[1], right_pad[1]};
    double caging_lr[2];
    for (int i = 0; i < 2; ++i) {
      const double pad_to_obj = std::abs(pad_y_lr[i] - obj_pos[1]);
      const double pad_to_objinit = std::abs(pad_y_lr[i] - obj_init_pos_[1]);
      const double margin = std::abs(pad_to_objinit - pad_success_thresh);
      caging_lr[i] = Tolerance(np_, pad_to_obj, obj_radius, pad_success_thresh,
                               margin, Sigmoid::kLongTail);
    }
    const PyFloat caging_y =
        HamacherProduct(PyFloat(caging_lr[0]), PyFloat(caging_lr[1]));
    const Vec3 tcp = TcpCenter();
    const double init_xz[2] = {obj_init_pos_[0] - init_tcp_[0],
                               obj_init_pos_[2] - init_tcp_[2]};
    double caging_xz_margin = Norm(init_xz, 2);
    caging_xz_margin -= xz_thresh;
    const double tcp_xz[2] = {tcp[0] - obj_pos[0], tcp[2] - obj_pos[2]};
    const double caging_xz = Tolerance(np_, Norm(tcp_xz, 2), 0, xz_thresh,
                                       caging_xz_margin, Sigmoid::kLongTail);
    // min(max(0, action[-1]), effort) / effort: 0 (an int) when the float32
    // is not positive; the effort (a Python float, compared in float32) when
    // the float32 exceeds it; else the float32 divided in float32.
    const double effort = desired_gripper_effort;
    const float a = action[3];
    PyFloat gripper_closed(0.0);
    if (a > 0) {
      gripper_closed = static_cast<float>(effort) < a
                           ? PyFloat(effort / effort)
                           : PyFloat::F32(a / static_cast<float>(effort));
    }
    const PyFloat caging = HamacherProduct(caging_y, PyFloat(caging_xz));
    const PyFloat gripping =
        caging > PyFloat(0.97) ? gripper_closed : PyFloat(0.0);
    PyFloat caging_and_gripping = HamacherProduct(caging, gripping);
    if (high_density) {
      caging_and_gripping = (caging_and_gripping + caging) / PyFloat(2.0);
    }
    if (medium_density) {
      const double tcp_to_obj = Norm3(obj_pos, tcp);
      const double tcp_to_obj_init = Norm3(obj_init_pos_, init_tcp_);
      const double reach_margin =
          std::abs(tcp_to_obj_init - object_reach_radius);
      const double reach = Tolerance(np_, tcp_to_obj, 0, object_reach_radius,
                                     reach_margin, Sigmoid::kLongTail);
      caging_and_gripping =
          (caging_and_gripping + PyFloat(reach)) / PyFloat(2.0);
    }
    return caging_and_gripping;
  }

  TaskSpec task_;
  bool v2_;
  const Api& api_;
  ModelPtr model_;
  DataPtr data_;
  const NumpyBlas& blas_;
  NumpyMath np_;
  NumpyRandom rng_;  // the env's np_random
  bool terminate_on_success_ = false;
  std::vector<std::vector<double>> tasks_;  // MT1's 50 rand_vecs, or a set's
  std::vector<double> rand_vec_;
  bool pseudorandom_ = false, sample_on_reset_ = true;
  bool partially_observable_ = false;
  int task_index_ = -1;  // PseudoRandomTaskSelectWrapper's current_task_idx
  std::vector<double> init_qpos_, init_qvel_;
  Vec3 hand_init_pos_{}, init_tcp_{}, obj_init_pos_{}, target_pos_{};
  Vec3 mocap_low_{}, mocap_high_{};
  int hand_, right_claw_, left_claw_, right_effector_, left_effector_, mocap_;
  int left_pad_, right_pad_, left_pad_geom_, right_pad_geom_;
  int curr_path_length_ = 0;
  std::vector<double> obs_, prev_obs_, obs_low_, obs_high_;
  Info info_;

 private:
  // _make_tasks: np.random.seed(seed), then 50 resets of a fresh env with
  // its rand_vec unfrozen, each calling reset_model twice; a goal is the
  // last rand_vec drawn in each.
  void GenerateTasks(uint64_t seed) {
    NumpyRandomState random(static_cast<uint32_t>(seed));
    tasks_ = DrawGoals(task_, blas_, &random);
  }

  // _get_curr_obs_combined_no_goal + _get_obs, into obs_: the 18 current
  // values, the previous step's 18, the goal (zeros when partially observable;
  // MT1's goals are observable).
  void UpdateObservation() {
    double* obs = obs_.data();
    const double* hand = d()->xpos + 3 * hand_;
    std::copy(hand, hand + 3, obs);
    const double* r = d()->xpos + 3 * right_claw_;
    const double* l = d()->xpos + 3 * left_claw_;
    const double apart[3] = {r[0] - l[0], r[1] - l[1], r[2] - l[2]};
    const double g = Norm(apart, 3) / 0.1;
    obs[3] = std::min(std::max(g, 0.0), 1.0);
    objects_.clear();
    ObjectsPosQuat(&objects_);
    // The objects zero-padded to 14 values (obs_obj_padded).
    std::copy(objects_.begin(), objects_.end(), obs + 4);
    std::fill(obs + 4 + objects_.size(), obs + 18, 0.0);
    std::copy(prev_obs_.begin(), prev_obs_.end(), obs + 18);
    if (partially_observable_) {
      std::fill(obs + 36, obs + 39, 0.0);
    } else {
      std::copy(target_pos_.begin(), target_pos_.end(), obs + 36);
    }
    std::copy(obs, obs + 18, prev_obs_.begin());
  }

  // sawyer_observation_space: the hand space, [-1, 1] for the gripper,
  // unbounded objects, the goal space (zeros when the goal is hidden).
 public:
  static void ObsBounds(const TaskSpec& task, bool partially_observable,
                        std::vector<double>* low, std::vector<double>* high) {
    const double inf = std::numeric_limits<double>::infinity();
    const Vec3 hand_low{-0.525, 0.348, -0.0525}, hand_high{0.525, 1.025, 0.7};
    low->clear();
    high->clear();
    for (int k = 0; k < 2; ++k) {
      low->insert(low->end(), hand_low.begin(), hand_low.end());
      high->insert(high->end(), hand_high.begin(), hand_high.end());
      low->push_back(-1.0);
      high->push_back(1.0);
      low->insert(low->end(), 14, -inf);
      high->insert(high->end(), 14, inf);
    }
    if (partially_observable) {
      low->insert(low->end(), 3, 0.0);
      high->insert(high->end(), 3, 0.0);
    } else {
      low->insert(low->end(), task.goal_low.begin(), task.goal_low.end());
      high->insert(high->end(), task.goal_high.begin(), task.goal_high.end());
    }
  }

 private:
  // The camera render() draws from: camera_name's, render_camera_id, or -1
  // (the free camera; with neither, gymnasium looks up a camera "track" and
  // still draws from the free one).
  int RenderCamera(const Config& config) const {
    const std::string& name = config.GetString("camera_name");
    if (!name.empty()) {
      const int id = api_.name2id(m(), mjOBJ_CAMERA, name.c_str());
      if (id < 0) {
        std::string names;
        for (int c = 0; c < m()->ncam; ++c) {
          const char* n = api_.id2name(m(), mjOBJ_CAMERA, c);
          names += std::string(c ? ", " : "") + "'" + (n ? n : "") + "'";
        }
        throw std::invalid_argument(
            "option 'camera_name': the model has no "
            "camera '" +
            name + "' (its cameras: " + names + ")");
      }
      return id;
    }
    const int64_t id = config.GetInt("render_camera_id");
    if (id < -1 || id >= m()->ncam) {
      throw std::invalid_argument(
          "option 'render_camera_id': the model has " +
          std::to_string(m()->ncam) + " cameras (ids 0 to " +
          std::to_string(m()->ncam - 1) + ", -1: the free camera), got " +
          std::to_string(id));
    }
    return static_cast<int>(id);
  }

  // np.median: the middle value, or the mean of the two middle ones.
  static double Median(std::vector<double>* v) {
    std::sort(v->begin(), v->end());
    const std::size_t n = v->size();
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    return n % 2 ? (*v)[n / 2] : ((*v)[n / 2 - 1] + (*v)[n / 2]) / 2;
  }

  std::vector<double> objects_;
  std::string mujoco_lib_;
  int render_width_ = 0, render_height_ = 0, camera_id_ = -1;
  bool camera_ready_ = false;  // camera_ set up (at the first frame)
  mjvCamera camera_{};         // render()'s
  std::unique_ptr<mujoco::Renderer> renderer_;
};

}  // namespace metaworld
}  // namespace envpool_lite
