// The MuJoCo plumbing every MuJoCo task shares, following gymnasium 1.4.0's
// gymnasium/envs/mujoco/mujoco_env.py: the model loaded from an MJCF file of
// the installed gymnasium package, mj_resetData + reset noise + mj_forward
// at reset, ctrl = action and frame_skip mj_steps (then
// mj_rnePostConstraint, which fills cfrc_ext) at each step.
//
// Template argument V is the task's version: 5 and 4 are gymnasium's; 3 and
// 2 are EnvPool's -v3/-v2 ids, the v4 code with no mj_rnePostConstraint
// (EnvPool's post_constraint=False, as under mujoco-py 2's gym, where
// cfrc_ext stayed zero).
//
// The MuJoCo library (the installed `mujoco` wheel's libmujoco.so, loaded at
// run time) comes from refkit/mujoco/api.h, shared with dm_control.
#pragma once

#include <mujoco/mujoco.h>
#include <numpy/random/bitgen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "refkit/mujoco/api.h"
#include "refkit/mujoco/state.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/random.h"

// numpy's Generator.standard_normal (its ziggurat), from numpy's own random C
// library (numpy/random/lib/libnpyrandom.a), so that the draws are numpy's by
// construction.
extern "C" double random_standard_normal(bitgen_t* bitgen_state);

namespace envpool_lite {
namespace mujoco {

// Whether version V's step ends with mj_rnePostConstraint: gymnasium's v4
// and v5 do; EnvPool's v2/v3 ids do not (see above).
constexpr bool PostConstraint(int version) { return version >= 4; }

}  // namespace mujoco
namespace mujoco {

// The sizes a task's spec needs, read from its model file.
struct ModelSizes {
  int nq, nv, nu, nbody, ntendon;
  std::vector<double> ctrl_low, ctrl_high;  // actuator_ctrlrange
};

inline ModelSizes ReadModelSizes(const Config& config) {
  const Api& api = LoadApi(config.GetString("mujoco_lib"));
  ModelPtr m = LoadModel(api, config.GetString("mujoco_model"));
  ModelSizes s{m->nq, m->nv, m->nu, m->nbody, m->ntendon, {}, {}};
  for (int i = 0; i < m->nu; ++i) {
    // gymnasium: actuator_ctrlrange.astype(np.float32)
    s.ctrl_low.push_back(static_cast<float>(m->actuator_ctrlrange[2 * i]));
    s.ctrl_high.push_back(static_cast<float>(m->actuator_ctrlrange[2 * i + 1]));
  }
  return s;
}

// numpy's pairwise summation (refkit/numpy/loops.h).
using envpool_lite::PairwiseSum;

// np.sum(np.square(a)).
template <typename T>
T SumOfSquares(const T* a, int64_t n) {
  T buf[256];
  std::vector<T> heap;
  T* sq = buf;
  if (n > 256) {
    heap.resize(n);
    sq = heap.data();
  }
  for (int64_t i = 0; i < n; ++i) sq[i] = a[i] * a[i];
  return PairwiseSum(sq, n);
}

// np.clip(x, lo, hi) of a float64 (NaN stays NaN).
inline double Clip(double x, double lo, double hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

// A range option ((low, high), as gymnasium's tuple options).
struct Range {
  double low, high;
};

inline Range GetRange(const Config& config, const std::string& name) {
  auto [lo, hi] = config.GetFloatPair(name);
  if (lo > hi) {
    throw std::invalid_argument("option '" + name +
                                "' must be (low, high) with low <= high");
  }
  return {lo, hi};
}

// Info fields, typed as gymnasium's values are (np.float64 mostly; float32
// where gymnasium's is a float32 action's cost; int64 for a Python int).
inline ArraySpec F64(const char* name, int64_t n = 0) {
  return n ? MakeBox<double>(name, {n}, {}, {}) : MakeScalar<double>(name);
}
inline ArraySpec F32(const char* name) { return MakeScalar<float>(name); }
inline ArraySpec I64(const char* name) { return MakeScalar<int64_t>(name); }

// The envpool module's hook (an internal option, not from make()):
// EnvPool's info["qpos0"] and info["qvel0"], the state the last reset set,
// which EnvPool's alignment tests copy into their reference.
inline bool ReportsResetState(const Config& config) {
  return config.Has("report_reset_state") &&
         config.GetBool("report_reset_state");
}

// A MuJoCo task's spec: float64 observation (unbounded), float32 action in
// the actuators' ctrlrange (as gymnasium's), float64 rewards.
inline EnvSpec MakeMujocoSpec(const Config& config, const ModelSizes& s,
                              int64_t obs_size, std::vector<ArraySpec> info) {
  if (ReportsResetState(config)) {
    info.push_back(F64("qpos0", s.nq));
    info.push_back(F64("qvel0", s.nv));
  }
  EnvSpec spec;
  spec.obs = MakeBox<double>("obs", {obs_size}, {}, {});
  spec.action = MakeBox<float>("action", {s.nu}, s.ctrl_low, s.ctrl_high);
  spec.info = std::move(info);
  spec.max_episode_steps = config.GetInt("max_episode_steps");
  spec.reward_float64 = true;
  return spec;
}

// The base of every MuJoCo task: model, data, the generator, reset and step.
class MujocoEnv : public Env {
 public:
  void WriteObs(const Row& row) override {
    WriteObservation(row.Obs<double>());
    for (std::size_t i = 0; i < info_specs_.size(); ++i) {
      const ArraySpec& spec = info_specs_[i];
      const double* v = info_.data() + info_offset_[i];
      const std::size_t n = spec.NumElements();
      for (std::size_t k = 0; k < n; ++k) {
        switch (spec.dtype) {
          case DType::kFloat32:
            row.Info<float>(static_cast<int>(i))[k] = static_cast<float>(v[k]);
            break;
          case DType::kInt64:
            row.Info<int64_t>(static_cast<int>(i))[k] =
                static_cast<int64_t>(v[k]);
            break;
          default:
            row.Info<double>(static_cast<int>(i))[k] = v[k];
        }
      }
    }
    if (reports_reset_state_) {  // after the task's own fields
      const int n = static_cast<int>(info_specs_.size());
      std::copy(reset_qpos_.begin(), reset_qpos_.end(), row.Info<double>(n));
      std::copy(reset_qvel_.begin(), reset_qvel_.end(),
                row.Info<double>(n + 1));
    }
  }

 protected:
  virtual void WriteObservation(double* obs) const = 0;

  // The info fields (EnvSpec::info); their values start at 0 at each reset.
  void SetInfoSpecs(const std::vector<ArraySpec>& specs) {
    info_specs_ = specs;
    std::size_t offset = 0;
    for (const ArraySpec& s : specs) {
      info_offset_.push_back(offset);
      offset += s.NumElements();
    }
    info_.assign(offset, 0.0);
  }
  void ClearInfo() { std::fill(info_.begin(), info_.end(), 0.0); }
  void SetInfo(const char* name, double value) { SetInfo(name, &value, 1); }
  void SetInfo(const char* name, const double* values, int n) {
    for (std::size_t i = 0; i < info_specs_.size(); ++i) {
      if (info_specs_[i].name == name) {
        std::copy(values, values + n, info_.begin() + info_offset_[i]);
        return;
      }
    }
  }

  MujocoEnv(const Config& config, uint64_t seed, int frame_skip)
      : api_(LoadApi(config.GetString("mujoco_lib"))),
        model_(LoadModel(api_, config.GetString("mujoco_model"))),
        data_(api_.make_data(model_.get()), DataDeleter{&api_}),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))),
        frame_skip_(frame_skip),
        rng_(seed) {
    if (!data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
    reports_reset_state_ = ReportsResetState(config);
    // gymnasium: init_qpos / init_qvel are data.qpos / qvel right after
    // MjData(model), i.e. qpos0 and zeros.
    init_qpos_.assign(data_->qpos, data_->qpos + model_->nq);
    init_qvel_.assign(data_->qvel, data_->qvel + model_->nv);
    // self.dt = model.opt.timestep * frame_skip
    dt_ = model_->opt.timestep * static_cast<double>(frame_skip_);
  }

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // get_state / set_state: the model (Adroit moves its targets in it), the
  // whole data, the generator, the info of the last step and the reset
  // state reported. A task adds its own fields (ENVPOOL_LITE_STATE_AFTER).
  void SaveState(StateWriter& out) const override {
    mujoco_state::SaveModel(model_.get(), out);
    mujoco_state::SaveData(data_.get(), out);
    out(rng_, info_, reset_qpos_, reset_qvel_);
  }
  void LoadState(StateReader& in) override {
    mujoco_state::LoadModel(model_.get(), in);
    mujoco_state::LoadData(data_.get(), in);
    in(rng_, info_, reset_qpos_, reset_qvel_);
  }

  // What gymnasium's render() draws from: mjv_updateScene reads the
  // kinematics the last step left in the data (not recomputed from qpos; an
  // mj_forward on the final qpos differs from them in the last digits), so
  // the Python renderer gets those fields, in this order, and writes them
  // into gymnasium's own env before drawing (mujoco.MujocoRenderer).
  std::vector<double> RenderState() const override {
    return RenderStateOf(model_.get(), data_.get(), /*full=*/false);
  }

 protected:
  // mujoco.mj_resetData, before reset_model().
  void ResetData() { api_.reset_data(model_.get(), data_.get()); }

  // set_state(qpos, qvel): copy, then mj_forward.
  void SetState(const std::vector<double>& qpos,
                const std::vector<double>& qvel) {
    std::memcpy(data_->qpos, qpos.data(), sizeof(double) * model_->nq);
    std::memcpy(data_->qvel, qvel.data(), sizeof(double) * model_->nv);
    api_.forward(model_.get(), data_.get());
    if (reports_reset_state_) {  // reset_model's set_state: the reset state
      reset_qpos_ = qpos;
      reset_qvel_ = qvel;
    }
  }

  // do_simulation(action, frame_skip): ctrl[:] = action (float32 ->
  // float64), mj_step frame_skip times, then mj_rnePostConstraint.
  // gymnasium calls the last after every step; it only fills cacc, cfrc_int
  // and cfrc_ext, which mj_step never reads back (sensors that need them
  // compute them inside mj_step), so a task that reads none of them skips
  // it (2-3% of a HalfCheetah step) and stays bit-exact. The v2/v3 ids
  // never call it (PostConstraint).
  void DoSimulation(const float* action) {
    for (int i = 0; i < model_->nu; ++i) {
      data_->ctrl[i] = static_cast<double>(action[i]);
    }
    for (int i = 0; i < frame_skip_; ++i) api_.step(model_.get(), data_.get());
    if (reads_cfrc_ext_) api_.rne_post_constraint(model_.get(), data_.get());
  }

  // init + self.np_random.uniform(low, high, size=n): n draws in order;
  // `noise_first` for `uniform(...) + init` (Reacher), the same sum.
  std::vector<double> PlusUniform(const std::vector<double>& init, double low,
                                  double high) {
    std::vector<double> out(init.size());
    for (std::size_t i = 0; i < init.size(); ++i) {
      out[i] = init[i] + rng_.Uniform(low, high);
    }
    return out;
  }

  // init + scale * self.np_random.standard_normal(n).
  std::vector<double> PlusScaledNormal(const std::vector<double>& init,
                                       double scale) {
    std::vector<double> out(init.size());
    for (std::size_t i = 0; i < init.size(); ++i) {
      out[i] = init[i] + scale * StandardNormal();
    }
    return out;
  }

  // init + self.np_random.standard_normal(n) * scale.
  std::vector<double> PlusNormalScaled(const std::vector<double>& init,
                                       double scale) {
    std::vector<double> out(init.size());
    for (std::size_t i = 0; i < init.size(); ++i) {
      out[i] = init[i] + StandardNormal() * scale;
    }
    return out;
  }

  // Generator.standard_normal(): numpy's own code on our PCG64 stream.
  double StandardNormal() {
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
    return random_standard_normal(&bitgen);
  }

  int BodyId(const char* name) const {
    int id = api_.name2id(model_.get(), mjOBJ_BODY, name);
    if (id < 0) {
      throw std::invalid_argument(
          std::string("MuJoCo: the model has no body '") + name + "'");
    }
    return id;
  }
  // data.body(id).xpos
  const double* BodyXpos(int id) const { return data_->xpos + 3 * id; }

  // np.linalg.norm(x) of a 2- or 3-vector, as numpy computes it here.
  double Norm(const double* x, int n) const { return blas_.Norm(x, n); }

  // np.isfinite(concatenate(qpos, qvel)).all()
  bool StateFinite() const {
    for (int i = 0; i < model_->nq; ++i) {
      if (!std::isfinite(data_->qpos[i])) return false;
    }
    for (int i = 0; i < model_->nv; ++i) {
      if (!std::isfinite(data_->qvel[i])) return false;
    }
    return true;
  }

  std::vector<ArraySpec> info_specs_;
  std::vector<std::size_t> info_offset_;
  std::vector<double> info_;
  const Api& api_;
  ModelPtr model_;
  DataPtr data_;
  const NumpyBlas& blas_;  // numpy's ddot (refkit/numpy/blas.h)
  int frame_skip_;
  bool reads_cfrc_ext_ = true;  // the task reads cfrc_ext (see DoSimulation)
  NumpyRandom rng_;
  std::vector<double> init_qpos_, init_qvel_;
  double dt_ = 0.0;
  bool reports_reset_state_ = false;  // the envpool module's qpos0 / qvel0
  std::vector<double> reset_qpos_, reset_qvel_;
};

// Common option checks.
inline int64_t GetFrameSkip(const Config& config) {
  return config.GetInt("frame_skip", 1, 1000000);
}
inline double GetNoiseScale(const Config& config) {
  return config.GetFloat("reset_noise_scale", 0.0,
                         std::numeric_limits<double>::max());
}

}  // namespace mujoco
}  // namespace envpool_lite
