// The plumbing every dm_control task shares, following dm_control 1.0.50's
// dm_control/rl/control.py (Environment), dm_control/mujoco/engine.py
// (Physics) and dm_control/suite/base.py (Task):
//
// - the model: the MJCF text and assets Python generates with the installed
//   dm_control package (families/dm_control.py), loaded as
//   Physics.from_xml_string loads them (refkit/mujoco/api.h);
// - reset (Environment.reset): mj_resetData and mj_forward with actuation
//   disabled (Physics.reset), the task's InitializeEpisode(), mj_forward with
//   actuation disabled again (Physics.after_reset);
// - step (Environment.step): BeforeStep (ctrl = action), n_sub_steps physics
//   steps the "legacy" way (mj_step2, mj_step x (n - 1), mj_step1), AfterStep,
//   the reward, the observation; the episode ends at the time limit
//   (truncated, discount 1) or where GetTermination says (terminated, the
//   pool's discount 0: the one suite task with a termination, LQR, ends with
//   discount 0);
// - MuJoCo warnings raised during a step or reset (Physics.check_invalid_state)
//   are a PhysicsError: the env's error, as dm_control raises it;
// - the task's random: numpy's legacy RandomState(seed)
// (refkit/numpy/random_state.h).
//
// Observations are dm_control's dicts: a task writes its keys in order with
// Observation::Add, and the spec is read from a first reset. With
// flat_observation the keys are raveled into one "observations" array.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/registry.h"
#include "refkit/mujoco/api.h"
#include "refkit/mujoco/render.h"
#include "refkit/mujoco/state.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/random_state.h"

namespace envpool_lite {
namespace dm_control {

using mujoco::Api;
using mujoco::DataDeleter;
using mujoco::DataPtr;
using mujoco::ModelPtr;

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kPi = 3.141592653589793;  // np.pi

// Where a task writes its observation: its keys in order, each a float64
// array (a scalar has shape {}). Recording (spec) or writing (a batch row).
class Observation {
 public:
  struct Key {
    std::string name;
    std::vector<int64_t> shape;
    std::size_t size;
  };

  void Add(const char* name, const double* values, std::vector<int64_t> shape) {
    std::size_t n = 1;
    for (int64_t d : shape) n *= static_cast<std::size_t>(d);
    if (recording_) {
      keys_.push_back(Key{name, std::move(shape), n});
      return;
    }
    double* out = flat_ != nullptr ? flat_ + offset_ : row_->Obs<double>(key_);
    std::memcpy(out, values, n * sizeof(double));
    offset_ += n;
    ++key_;
  }
  void Add(const char* name, const std::vector<double>& values) {
    Add(name, values.data(), {static_cast<int64_t>(values.size())});
  }
  void Add(const char* name, double value) { Add(name, &value, {}); }

  // Internal: DmcEnv sets the mode.
  static Observation Recorder() {
    Observation o;
    o.recording_ = true;
    return o;
  }
  static Observation Writer(const Row& row, bool flat) {
    Observation o;
    o.row_ = &row;
    if (flat) o.flat_ = row.Obs<double>(0);
    return o;
  }
  // Every key's values, concatenated into `out`.
  static Observation Into(double* out) {
    Observation o;
    o.flat_ = out;
    return o;
  }
  const std::vector<Key>& keys() const { return keys_; }

 private:
  bool recording_ = false;
  std::vector<Key> keys_;
  const Row* row_ = nullptr;
  double* flat_ = nullptr;
  std::size_t offset_ = 0;
  int key_ = 0;
};

// The options every task has (dm_control's task_kwargs and
// environment_kwargs), with the task's defaults, and the internal ones
// Python fills.
inline Config BaseConfig(const char* domain, const char* task,
                         double time_limit, double control_timestep) {
  return Config{{"domain_name", std::string(domain)},
                {"task_name", std::string(task)},
                {"time_limit", time_limit},
                // EnvPool's: n > 0 ends each episode after n steps
                // (truncated, discount 1) in place of time_limit; 0:
                // time_limit's end.
                {"max_episode_steps", int64_t{0}},
                // 0: the physics timestep x n_sub_steps (1 unless set).
                {"control_timestep", control_timestep},
                {"n_sub_steps", int64_t{0}},  // 0: from control_timestep
                {"flat_observation", false},
                // dm_control's pixels.Wrapper (pixels_only): the observation
                // is {"pixels": (3 x frame_stack, img_height, img_width)}
                // uint8, channels first as EnvPool's, drawn by
                // physics.render(img_height, img_width, camera_id).
                {"from_pixels", false},
                {"img_height", int64_t{84}},
                {"img_width", int64_t{84}},
                {"camera_id", int64_t{0}},
                // DrQ's settings: each action repeated action_repeat times
                // (rewards summed), the last frame_stack frames stacked.
                {"action_repeat", int64_t{1}},
                {"frame_stack", int64_t{1}},
                // render(): physics.render(render_height, render_width,
                // render_camera_id) (its defaults).
                {"render_height", int64_t{240}},
                {"render_width", int64_t{320}},
                {"render_camera_id", int64_t{-1}},
                {"gl_backend", std::string()},  // "egl" or "osmesa"
                // The envpool module's hook (internal): ResetState fields.
                {"report_reset_state", false},
                {"mujoco_lib", std::string()},
                {"numpy_blas", std::string()},
                {"numpy_loops", NamedNumbers{}},
                {"model_xml", std::string()},
                {"model_asset_names", StringList{}},
                {"model_asset_data", StringList{}}};
}

// The envpool module's hook (the internal option report_reset_state, which
// make() does not take): EnvPool's reset-state fields of the dm face, which
// its alignment and render tests copy into dm_control's env after a reset
// (qpos0, and per domain qvel0, a target, the drawn model parameters...),
// named and sized as EnvPool's. Info fields, the same until the next reset.
struct ResetState {
  std::vector<std::pair<std::string, std::vector<double>>> fields;
  template <typename T>
  void Add(const char* name, const T* values, int n) {
    fields.emplace_back(name, std::vector<double>(values, values + n));
  }
  void Add(const char* name, std::vector<double> values) {
    fields.emplace_back(name, std::move(values));
  }
};

class DmcEnv : public Env {
 public:
  void Seed(uint64_t seed) override { random_.Seed(CheckSeed(seed)); }

  void Reset() override {
    // reset_context: Physics.reset (its PhysicsError ignored), the task's
    // initialize_episode, Physics.after_reset.
    api_.reset_data(model_.get(), data_.get());
    ForwardWithoutActuation();
    WithWarningsChecked("reset", [&] {
      InitializeEpisode();
      ForwardWithoutActuation();
    });
    if (reports_reset_state_) {
      reset_state_.fields.clear();
      RecordResetState(reset_state_);
    }
    inner_steps_ = 0;
    if (StackStates()) PushState(/*reset=*/true);
    if (from_pixels_) {
      // DrQ's frame stack starts with the first frame frame_stack times.
      DrawPixels(0);
      for (int k = 1; k < frame_stack_; ++k) {
        std::copy_n(frames_.begin(), FrameSize(),
                    frames_.begin() + k * FrameSize());
      }
    }
  }

  // One control step (Environment.step), action_repeat times (DrQ's
  // ActionRepeatWrapper: reward += r * discount, discount *= d, stop at the
  // episode's last step).
  StepResult Step(const void* action) override {
    const double* a = static_cast<const double*>(action);
    StepResult r;
    double discount = 1.0;
    for (int i = 0; i < action_repeat_; ++i) {
      BeforeStep(a);
      WithWarningsChecked("step", [&] { PhysicsStep(n_sub_steps_); });
      AfterStep();
      const double reward = GetReward();
      double d = 1.0;
      const bool terminated = GetTermination(&d);
      r.reward += reward * discount;
      ++inner_steps_;
      if (terminated) {
        discount *= d;
        r.terminated = true;
        break;
      }
      if (inner_limit_ > 0 && inner_steps_ >= inner_limit_) break;
    }
    r.discount = static_cast<float>(discount);
    if (StackStates()) PushState(/*reset=*/false);
    if (from_pixels_) {
      // The newest frame last: drop the oldest.
      std::copy(frames_.begin() + FrameSize(), frames_.end(), frames_.begin());
      DrawPixels(frame_stack_ - 1);
    }
    return r;
  }

  void WriteObs(const Row& row) override {
    for (std::size_t i = 0; i < reset_state_.fields.size(); ++i) {
      const std::vector<double>& v = reset_state_.fields[i].second;
      std::copy(v.begin(), v.end(), row.Info<double>(static_cast<int>(i)));
    }
    if (from_pixels_) {
      std::copy(frames_.begin(), frames_.end(), row.Obs<uint8_t>(0));
      return;
    }
    if (StackStates()) {
      // Each key as (frame_stack, *shape), oldest first (flat: the one
      // array as (frame_stack, n)).
      const std::size_t n = state_keys_.back();
      if (flat_) {
        std::copy(states_.begin(), states_.end(), row.Obs<double>(0));
        return;
      }
      std::size_t offset = 0;
      for (std::size_t j = 0; j + 1 < state_keys_.size(); ++j) {
        const std::size_t size = state_keys_[j];
        double* out = row.Obs<double>(static_cast<int>(j));
        for (int t = 0; t < frame_stack_; ++t) {
          std::copy_n(states_.begin() + t * n + offset, size, out + t * size);
        }
        offset += size;
      }
      return;
    }
    Observation obs = Observation::Writer(row, flat_);
    GetObservation(obs);
  }

  // get_state / set_state: the model (tasks move targets, recolour and
  // redraw it between episodes), the whole data, the random state, the
  // step count, the reset state reported and the stacked frames or states.
  // A task adds its own fields (ENVPOOL_LITE_STATE_AFTER).
  void SaveState(StateWriter& out) const override {
    mujoco_state::SaveModel(model_.get(), out);
    mujoco_state::SaveData(data_.get(), out);
    out(random_, inner_steps_, reset_state_.fields, frames_, states_,
        state_keys_);
  }
  void LoadState(StateReader& in) override {
    mujoco_state::LoadModel(model_.get(), in);
    mujoco_state::LoadData(data_.get(), in);
    in(random_, inner_steps_, reset_state_.fields, frames_, states_,
       state_keys_);
  }

  // render(): physics.render(render_height, render_width, render_camera_id).
  void Render(uint8_t* rgb) override {
    RendererOrMake().Render(model_.get(), data_.get(), render_height_,
                            render_width_, render_camera_id_, rgb);
  }

  // The spec: float64 observation keys (read from a first reset), float64
  // actions in the actuators' ctrlrange (-inf/inf where unlimited, as
  // dm_control's action_spec), float64 rewards, the step limit from
  // time_limit.
  EnvSpec MakeSpecFromEnv() {
    Reset();
    Observation rec = Observation::Recorder();
    GetObservation(rec);
    EnvSpec spec;
    // frame_stack without pixels: (frame_stack, *shape) per key.
    auto stacked = [&](std::vector<int64_t> shape) {
      if (StackStates()) shape.insert(shape.begin(), frame_stack_);
      return shape;
    };
    if (from_pixels_) {
      spec.obs_dict.push_back(MakeBox<uint8_t>(
          "pixels", {3 * frame_stack_, img_height_, img_width_}, {0}, {255}));
    } else if (flat_) {
      // One array (a Box for the gymnasium face), named by dm_control's key.
      int64_t n = 0;
      for (const auto& k : rec.keys()) n += static_cast<int64_t>(k.size);
      spec.obs = MakeBox<double>("observations", stacked({n}), {}, {});
    } else {
      for (const auto& k : rec.keys()) {
        spec.obs_dict.push_back(
            MakeBox<double>(k.name, stacked(k.shape), {}, {}));
      }
    }
    std::vector<double> lo, hi;
    for (int i = 0; i < model_->nu; ++i) {
      const bool limited = model_->actuator_ctrllimited[i] != 0;
      lo.push_back(limited ? model_->actuator_ctrlrange[2 * i] : -kInf);
      hi.push_back(limited ? model_->actuator_ctrlrange[2 * i + 1] : kInf);
    }
    spec.action = MakeBox<double>("action", {model_->nu}, lo, hi);
    for (const auto& [name, values] : reset_state_.fields) {
      spec.info.push_back(
          MakeBox<double>(name, {static_cast<int64_t>(values.size())}, {}, {}));
    }
    // The pool's steps: action_repeat control steps each (the last one may
    // stop early at the limit).
    spec.max_episode_steps =
        inner_limit_ == 0
            ? 0
            : (inner_limit_ + action_repeat_ - 1) / action_repeat_;
    spec.reward_float64 = true;
    spec.render_height = render_height_;
    spec.render_width = render_width_;
    return spec;
  }

 protected:
  DmcEnv(const Config& config, uint64_t seed)
      : api_(mujoco::LoadApi(config.GetString("mujoco_lib"))),
        model_(LoadModel(api_, config)),
        data_(api_.make_data(model_.get()), DataDeleter{&api_}),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))),
        np_(config.GetNamedNumbers("numpy_loops")),
        random_(CheckSeed(seed)),
        flat_(config.GetBool("flat_observation")),
        from_pixels_(config.GetBool("from_pixels")),
        action_repeat_(
            static_cast<int>(config.GetInt("action_repeat", 1, 1000000))),
        frame_stack_(static_cast<int>(config.GetInt("frame_stack", 1, 64))),
        reports_reset_state_(config.GetBool("report_reset_state")),
        mujoco_lib_(config.GetString("mujoco_lib")),
        gl_backend_(config.GetString("gl_backend")) {
    if (!data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
    // Pictures: at most MuJoCo's offscreen buffer (dm_control's Camera
    // checks), of a camera the model has (-1: the free camera).
    const int off_w = model_->vis.global.offwidth;
    const int off_h = model_->vis.global.offheight;
    auto size = [&](const char* name, int limit, const char* xml) {
      const int64_t v = config.GetInt(name);
      if (v < 1 || v > limit) {
        throw std::invalid_argument(
            std::string(name) + " must be in [1, " + std::to_string(limit) +
            "] (the model's offscreen framebuffer: <visual><global " + xml +
            "=.../></visual>), got " + std::to_string(v));
      }
      return static_cast<int>(v);
    };
    auto camera = [&](const char* name) {
      const int64_t v = config.GetInt(name);
      if (v < -1 || v >= model_->ncam) {
        throw std::invalid_argument(
            std::string(name) + ": the model has " +
            std::to_string(model_->ncam) + " fixed cameras (ids 0 to " +
            std::to_string(model_->ncam - 1) + ", -1: the free camera); got " +
            std::to_string(v));
      }
      return static_cast<int>(v);
    };
    render_height_ = size("render_height", off_h, "offheight");
    render_width_ = size("render_width", off_w, "offwidth");
    render_camera_id_ = camera("render_camera_id");
    if (from_pixels_) {
      img_height_ = size("img_height", off_h, "offheight");
      img_width_ = size("img_width", off_w, "offwidth");
      camera_id_ = camera("camera_id");
      if (flat_) {
        throw std::invalid_argument(
            "from_pixels and flat_observation: the pixels are the whole "
            "observation");
      }
      frames_.assign(FrameSize() * frame_stack_, 0);
      RendererOrMake();  // a clear error at make() if it cannot draw
    }
    // Environment.__init__: n_sub_steps, or control_timestep / timestep
    // (compute_n_steps), and the step limit time_limit / (timestep x
    // n_sub_steps): the episode ends at the first step count >= it.
    const double timestep = model_->opt.timestep;
    const int64_t n_sub_steps = config.GetInt("n_sub_steps", 0, 1000000);
    const double control_timestep =
        config.GetFloat("control_timestep", 0.0, kInf);
    // (A task with its own control timestep passes it to Environment, so
    // n_sub_steps is refused there, as dm_control refuses it.)
    if (n_sub_steps > 0 && control_timestep > 0) {
      throw std::invalid_argument(
          "Both n_sub_steps and control_timestep were supplied.");
    }
    if (n_sub_steps > 0) {
      n_sub_steps_ = static_cast<int>(n_sub_steps);
    } else if (control_timestep > 0) {
      if (control_timestep < timestep) {
        throw std::invalid_argument(
            "Control timestep (" + std::to_string(control_timestep) +
            ") cannot be smaller than physics timestep (" +
            std::to_string(timestep) + ").");
      }
      const double ratio = control_timestep / timestep;
      if (std::abs(ratio - std::nearbyint(ratio)) > 1e-8) {
        throw std::invalid_argument(
            "Control timestep (" + std::to_string(control_timestep) +
            ") must be an integer multiple of physics timestep (" +
            std::to_string(timestep) + ")");
      }
      n_sub_steps_ = static_cast<int>(std::nearbyint(ratio));
    }
    const double time_limit = config.GetFloat("time_limit", 0.0, kInf);
    if (!(time_limit > 0)) {
      throw std::invalid_argument("time_limit must be > 0 seconds");
    }
    // max_episode_steps (EnvPool's) counts the pool's steps, each
    // action_repeat control steps. It is what dm_control's time_limit =
    // n x control_timestep means, except where that product, divided back by
    // the control timestep in floating point, lands just above n (about 7%
    // of n at a 0.01 s timestep: 7, 14, 28, ...): dm_control then runs n + 1
    // steps; the count here is n (docs/families/dm_control.md).
    const int64_t max_steps = config.GetInt(
        "max_episode_steps", 0, std::numeric_limits<int32_t>::max());
    if (max_steps > 0) {
      inner_limit_ = max_steps * action_repeat_;
    } else if (std::isinf(time_limit)) {
      inner_limit_ = 0;  // no limit
    } else {
      const double limit = time_limit / (timestep * n_sub_steps_);
      inner_limit_ = static_cast<int64_t>(std::ceil(limit));
    }
  }

  // --- what a task defines ------------------------------------------------
  virtual void InitializeEpisode() = 0;
  // base.Task.before_step: ctrl = action.
  virtual void BeforeStep(const double* action) {
    std::copy(action, action + model_->nu, data_->ctrl);
  }
  virtual void AfterStep() {}
  virtual double GetReward() = 0;
  // true to end the episode, with *discount (dm_control: a termination's
  // discount; the pool's is 0 on termination).
  virtual bool GetTermination(double* discount) {
    (void)discount;
    return false;
  }
  virtual void GetObservation(Observation& obs) = 0;
  // The reset's ResetState (only with report_reset_state): EnvPool's qpos0
  // (the qpos the reset ends with), unless the task reports more or other.
  virtual void RecordResetState(ResetState& out) {
    out.Add("qpos0", data_->qpos, model_->nq);
  }
  bool reports_reset_state() const { return reports_reset_state_; }

  // EnvPool's frame_stack of state observations (without from_pixels):
  // every key stacked, oldest first, the first observation frame_stack
  // times at a reset (as DrQ's pixel stack).
  bool StackStates() const { return !from_pixels_ && frame_stack_ > 1; }

  void PushState(bool reset) {
    if (state_keys_.empty()) {  // each key's size, then their sum
      Observation rec = Observation::Recorder();
      GetObservation(rec);
      std::size_t n = 0;
      for (const auto& k : rec.keys()) {
        state_keys_.push_back(k.size);
        n += k.size;
      }
      state_keys_.push_back(n);
      states_.assign(n * frame_stack_, 0.0);
    }
    const std::size_t n = state_keys_.back();
    const auto newest = states_.begin() + (frame_stack_ - 1) * n;
    if (!reset) std::copy(states_.begin() + n, states_.end(), states_.begin());
    Observation into = Observation::Into(&*newest);
    GetObservation(into);
    if (reset) {
      for (int t = 0; t + 1 < frame_stack_; ++t) {
        std::copy_n(newest, n, states_.begin() + t * n);
      }
    }
  }

  // --- Physics --------------------------------------------------------------
  // Physics.step(nstep) with legacy_step: mj_step2, mj_step nstep - 1 times,
  // mj_step1 (RK4: mj_step nstep times, then mj_step1).
  void PhysicsStep(int nstep) {
    mjModel* m = model_.get();
    mjData* d = data_.get();
    if (m->opt.integrator != mjINT_RK4) {
      api_.step2(m, d);
      for (int i = 1; i < nstep; ++i) api_.step(m, d);
    } else {
      for (int i = 0; i < nstep; ++i) api_.step(m, d);
    }
    api_.step1(m, d);
  }
  // A physics step inside InitializeEpisode (cheetah's 200 settling steps):
  // dm_control checks its warnings too (the reset's check covers it).
  void ForwardWithoutActuation() {
    const int flags = model_->opt.disableflags;
    model_->opt.disableflags = flags | mjDSBL_ACTUATION;
    api_.forward(model_.get(), data_.get());
    model_->opt.disableflags = flags;
  }
  void Forward() { api_.forward(model_.get(), data_.get()); }

  // Ids by name (a missing name is a bug in the task: std::logic_error).
  int Id(mjtObj type, const char* name) const {
    const int id = api_.name2id(model_.get(), type, name);
    if (id < 0) {
      throw std::logic_error(std::string("dm_control: the model has no '") +
                             name + "'");
    }
    return id;
  }
  int BodyId(const char* name) const { return Id(mjOBJ_BODY, name); }
  int GeomId(const char* name) const { return Id(mjOBJ_GEOM, name); }
  int SiteId(const char* name) const { return Id(mjOBJ_SITE, name); }
  int JointId(const char* name) const { return Id(mjOBJ_JOINT, name); }
  int SensorId(const char* name) const { return Id(mjOBJ_SENSOR, name); }
  // physics.named.data.qpos[joint] / qvel[joint]
  double* JointQpos(int joint) {
    return data_->qpos + model_->jnt_qposadr[joint];
  }
  double* JointQvel(int joint) {
    return data_->qvel + model_->jnt_dofadr[joint];
  }

  // physics.velocity(): qvel; physics.position(): qpos.
  std::vector<double> Qpos() const {
    return std::vector<double>(data_->qpos, data_->qpos + model_->nq);
  }

  // randomizers.randomize_limited_and_rotational_joints(physics, random).
  void RandomizeLimitedAndRotationalJoints() {
    const mjModel* m = model_.get();
    for (int j = 0; j < m->njnt; ++j) {
      double* q = data_->qpos + m->jnt_qposadr[j];
      const int type = m->jnt_type[j];
      const double lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
      if (m->jnt_limited[j]) {
        if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
          q[0] = random_.Uniform(lo, hi);
        } else if (type == mjJNT_BALL) {
          RandomLimitedQuaternion(hi, q);
        }
      } else if (type == mjJNT_HINGE) {
        q[0] = random_.Uniform(-kPi, kPi);
      } else if (type == mjJNT_BALL) {
        double quat[4];
        for (double& v : quat) v = random_.StandardNormal();
        const double norm = Norm(quat, 4);
        for (int i = 0; i < 4; ++i) q[i] = quat[i] / norm;
      } else if (type == mjJNT_FREE) {
        double quat[4];
        for (double& v : quat) v = random_.RandomSample();
        const double norm = Norm(quat, 4);
        for (int i = 0; i < 4; ++i) q[3 + i] = quat[i] / norm;
      }
    }
  }

  // randomizers.random_limited_quaternion(random, limit).
  void RandomLimitedQuaternion(double limit, double* quat) {
    double axis[3];
    for (double& v : axis) v = random_.StandardNormal();
    const double norm = Norm(axis, 3);
    for (double& v : axis) v /= norm;
    const double angle = random_.RandomSample() * limit;
    api_.axis_angle2quat(quat, axis, angle);
  }

  // The planar manipulator's and stacker's Physics helpers:
  // body_2d_pose: xpos x, z and xquat qw, qy.
  void BodyPose(int body, double* out) const {
    out[0] = data_->xpos[3 * body + 0];
    out[1] = data_->xpos[3 * body + 2];
    out[2] = data_->xquat[4 * body + 0];
    out[3] = data_->xquat[4 * body + 2];
  }
  // site_distance(site1, site2): np.linalg.norm(site1 - site2).
  double SiteDistance(int site1, int site2) const {
    double v[3];
    for (int i = 0; i < 3; ++i) {
      v[i] = data_->site_xpos[3 * site1 + i] - data_->site_xpos[3 * site2 + i];
    }
    return Norm(v, 3);
  }

  // np.linalg.norm of a float64 vector, as numpy computes it here.
  double Norm(const double* x, int n) const { return blas_.Norm(x, n); }
  // np.dot of two float64 vectors, as numpy computes it here.
  double Dot(const double* x, const double* y, int n) const {
    return blas_.Dot(x, y, n);
  }

  const Api& api_;
  ModelPtr model_;
  DataPtr data_;
  // numpy's BLAS: Norm, Dot, VecMat3, MatMat3 (refkit/numpy/blas.h).
  const NumpyBlas& blas_;
  NumpyMath np_;  // numpy's own exp, cos, ... (refkit/numpy/loops.h)
  NumpyRandomState random_;
  bool flat_;
  bool from_pixels_;
  int action_repeat_, frame_stack_;
  int n_sub_steps_ = 1;
  int64_t inner_limit_ = 0;  // dm_control's step limit (0: none)
  int64_t inner_steps_ = 0;  // control steps this episode

  // The renderer (made on first use), e.g. for a task that uploads a new
  // heightfield.
  mujoco::Renderer* renderer() { return renderer_.get(); }

 private:
  static ModelPtr LoadModel(const Api& api, const Config& config) {
    return mujoco::LoadModelFromString(
        api, config.GetString("model_xml"),
        config.GetStringList("model_asset_names"),
        config.GetStringList("model_asset_data"));
  }

  std::size_t FrameSize() const {
    return static_cast<std::size_t>(3) * img_height_ * img_width_;
  }

  mujoco::Renderer& RendererOrMake() {
    if (!renderer_) {
      // gl_backend, else MUJOCO_GL, else dm_control's order of the headless
      // ones.
      renderer_ =
          gl_backend_.empty()
              ? mujoco::MakeRenderer(mujoco_lib_, model_.get(), "dm_control")
              : std::make_unique<mujoco::Renderer>(mujoco_lib_, gl_backend_,
                                                   model_.get());
    }
    return *renderer_;
  }

  // Frame `slot` of the stack: physics.render(img_height, img_width,
  // camera_id), (H, W, 3) made channels-first.
  void DrawPixels(int slot) {
    hwc_.resize(FrameSize());
    RendererOrMake().Render(model_.get(), data_.get(), img_height_, img_width_,
                            camera_id_, hwc_.data());
    uint8_t* out = frames_.data() + slot * FrameSize();
    const std::size_t plane =
        static_cast<std::size_t>(img_height_) * img_width_;
    for (std::size_t p = 0; p < plane; ++p) {
      for (int c = 0; c < 3; ++c) out[c * plane + p] = hwc_[3 * p + c];
    }
  }

  bool reports_reset_state_;
  ResetState reset_state_;  // the last reset's (with report_reset_state)
  std::string mujoco_lib_, gl_backend_;
  int img_height_ = 0, img_width_ = 0, camera_id_ = 0;
  int render_height_ = 0, render_width_ = 0, render_camera_id_ = -1;
  std::unique_ptr<mujoco::Renderer> renderer_;
  std::vector<uint8_t> frames_, hwc_;
  std::vector<double> states_;  // frame_stack frames of every key, in a row
  // Each key's size, then their sum (StackStates).
  std::vector<std::size_t> state_keys_;

  // RandomState(seed) takes seeds in [0, 2**32).
  static uint32_t CheckSeed(uint64_t seed) {
    if (seed > 0xFFFFFFFFull) {
      throw std::invalid_argument(
          "dm_control: a seed must be in [0, 2**32 - 1] "
          "(numpy.random.RandomState's), got " +
          std::to_string(seed));
    }
    return static_cast<uint32_t>(seed);
  }

  // Physics.check_invalid_state: a MuJoCo warning counted during `what` is
  // a PhysicsError.
  template <typename F>
  void WithWarningsChecked(const char* what, F f) {
    int before[mjNWARNING];
    for (int i = 0; i < mjNWARNING; ++i) before[i] = data_->warning[i].number;
    f();
    std::string names;
    static const char* kNames[mjNWARNING] = {
        "mjWARN_INERTIA", "mjWARN_CONTACTFULL", "mjWARN_CNSTRFULL",
        "mjWARN_BADQPOS", "mjWARN_BADQVEL",     "mjWARN_BADQACC",
        "mjWARN_BADCTRL"};
    for (int i = 0; i < mjNWARNING; ++i) {
      if (data_->warning[i].number > before[i]) {
        names += (names.empty() ? "" : ", ") + std::string(kNames[i]);
      }
    }
    if (!names.empty()) {
      throw std::runtime_error(
          std::string("dm_control PhysicsError in ") + what +
          ": Physics state is invalid. Warning(s) raised: " + names);
    }
  }
};

// Registers a task class E (a DmcEnv with E(const Config&, uint64_t seed)
// and static Config DefaultConfig()).
template <typename E>
struct Task : E {
  using E::E;
  static EnvSpec MakeSpec(const Config& config) {
    Task env(config, 0);
    return env.MakeSpecFromEnv();
  }
};

}  // namespace dm_control
}  // namespace envpool_lite
