// MyoSuite: myosuite 2.12.2's MujocoEnv (envs/env_base.py), BaseV0
// (envs/myo/base_v0.py) and its Robot (robot/robot.py, the simulated robot
// without a config file), on the MuJoCo myosuite pins (3.6.0: this family is
// compiled against that version's headers, in a library of its own;
// CMakeLists.txt).
//
// What the reference does, and so what this does, in its order:
//  - Two mjData of one mjModel: the robot's, which the steps advance, and
//    the env's, which the observation reads: after every step and reset the
//    robot's time, qpos, qvel and act are copied into it and mj_forward
//    recomputes it (Robot.sensor2sim). Tasks move their target sites in the
//    model, which both share.
//  - Construction: np_random = Generator(PCG64(seed)) (myosuite's
//    seed_envs), the task's setup, the muscle condition (sarcopenia halves
//    every actuator's force, gainprm[:, 2]; fatigue is the 3CC-r model of
//    fatigue.h, with a generator of its own seeded alike; reafferentation
//    sends EIP's command to EPL), the initial position (the middle of the
//    range of every actuated hinge or slide joint when normalize_act), then
//    one step of zero controls, as MujocoEnv._setup takes it.
//  - A step (BaseV0.step): muscles' commands through the sigmoid
//    1 / (1 + exp(-5 (a - 0.5))) in float32, as numpy computes it on a
//    float32 action, when normalize_act; other actuators' commands mapped
//    from [-1, 1] to their control range only in a model without muscles;
//    no clipping (MuJoCo clamps the controls of limited actuators); the
//    muscle condition; frame_skip mj_step; the observation and rewards.
//  - The observation vector: the obs_keys' entries of the obs dict, in
//    order, as float32 (ObsVecDict.obsdict2obsvec); "act" appended to the
//    keys when the model has activations. The reward: rwd_dict["dense"],
//    the weighted sum of weighted_reward_keys' terms; terminated:
//    rwd_dict["done"].
//
// Each task (one header each) derives from MyoEnv and defines its obs dict
// (ObsDict), its reward terms (RewardDict) and its reset (ResetTask).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/myosuite/fatigue.h"
#include "envs/myosuite/model_edit.h"
#include "refkit/mujoco/api.h"
#include "refkit/mujoco/render.h"
#include "refkit/mujoco/state.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {
namespace myosuite {

using mujoco::Api;
using mujoco::DataDeleter;
using mujoco::DataPtr;
using mujoco::LoadApi;
using mujoco::LoadModel;
using mujoco::ModelPtr;

// One entry of the obs dict or the reward dict: its name and size.
struct Key {
  std::string name;
  int64_t size = 1;
  bool boolean = false;  // a reward dict's solved / done
};

// The obs dict's keys (after "time") and the reward dict's, in the
// reference's order: what a task computes, fixed by its model and options.
struct Layout {
  std::vector<Key> obs;
  std::vector<Key> rwd;
};

// np.linalg.norm(x, axis=-1) of a float64 vector: the squares summed as
// add.reduce sums them, then the square root.
inline double Norm(const double* x, int n, double* scratch) {
  for (int i = 0; i < n; ++i) scratch[i] = x[i] * x[i];
  return std::sqrt(PairwiseSum(scratch, n));
}

enum class MuscleCondition { kNone, kSarcopenia, kFatigue, kReafferentation };

inline MuscleCondition ParseCondition(const std::string& s) {
  if (s.empty()) return MuscleCondition::kNone;
  if (s == "sarcopenia") return MuscleCondition::kSarcopenia;
  if (s == "fatigue") return MuscleCondition::kFatigue;
  if (s == "reafferentation") return MuscleCondition::kReafferentation;
  throw std::invalid_argument(
      "option 'muscle_condition' must be '', 'sarcopenia', 'fatigue' or "
      "'reafferentation' (myosuite's BaseV0), got '" +
      s + "'");
}

// The model load() makes, or a copy (mj_copyModel: the same arrays) of the
// one it made last for the same key: myosuite's models take 20 to 300 ms
// each to compile, and a pool's envs all load the same one.
template <typename Load>
ModelPtr LoadCachedModel(const Api& api, const std::string& key, Load load) {
  struct Cached {
    std::string key;
    ModelPtr model;
  };
  static std::mutex mutex;
  static std::vector<Cached> cache;  // the last few, newest last
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const Cached& c : cache) {
      if (c.key != key) continue;
      mjModel* m = api.copy_model(nullptr, c.model.get());
      if (m == nullptr) throw std::runtime_error("MuJoCo: mj_copyModel failed");
      return ModelPtr(m, mujoco::ModelDeleter{&api});
    }
  }
  ModelPtr model = load();
  mjModel* copy = api.copy_model(nullptr, model.get());
  if (copy == nullptr) throw std::runtime_error("MuJoCo: mj_copyModel failed");
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 4) cache.erase(cache.begin());
  cache.push_back({key, ModelPtr(copy, mujoco::ModelDeleter{&api})});
  return model;
}

inline const std::string& ModelPath(const Config& config) {
  const std::string& path = config.GetString("mujoco_model");
  if (path.empty()) {
    throw std::invalid_argument(
        "option 'mujoco_model' is empty (make() fills it from the installed "
        "myosuite package)");
  }
  return path;
}

// The model a task's options name (edited when model_edit names an edit:
// model_edit.h).
inline ModelPtr LoadTaskModel(const Config& config) {
  const std::string& path = ModelPath(config);
  const std::string& lib = config.GetString("mujoco_lib");
  const Api& api = LoadApi(lib);
  const std::string edit =
      config.Has("model_edit") ? config.GetString("model_edit") : "";
  return LoadCachedModel(api, path + '\n' + edit, [&] {
    return edit.empty() ? LoadModel(api, path)
                        : LoadEditedModel(api, lib, path, edit);
  });
}

// Generator.uniform(low, high)'s own checks, which myosuite meets at its
// first reset: high - low finite (else OverflowError) and not negative
// (else ValueError); here at make(), naming the option.
inline void CheckUniform(const char* option, double low, double high) {
  if (!std::isfinite(high - low)) {
    throw std::invalid_argument(std::string("option '") + option +
                                "': its range must be finite (myosuite's "
                                "np_random.uniform raises OverflowError)");
  }
  if (!(high - low >= 0)) {
    throw std::invalid_argument(
        std::string("option '") + option +
        "': low must not exceed high (myosuite's np_random.uniform raises "
        "ValueError: high - low < 0)");
  }
}

// A {"high": [...], "low": [...]} option, as myosuite's
// np_random.uniform(**range) takes it: n values each, low and high; empty
// where the option is not given (myosuite's None). Checked as
// Generator.uniform checks it.
struct LowHigh {
  std::vector<double> low, high;
  bool empty() const { return low.empty(); }
};

inline LowHigh RangeOption(const Config& config, const char* name,
                           std::size_t n) {
  LowHigh r;
  const NamedNumbers& t = config.GetNamedNumbers(name);
  if (t.empty()) return r;
  for (const auto& [k, v] : t) {
    if (k == "low") r.low = v;
    if (k == "high") r.high = v;
  }
  if (t.size() != 2 || r.low.size() != n || r.high.size() != n) {
    throw std::invalid_argument(std::string("option '") + name +
                                "': {'high': ..., 'low': ...} of " +
                                std::to_string(n) + " number(s) each expected");
  }
  for (std::size_t i = 0; i < n; ++i) CheckUniform(name, r.low[i], r.high[i]);
  return r;
}

// from[at[0]], from[at[1]], ... (an obs dict's entry of some joints).
inline void Gather(const double* from, const std::vector<int>& at,
                   double* out) {
  for (std::size_t i = 0; i < at.size(); ++i) out[i] = from[at[i]];
}

// WalkEnvV0's muscle_lengths, muscle_velocities (clipped to +-100) and
// muscle_forces (in kN, clipped to +-100), of the env's data.
inline void MuscleObs(const mjData* d, int nu, double* length, double* velocity,
                      double* force) {
  std::copy(d->actuator_length, d->actuator_length + nu, length);
  for (int i = 0; i < nu; ++i) {
    velocity[i] = std::min(std::max(d->actuator_velocity[i], -100.0), 100.0);
    force[i] = std::min(std::max(d->actuator_force[i] / 1000, -100.0), 100.0);
  }
}

// WalkEnvV0._setup's options, with its defaults, which MyoChallenge's leg
// tasks (soccer, chase tag, run track) take through it and do not use.
inline void SetUnusedWalkOptions(Config* c) {
  c->Set("min_height", 0.8);
  c->Set("max_rot", 0.8);
  c->Set("hip_period", int64_t{100});
  c->Set("target_x_vel", 0.0);
  c->Set("target_y_vel", 1.2);
  c->Set("target_rot", NumberList{});
}

// The id of a named element a task needs in its model.
inline int ModelId(const Api& api, const mjModel* m, mjtObj type,
                   const char* name, const char* task) {
  const int id = api.name2id(m, type, name);
  if (id < 0) {
    throw std::invalid_argument(std::string("option 'mujoco_model': the ") +
                                task + " task needs '" + name +
                                "' in its model");
  }
  return id;
}

inline int SiteId(const Api& api, const mjModel* m, const std::string& name,
                  const char* option) {
  const int id = api.name2id(m, mjOBJ_SITE, name.c_str());
  if (id < 0) {
    throw std::invalid_argument(std::string("option '") + option +
                                "': the model has no site '" + name + "'");
  }
  return id;
}

class MyoEnv : public Env {
 public:
  // The options every MyoSuite task takes (BaseV0._setup and
  // MujocoEnv._setup), with myosuite's defaults.
  static Config BaseConfig() {
    Config c{{"max_episode_steps", int64_t{100}},
             {"frame_skip", int64_t{10}},
             {"normalize_act", true},
             {"obs_keys", StringList{}},
             {"weighted_reward_keys", NamedNumbers{}},
             {"muscle_condition", std::string()},
             {"fatigue_reset_vec", NumberList{}},
             {"fatigue_reset_random", false},
             {"mujoco_lib", std::string()},
             {"mujoco_model", std::string()},
             {"numpy_loops", NamedNumbers{}},
             {"numpy_blas", std::string()},
             // render(): myosuite's offscreen renderer's size (640 x 480)
             // and camera (-1: MuJoCo's default free camera).
             {"render_width", int64_t{640}},
             {"render_height", int64_t{480}},
             {"render_camera_id", int64_t{-1}}};
    return c;
  }

  // The spec of a task of layout `layout` (its Layout function's, for the
  // model the options name): the observation vector of the obs_keys, the
  // action (one per actuator: [-1, 1] when normalize_act, else the control
  // ranges), and the info fields: time, rwd_dense, rwd_sparse, solved,
  // done, then obs_dict/<key> and rwd_dict/<key> for every key.
  static EnvSpec BaseSpec(const Config& config, const mjModel* m,
                          const Layout& layout) {
    const int64_t limit = config.GetInt("max_episode_steps");
    if (limit < 1) {
      throw std::invalid_argument(
          "option 'max_episode_steps' must be at least 1, got " +
          std::to_string(limit));
    }
    const int64_t frame_skip = config.GetInt("frame_skip");
    if (frame_skip < 1) {
      throw std::invalid_argument(
          "option 'frame_skip' must be at least 1, got " +
          std::to_string(frame_skip));
    }
    ParseCondition(config.GetString("muscle_condition"));
    EnvSpec spec;
    const std::vector<int> keys = ObsKeyIndices(config, m, layout);
    int64_t size = 0;
    for (int k : keys) size += KeySize(layout, k);
    // gymnasium.spaces.Box(obs_range = (-10, 10)), float32.
    spec.obs = MakeBox<float>("obs", {size}, {-10.0}, {10.0});
    const int nu = m->nu;
    if (config.GetBool("normalize_act")) {
      spec.action = MakeBox<float>("action", {nu}, {-1.0}, {1.0});
    } else {
      std::vector<double> low(nu), high(nu);
      for (int i = 0; i < nu; ++i) {
        low[i] = static_cast<float>(m->actuator_ctrlrange[2 * i]);
        high[i] = static_cast<float>(m->actuator_ctrlrange[2 * i + 1]);
      }
      spec.action = MakeBox<float>("action", {nu}, low, high);
    }
    spec.info.push_back(MakeScalar<double>("time"));
    spec.info.push_back(MakeScalar<double>("rwd_dense"));
    spec.info.push_back(MakeScalar<double>("rwd_sparse"));
    spec.info.push_back(MakeScalar<bool>("solved"));
    spec.info.push_back(MakeScalar<bool>("done"));
    for (const Key& k : layout.obs) {
      spec.info.push_back(
          MakeBox<double>("obs_dict/" + k.name, {k.size}, {-kInf}, {kInf}));
    }
    for (const Key& k : layout.rwd) {
      if (k.boolean) {
        spec.info.push_back(MakeScalar<bool>("rwd_dict/" + k.name));
      } else {
        spec.info.push_back(MakeScalar<double>("rwd_dict/" + k.name));
      }
    }
    CheckWeights(config, layout);
    CheckFatigue(config, m);
    // mujoco.Renderer's own checks: the picture fits the model's offscreen
    // buffer, the camera exists.
    const int64_t width = config.GetInt("render_width");
    const int64_t height = config.GetInt("render_height");
    if (width < 1 || width > m->vis.global.offwidth || height < 1 ||
        height > m->vis.global.offheight) {
      throw std::invalid_argument(
          "options 'render_width' and 'render_height' must fit the model's "
          "offscreen buffer, " +
          std::to_string(m->vis.global.offwidth) + " x " +
          std::to_string(m->vis.global.offheight) +
          " (mujoco.Renderer's "
          "limit), got " +
          std::to_string(width) + " x " + std::to_string(height));
    }
    const int64_t camera = config.GetInt("render_camera_id");
    if (camera < -1 || camera >= m->ncam) {
      throw std::invalid_argument("option 'render_camera_id' must be in [-1, " +
                                  std::to_string(m->ncam) + "), got " +
                                  std::to_string(camera));
    }
    spec.render_width = width;
    spec.render_height = height;
    spec.max_episode_steps = limit;
    spec.reward_float64 = true;
    // Two mjData per env (the robot's and the observed), each with the
    // model's arena, touched only as far as contacts and constraints need.
    spec.lazy_bytes_per_env = 2 * static_cast<int64_t>(m->narena);
    return spec;
  }

  void Seed(uint64_t seed) override {
    rng_.Seed(seed);
    fatigue_.Seed(seed);
  }

  StepResult Step(const void* action) override {
    const bool f32 = TakeAction(static_cast<const float*>(action));
    PreStep();
    StepControls(f32);
    Forward();
    StepResult r;
    r.reward = rwd_dense_;
    r.terminated = done_;
    return r;
  }

  void WriteObs(const Row& row) override {
    float* obs = row.Obs<float>();
    int at = 0;
    for (int k : obs_keys_) {
      const double* v = ObsValue(k);
      const int n = KeySize(layout_, k);
      for (int i = 0; i < n; ++i) obs[at + i] = static_cast<float>(v[i]);
      at += n;
    }
    *row.Info<double>(0) = InfoTime();
    *row.Info<double>(1) = rwd_dense_;
    *row.Info<double>(2) = RwdValue("sparse");
    *row.Info<bool>(3) = solved_;
    *row.Info<bool>(4) = done_;
    int field = 5;
    for (std::size_t k = 0; k < layout_.obs.size(); ++k) {
      const double* v = obs_dict_.data() + obs_offset_[k];
      std::copy(v, v + layout_.obs[k].size, row.Info<double>(field++));
    }
    for (std::size_t k = 0; k < layout_.rwd.size(); ++k) {
      if (layout_.rwd[k].boolean) {
        *row.Info<bool>(field++) = rwd_dict_[k] != 0.0;
      } else {
        *row.Info<double>(field++) = rwd_dict_[k];
      }
    }
  }

  // render(): myosuite's MJRenderer.render_offscreen (mujoco.Renderer):
  // the env's data drawn from the free camera MuJoCo sets up by default
  // (mjv_defaultFreeCamera) or a model camera, a scene of 10000 geoms, the
  // actuators shown and coloured by activation (BaseV0's
  // render_actuator=True); the renderer made at the first frame, as
  // myosuite makes it.
  void Render(uint8_t* rgb) override {
    if (!renderer_) {
      renderer_ = mujoco::MakeRenderer(mujoco_lib_, m(), "MyoSuite", 10000);
      renderer_->Option().flags[mjVIS_ACTUATOR] = 1;
      renderer_->Option().flags[mjVIS_ACTIVATION] = 1;
    }
    renderer_->Render(m(), d(), render_height_, render_width_, camera_id_, rgb);
  }

  // get_state / set_state: the model's arrays (target sites, a weight's
  // mass and size), both mjData, the generators, the fatigue model, and
  // what the last step computed.
  void SaveState(StateWriter& out) const override {
    mujoco_state::SaveModel(m(), out);
    mujoco_state::SaveData(d(), out);
    mujoco_state::SaveData(robot(), out);
    out(rng_, fatigue_, obs_dict_, rwd_dict_, rwd_dense_, solved_, done_);
  }
  void LoadState(StateReader& in) override {
    mujoco_state::LoadModel(m(), in);
    mujoco_state::LoadData(d(), in);
    mujoco_state::LoadData(robot(), in);
    in(rng_, fatigue_, obs_dict_, rwd_dict_, rwd_dense_, solved_, done_);
  }

 protected:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  // The task's layout for its model and options.
  using LayoutFn = Layout (*)(const Config&, const mjModel*);

  MyoEnv(const Config& config, uint64_t seed, LayoutFn layout)
      : MyoEnv(config, seed, layout, LoadTaskModel(config)) {}

  // A task that loads its model itself (MyoDM's TrackEnv: the object's
  // name put into the model's text) passes it here.
  MyoEnv(const Config& config, uint64_t seed, LayoutFn layout, ModelPtr model)
      : api_(LoadApi(config.GetString("mujoco_lib"))),
        model_(std::move(model)),
        data_(api_.make_data(model_.get()), DataDeleter{&api_}),
        np_(config.GetNamedNumbers("numpy_loops")),
        layout_(layout(config, model_.get())),
        rng_(seed) {
    if (!data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
    // Off: MuJoCo's visualisation flag (vis.global.bvactive, on by
    // default) that makes every mj_collision clear bvh_active, one byte per
    // node of every mesh's bounding-volume tree (200,368 in chase tag's
    // model): 41% of the elbow's step. Only the viewer's BVH display reads
    // it (off in render()); the physics and the pictures are the same.
    m()->vis.global.bvactive = 0;
    // MujocoEnv.__init__: mj_forward of the env's data.
    api_.forward(m(), d());
    frame_skip_ = static_cast<int>(config.GetInt("frame_skip"));
    normalize_act_ = config.GetBool("normalize_act");
    dt_ = m()->opt.timestep * static_cast<double>(frame_skip_);
    condition_ = ParseCondition(config.GetString("muscle_condition"));
    obs_keys_ = ObsKeyIndices(config, m(), layout_);
    int offset = 0;
    for (const Key& k : layout_.obs) {
      obs_offset_.push_back(offset);
      offset += static_cast<int>(k.size);
    }
    obs_dict_.assign(static_cast<std::size_t>(offset), 0.0);
    rwd_dict_.assign(layout_.rwd.size(), 0.0);
    for (const auto& [name, w] :
         config.GetNamedNumbers("weighted_reward_keys")) {
      weights_.emplace_back(RwdIndex(layout_, name), w.at(0));
    }
    weighted_.assign(weights_.size(), 0.0);
    scratch_.assign(
        static_cast<std::size_t>(std::max<int64_t>(offset, m()->nu) + 8), 0.0);
    ctrl_f32_.assign(static_cast<std::size_t>(m()->nu), 0.0f);
    ctrl_f64_.assign(static_cast<std::size_t>(m()->nu), 0.0);
    for (int i = 0; i < m()->nu; ++i) {
      if (m()->actuator_dyntype[i] == mjDYN_MUSCLE) muscles_.push_back(i);
    }
    fatigue_reset_vec_ = config.GetNumberList("fatigue_reset_vec");
    fatigue_reset_random_ = config.GetBool("fatigue_reset_random");
    fatigue_.Seed(seed);
    mujoco_lib_ = config.GetString("mujoco_lib");
    render_width_ = static_cast<int>(config.GetInt("render_width"));
    render_height_ = static_cast<int>(config.GetInt("render_height"));
    camera_id_ = static_cast<int>(config.GetInt("render_camera_id"));
  }

  // BaseV0._setup's muscle conditions, then MujocoEnv._setup: the robot,
  // the initial position, and one step of zero controls. The task calls
  // it at the end of its constructor, after its own setup.
  void Setup() {
    if (condition_ == MuscleCondition::kSarcopenia) {
      for (int i = 0; i < m()->nu; ++i) {
        m()->actuator_gainprm[mjNGAIN * i + 2] =
            0.5 * m()->actuator_gainprm[mjNGAIN * i + 2];
      }
    } else if (condition_ == MuscleCondition::kFatigue) {
      fatigue_.Init(m(), frame_skip_);
    } else if (condition_ == MuscleCondition::kReafferentation) {
      epl_ = api_.name2id(m(), mjOBJ_ACTUATOR, "EPL");
      eip_ = api_.name2id(m(), mjOBJ_ACTUATOR, "EIP");
      if (epl_ < 0 || eip_ < 0) {
        throw std::invalid_argument(
            "option 'muscle_condition' = 'reafferentation' needs the "
            "actuators EPL and EIP, which this model has not");
      }
    }
    // Robot.__init__: its own mjData of the model, mj_forward.
    robot_data_ = DataPtr(api_.make_data(m()), DataDeleter{&api_});
    if (!robot_data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
    api_.forward(m(), robot());
    init_qpos_.assign(d()->qpos, d()->qpos + m()->nq);
    init_qvel_.assign(d()->qvel, d()->qvel + m()->nv);
    if (normalize_act_) {
      // The actuated hinge and slide joints start at the middle of their
      // range.
      std::vector<int> joints;
      for (int i = 0; i < m()->nu; ++i) {
        if (m()->actuator_trntype[i] != mjTRN_JOINT) continue;
        const int j = m()->actuator_trnid[2 * i];
        if (m()->jnt_type[j] == mjJNT_SLIDE ||
            m()->jnt_type[j] == mjJNT_HINGE) {
          joints.push_back(j);
        }
      }
      for (int j : joints) {
        init_qpos_[m()->jnt_qposadr[j]] =
            (m()->jnt_range[2 * j] + m()->jnt_range[2 * j + 1]) / 2.0;
      }
    }
    // self.step(np.zeros(nu)): float64 controls; and myosuite's assertion.
    std::fill(ctrl_f64_.begin(), ctrl_f64_.end(), 0.0);
    PreStep();
    StepControls(false);
    Forward();
    if (done_) {
      throw std::invalid_argument(
          "these options start the task done (myosuite's MujocoEnv._setup "
          "asserts: \"Check initialization. Simulation starts in a done "
          "state.\")");
    }
  }

  // BaseV0.reset's fatigue reset, then MujocoEnv._reset: the robot reset
  // to qpos, qvel (mj_resetData, the positions, mj_forward), and the
  // observation.
  void ResetTo(const double* qpos, const double* qvel) {
    if (condition_ == MuscleCondition::kFatigue) {
      fatigue_.Reset(fatigue_reset_vec_, fatigue_reset_random_);
    }
    api_.reset_data(m(), robot());
    std::copy(qpos, qpos + m()->nq, robot()->qpos);
    std::copy(qvel, qvel + m()->nv, robot()->qvel);
    api_.forward(m(), robot());
    GetObs();
    ComputeRewards();
  }
  void ResetToInit() { ResetTo(init_qpos_.data(), init_qvel_.data()); }

  // np_random.uniform(**range): one draw per value, in order.
  void Draw(const LowHigh& r, double* out) {
    for (std::size_t i = 0; i < r.low.size(); ++i) {
      out[i] = rng_.Uniform(r.low[i], r.high[i]);
    }
  }

  // info["time"]: the obs dict's time, which a task may change in its
  // reward dict (chase tag's lost episodes).
  virtual double InfoTime() const { return d()->time; }

  // The action into the controls StepControls takes: by default its
  // float32 copy (ctrl_f32_, true); a task whose step() makes them float64
  // (run track) fills ctrl_f64_ and returns false.
  virtual bool TakeAction(const float* action) {
    std::copy(action, action + m()->nu, ctrl_f32_.begin());
    return true;
  }

  // What a task's step() does before BaseV0.step (soccer's goalkeeper
  // moves), at every step, the setup's step of zero controls included (its
  // zeros already in ctrl_f64_: run track appends its OSL leg's commands).
  virtual void PreStep() {}

  // MyoChallenge's bimanual and table tennis step(), when
  // map_robotic_controls_: the robotic (non-muscle) actuators' [-1, 1]
  // commands mapped to their control range (np.mean of the range, plus the
  // command times half its width) in the action's float32 copy (f32), as
  // myosuite's float32 copy of it holds them, or in MujocoEnv._setup's
  // float64 zeros; when normalize_act.
  void MapRoboticControls(bool f32, float* ctrl_f32, double* ctrl_f64) {
    if (!map_robotic_controls_ || !normalize_act_) return;
    for (int i = 0; i < m()->nu; ++i) {
      if (m()->actuator_dyntype[i] == mjDYN_MUSCLE) continue;
      const double lo = m()->actuator_ctrlrange[2 * i];
      const double hi = m()->actuator_ctrlrange[2 * i + 1];
      const double a = f32 ? static_cast<double>(ctrl_f32[i]) : ctrl_f64[i];
      const double c = (lo + hi) / 2.0 + a * (hi - lo) / 2.0;
      if (f32) {
        ctrl_f32[i] = static_cast<float>(c);
      } else {
        ctrl_f64[i] = c;
      }
    }
  }

  // The obs dict from the env's data (get_obs_dict), into obs_dict_.
  virtual void ObsDict() = 0;
  // The reward terms (get_reward_dict), into rwd_dict_ (not "dense").
  virtual void RewardDict() = 0;

  // Robot.get_sensors + sensor2sim: the robot's time, qpos, qvel and act
  // into the env's data, mj_forward; then the obs dict.
  void GetObs() {
    d()->time = robot()->time;
    std::copy(robot()->qpos, robot()->qpos + m()->nq, d()->qpos);
    std::copy(robot()->qvel, robot()->qvel + m()->nv, d()->qvel);
    if (m()->na > 0) {
      std::copy(robot()->act, robot()->act + m()->na, d()->act);
    }
    api_.forward(m(), d());
    ObsDict();
  }

  // The reward terms and rwd_dict["dense"]: np.sum of the weighted terms.
  void ComputeRewards() {
    RewardDict();
    for (std::size_t i = 0; i < weights_.size(); ++i) {
      weighted_[i] = weights_[i].second * rwd_dict_[weights_[i].first];
    }
    if (python_sum_dense_) {
      double sum = 0.0;  // Python's sum(...), from its 0, in order
      for (double w : weighted_) sum = sum + w;
      rwd_dense_ = sum;
    } else {
      rwd_dense_ =
          PairwiseSum(weighted_.data(), static_cast<int64_t>(weighted_.size()));
    }
    rwd_dict_[RwdIndex(layout_, "dense")] = rwd_dense_;
    solved_ = RwdValue("solved") != 0.0;
    done_ = RwdValue("done") != 0.0;
  }

  void Forward() {
    GetObs();
    ComputeRewards();
  }

  // The obs dict's entries (k indexes Layout::obs; -1 is "time").
  double* ObsValue(int k) {
    return k < 0 ? &d()->time : obs_dict_.data() + obs_offset_[k];
  }
  double* Obs(const char* name) { return ObsValue(ObsIndex(layout_, name)); }
  double& Rwd(const char* name) { return rwd_dict_[RwdIndex(layout_, name)]; }
  double RwdValue(const char* name) const {
    return rwd_dict_[RwdIndex(layout_, name)];
  }
  // The pain of soccer and run track (get_jnt_limit_violation, get_pain):
  // mj_mulJacTVec of the joint-limit rows of the env's efc_force (one
  // product, read at each joint's dof), each |.| clipped to 1000, / 1000,
  // summed from Python's 0, over the count.
  double JointLimitPain(const std::vector<int>& dofs) {
    const mjData* dd = d();
    pain_efc_.assign(static_cast<std::size_t>(dd->nefc), 0.0);
    for (int i = 0; i < dd->nefc; ++i) {
      if (dd->efc_type[i] == mjCNSTR_LIMIT_JOINT) {
        pain_efc_[i] = dd->efc_force[i];
      }
    }
    pain_force_.assign(static_cast<std::size_t>(m()->nv), 0.0);
    api_.mul_jac_t_vec(m(), d(), pain_force_.data(), pain_efc_.data());
    double score = 0.0;
    for (int dof : dofs) {
      score = score + std::min(std::fabs(pain_force_[dof]), 1000.0) / 1000;
    }
    return score / static_cast<double>(dofs.size());
  }

  // np.linalg.norm(self.obs_dict["act"]) / na, 0 without activations.
  double ActMag() {
    if (m()->na == 0) return 0.0;
    return Norm(d()->act, static_cast<int>(m()->na), scratch_.data()) /
           static_cast<double>(m()->na);
  }

  mjModel* m() const { return model_.get(); }
  mjData* d() const { return data_.get(); }
  mjData* robot() const { return robot_data_.get(); }

  static int KeySize(const Layout& layout, int k) {
    return k < 0 ? 1 : static_cast<int>(layout.obs[k].size);
  }
  static int ObsIndex(const Layout& layout, const std::string& name) {
    if (name == "time") return -1;
    for (std::size_t i = 0; i < layout.obs.size(); ++i) {
      if (layout.obs[i].name == name) return static_cast<int>(i);
    }
    return -2;
  }
  static int RwdIndex(const Layout& layout, const std::string& name) {
    for (std::size_t i = 0; i < layout.rwd.size(); ++i) {
      if (layout.rwd[i].name == name) return static_cast<int>(i);
    }
    throw std::invalid_argument("no reward term '" + name + "'");
  }

  const Api& api_;
  ModelPtr model_;
  DataPtr data_;
  DataPtr robot_data_;
  NumpyMath np_;
  Layout layout_;
  NumpyRandom rng_;
  Fatigue fatigue_;
  int frame_skip_ = 10;
  bool normalize_act_ = true;
  double dt_ = 0.0;
  MuscleCondition condition_ = MuscleCondition::kNone;
  int epl_ = -1, eip_ = -1;
  std::vector<int> obs_keys_;
  std::vector<int> obs_offset_;
  std::vector<double> obs_dict_;
  std::vector<double> rwd_dict_;
  std::vector<std::pair<int, double>> weights_;
  std::vector<double> weighted_;
  std::vector<double> scratch_;
  std::vector<double> pain_efc_, pain_force_;  // JointLimitPain's
  // The float64 controls: MujocoEnv._setup's zeros, or an action a task
  // takes as float64 (TakeAction), with what its PreStep appends.
  std::vector<double> ctrl_f64_;
  std::vector<double> init_qpos_, init_qvel_;
  std::vector<int> muscles_;
  NumberList fatigue_reset_vec_;
  bool fatigue_reset_random_ = false;
  double rwd_dense_ = 0.0;
  // rwd_dict["dense"] as Python's sum of the weighted terms (in order) rather
  // than np.sum's pairwise sum: the tasks whose reference sums so.
  bool python_sum_dense_ = false;
  // The task's step() maps its robotic actuators' commands
  // (MapRoboticControls) before BaseV0.step.
  bool map_robotic_controls_ = false;
  bool solved_ = false, done_ = false;
  std::string mujoco_lib_;
  int render_width_ = 640, render_height_ = 480, camera_id_ = -1;
  std::unique_ptr<mujoco::Renderer> renderer_;

 private:
  // The obs_keys' indices in the layout, "act" appended when the model has
  // activations (BaseV0._setup).
  static std::vector<int> ObsKeyIndices(const Config& config, const mjModel* m,
                                        const Layout& layout) {
    StringList keys = config.GetStringList("obs_keys");
    if (keys.empty()) {
      throw std::invalid_argument("option 'obs_keys' is empty");
    }
    if (m->na > 0 && std::find(keys.begin(), keys.end(), "act") == keys.end()) {
      keys.emplace_back("act");
    }
    std::vector<int> out;
    for (const std::string& k : keys) {
      const int i = ObsIndex(layout, k);
      if (i == -2) {
        std::string known = "time";
        for (const Key& key : layout.obs) known += ", " + key.name;
        throw std::invalid_argument("option 'obs_keys': no key '" + k +
                                    "' in the obs dict (" + known + ")");
      }
      out.push_back(i);
    }
    return out;
  }

  static void CheckWeights(const Config& config, const Layout& layout) {
    const NamedNumbers& w = config.GetNamedNumbers("weighted_reward_keys");
    for (const auto& [name, v] : w) {
      bool found = false;
      for (const Key& k : layout.rwd) found = found || k.name == name;
      if (!found) {
        std::string known;
        for (const Key& k : layout.rwd) {
          known += (known.empty() ? "" : ", ") + k.name;
        }
        throw std::invalid_argument(
            "option 'weighted_reward_keys': no reward term '" + name + "' (" +
            known + ")");
      }
      if (v.size() != 1) {
        throw std::invalid_argument(
            "option 'weighted_reward_keys': one weight per term, got " +
            std::to_string(v.size()) + " for '" + name + "'");
      }
    }
  }

  static void CheckFatigue(const Config& config, const mjModel* m) {
    const NumberList& vec = config.GetNumberList("fatigue_reset_vec");
    if (vec.empty()) return;
    int muscles = 0;
    for (int i = 0; i < m->nu; ++i) {
      muscles += m->actuator_dyntype[i] == mjDYN_MUSCLE ? 1 : 0;
    }
    if (static_cast<int>(vec.size()) != muscles) {
      throw std::invalid_argument(
          "option 'fatigue_reset_vec': one value per muscle (" +
          std::to_string(muscles) + "), got " + std::to_string(vec.size()));
    }
    if (config.GetBool("fatigue_reset_random")) {
      throw std::invalid_argument(
          "options 'fatigue_reset_vec' and 'fatigue_reset_random': give one "
          "(myosuite: \"Cannot use 'fatigue_reset_vec' if "
          "fatigue_reset_random=False.\")");
    }
  }

  // BaseV0.step then Robot.step, of the controls in ctrl_f32_ (an action,
  // float32, as the user's array is) or ctrl_f64_ (MujocoEnv._setup's
  // zeros, float64; run track's float64 copy of an action).
  void StepControls(bool f32) {
    MapRoboticControls(f32, ctrl_f32_.data(), ctrl_f64_.data());
    const int nu = m()->nu;
    bool normalized = normalize_act_;
    if (m()->na > 0 && normalize_act_) {
      for (int i : muscles_) {
        if (f32) {
          const float x = ctrl_f32_[i];
          const float e = np_.ExpF32(-5.0f * (x - 0.5f));
          ctrl_f32_[i] = 1.0f / (1.0f + e);
        } else {
          const double x = ctrl_f64_[i];
          ctrl_f64_[i] = 1.0 / (1.0 + np_.Exp(-5.0 * (x - 0.5)));
        }
      }
      normalized = false;
    }
    if (condition_ == MuscleCondition::kFatigue) {
      for (std::size_t k = 0; k < muscles_.size(); ++k) {
        const int i = muscles_[k];
        fatigue_.target_load[k] =
            f32 ? static_cast<double>(ctrl_f32_[i]) : ctrl_f64_[i];
      }
      fatigue_.ComputeAct();
      for (std::size_t k = 0; k < muscles_.size(); ++k) {
        const int i = muscles_[k];
        if (f32) {
          ctrl_f32_[i] = static_cast<float>(fatigue_.ma[k]);
        } else {
          ctrl_f64_[i] = fatigue_.ma[k];
        }
      }
    } else if (condition_ == MuscleCondition::kReafferentation) {
      if (f32) {
        ctrl_f32_[epl_] = ctrl_f32_[eip_];
        ctrl_f32_[eip_] = 0.0f;
      } else {
        ctrl_f64_[epl_] = ctrl_f64_[eip_];
        ctrl_f64_[eip_] = 0.0;
      }
    }
    // Robot.process_actuator: [-1, 1] to the control range when normalized.
    for (int i = 0; i < nu; ++i) {
      const double c = f32 ? static_cast<double>(ctrl_f32_[i]) : ctrl_f64_[i];
      if (normalized) {
        const double lo = m()->actuator_ctrlrange[2 * i];
        const double hi = m()->actuator_ctrlrange[2 * i + 1];
        robot()->ctrl[i] = (lo + hi) / 2.0 + c * (hi - lo) / 2.0;
      } else {
        robot()->ctrl[i] = c;
      }
    }
    // n_frames = int(step_duration / timestep).
    const int frames = static_cast<int>(dt_ / m()->opt.timestep);
    for (int f = 0; f < frames; ++f) api_.step(m(), robot());
  }

  std::vector<float> ctrl_f32_;
};

}  // namespace myosuite
}  // namespace envpool_lite
