// The MuJoCo plumbing every MuJoCo task shares, following gymnasium 1.4.0's
// gymnasium/envs/mujoco/mujoco_env.py: the model loaded from an MJCF file of
// the installed gymnasium package, mj_resetData + reset noise + mj_forward
// at reset, ctrl = action and frame_skip mj_steps (then
// mj_rnePostConstraint, which fills cfrc_ext) at each step.
//
// The MuJoCo library is the installed `mujoco` wheel's libmujoco.so, loaded
// at run time (dlopen) from the path Python passes in the "mujoco_lib"
// option, and checked to be the version whose headers this build used.
#pragma once

#include <dlfcn.h>
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
#include "core/np_random.h"

// numpy's Generator.standard_normal (its ziggurat), from numpy's own random C
// library (numpy/random/lib/libnpyrandom.a), so that the draws are numpy's by
// construction.
extern "C" double random_standard_normal(bitgen_t* bitgen_state);

namespace envpool_lite {
namespace mujoco {

// The functions of libmujoco that the envs call.
struct Api {
  decltype(&::mj_version) version = nullptr;
  decltype(&::mj_versionString) version_string = nullptr;
  decltype(&::mj_loadXML) load_xml = nullptr;
  decltype(&::mj_deleteModel) delete_model = nullptr;
  decltype(&::mj_makeData) make_data = nullptr;
  decltype(&::mj_deleteData) delete_data = nullptr;
  decltype(&::mj_resetData) reset_data = nullptr;
  decltype(&::mj_forward) forward = nullptr;
  decltype(&::mj_step) step = nullptr;
  decltype(&::mj_rnePostConstraint) rne_post_constraint = nullptr;
  decltype(&::mj_name2id) name2id = nullptr;
};

// Loads libmujoco from `path` once per process (later calls must name the
// same file) and checks its version against the headers'.
inline const Api& LoadApi(const std::string& path) {
  static std::mutex mutex;
  static Api api;
  static std::string loaded_path;
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded_path.empty()) return api;
  if (path.empty()) {
    throw std::invalid_argument(
        "MuJoCo: no libmujoco path given (make() finds it in the installed "
        "mujoco package)");
  }
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    throw std::invalid_argument(
        "MuJoCo: cannot load " + path + ": " + (err ? err : "unknown error") +
        "; envpool_lite needs mujoco==" + ENVPOOL_LITE_MUJOCO_VERSION);
  }
  Api a;
  auto sym = [&](const char* name) {
    void* p = dlsym(handle, name);
    if (p == nullptr) {
      throw std::invalid_argument(
          std::string("MuJoCo: ") + path + " has no " + name +
          "; envpool_lite needs mujoco==" + ENVPOOL_LITE_MUJOCO_VERSION);
    }
    return p;
  };
#define ENVPOOL_LITE_MJ_SYM(field, name) \
  a.field = reinterpret_cast<decltype(a.field)>(sym(#name))
  ENVPOOL_LITE_MJ_SYM(version, mj_version);
  ENVPOOL_LITE_MJ_SYM(version_string, mj_versionString);
  ENVPOOL_LITE_MJ_SYM(load_xml, mj_loadXML);
  ENVPOOL_LITE_MJ_SYM(delete_model, mj_deleteModel);
  ENVPOOL_LITE_MJ_SYM(make_data, mj_makeData);
  ENVPOOL_LITE_MJ_SYM(delete_data, mj_deleteData);
  ENVPOOL_LITE_MJ_SYM(reset_data, mj_resetData);
  ENVPOOL_LITE_MJ_SYM(forward, mj_forward);
  ENVPOOL_LITE_MJ_SYM(step, mj_step);
  ENVPOOL_LITE_MJ_SYM(rne_post_constraint, mj_rnePostConstraint);
  ENVPOOL_LITE_MJ_SYM(name2id, mj_name2id);
#undef ENVPOOL_LITE_MJ_SYM
  if (a.version() != mjVERSION_HEADER) {
    throw std::invalid_argument(
        std::string("MuJoCo: ") + path + " is MuJoCo " + a.version_string() +
        ", envpool_lite was built for mujoco==" + ENVPOOL_LITE_MUJOCO_VERSION +
        " (pip install mujoco==" + ENVPOOL_LITE_MUJOCO_VERSION + ")");
  }
  api = a;
  loaded_path = path;
  return api;
}

struct ModelDeleter {
  const Api* api;
  void operator()(mjModel* m) const { api->delete_model(m); }
};
struct DataDeleter {
  const Api* api;
  void operator()(mjData* d) const { api->delete_data(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// mj_loadXML of the model file (serialised: MuJoCo's XML parser is not
// documented as thread-safe, and envs are built from several threads).
inline ModelPtr LoadModel(const Api& api, const std::string& path) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  char error[1024] = {0};
  mjModel* m = api.load_xml(path.c_str(), nullptr, error, sizeof(error));
  if (m == nullptr) {
    throw std::invalid_argument("MuJoCo: cannot load model " + path + ": " +
                                error);
  }
  return ModelPtr(m, ModelDeleter{&api});
}

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

// numpy's pairwise summation (np.sum / ndarray.sum over a contiguous array,
// and np.add.reduce): below 8 elements a plain loop, up to 128 eight
// accumulators combined pairwise, above that halves recursively.
template <typename T>
T PairwiseSum(const T* a, int64_t n) {
  if (n < 8) {
    T res = 0;
    for (int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(a, n2) + PairwiseSum(a + n2, n - n2);
}

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

// np.linalg.norm(x) of a float64 vector is sqrt(x.dot(x)), and numpy's dot
// is its BLAS's ddot. numpy's wheels bundle OpenBLAS, which picks a kernel
// for the CPU at run time: some (Haswell, Zen) sum with fused multiply-adds,
// others do not, so the last bit of a norm depends on the machine. To equal
// numpy's on every machine, Norm calls that same ddot, from the library
// numpy loaded, whose path Python passes in the "numpy_blas" option
// (envpool_lite.families.mujoco.numpy_blas_path). Without one (""), it sums
// plain products in order, which is numpy's where the kernel has no FMA.
// OpenBLAS's ddot names: 64-bit ints first (numpy >= 2's scipy-openblas64).
using Ddot64 = double (*)(int64_t n, const double* x, int64_t incx,
                          const double* y, int64_t incy);
using Ddot32 = double (*)(int32_t n, const double* x, int32_t incx,
                          const double* y, int32_t incy);
struct NumpyDdot {
  Ddot64 ddot64 = nullptr;
  Ddot32 ddot32 = nullptr;
};

inline NumpyDdot LoadNumpyDdot(const std::string& path) {
  static std::mutex mutex;
  static NumpyDdot ddot;
  static std::string loaded_path;
  std::lock_guard<std::mutex> lock(mutex);
  if (path.empty() || path == loaded_path) return ddot;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    throw std::runtime_error("MuJoCo: cannot load numpy's BLAS (" + path +
                             "): " + dlerror());
  }
  NumpyDdot found;
  for (const char* name : {"scipy_cblas_ddot64_", "cblas_ddot64_"}) {
    if (void* f = dlsym(handle, name)) {
      found.ddot64 = reinterpret_cast<Ddot64>(f);
      break;
    }
  }
  if (found.ddot64 == nullptr) {
    for (const char* name : {"scipy_cblas_ddot", "cblas_ddot"}) {
      if (void* f = dlsym(handle, name)) {
        found.ddot32 = reinterpret_cast<Ddot32>(f);
        break;
      }
    }
  }
  if (found.ddot64 == nullptr && found.ddot32 == nullptr) {
    throw std::runtime_error("MuJoCo: numpy's BLAS (" + path +
                             ") has no cblas_ddot");
  }
  ddot = found;
  loaded_path = path;
  return ddot;
}

// np.linalg.norm of a 2- or 3-vector (see above).
inline double Norm(const NumpyDdot& ddot, const double* x, int n) {
  if (ddot.ddot64 != nullptr) return std::sqrt(ddot.ddot64(n, x, 1, x, 1));
  if (ddot.ddot32 != nullptr) return std::sqrt(ddot.ddot32(n, x, 1, x, 1));
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return std::sqrt(s);
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

// A MuJoCo task's spec: float64 observation (unbounded), float32 action in
// the actuators' ctrlrange (as gymnasium's), float64 rewards.
inline EnvSpec MakeMujocoSpec(const Config& config, const ModelSizes& s,
                              int64_t obs_size, std::vector<ArraySpec> info) {
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
        ddot_(LoadNumpyDdot(config.GetString("numpy_blas"))),
        frame_skip_(frame_skip),
        rng_(seed) {
    if (!data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
    // gymnasium: init_qpos / init_qvel are data.qpos / qvel right after
    // MjData(model), i.e. qpos0 and zeros.
    init_qpos_.assign(data_->qpos, data_->qpos + model_->nq);
    init_qvel_.assign(data_->qvel, data_->qvel + model_->nv);
    // self.dt = model.opt.timestep * frame_skip
    dt_ = model_->opt.timestep * static_cast<double>(frame_skip_);
  }

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // What gymnasium's render() draws from: mjv_updateScene reads the
  // kinematics the last step left in the data (not recomputed from qpos; an
  // mj_forward on the final qpos differs from them in the last digits), so
  // the Python renderer gets those fields, in this order, and writes them
  // into gymnasium's own env before drawing (mujoco.MujocoRenderer).
  std::vector<double> RenderState() const override {
    const mjModel* m = model_.get();
    const mjData* d = data_.get();
    std::vector<double> out;
    auto add = [&out](const double* p, int n) {
      out.insert(out.end(), p, p + n);
    };
    add(d->xpos, 3 * m->nbody);
    add(d->xmat, 9 * m->nbody);
    add(d->subtree_com, 3 * m->nbody);
    add(d->geom_xpos, 3 * m->ngeom);
    add(d->geom_xmat, 9 * m->ngeom);
    add(d->site_xpos, 3 * m->nsite);
    add(d->site_xmat, 9 * m->nsite);
    add(d->cam_xpos, 3 * m->ncam);
    add(d->cam_xmat, 9 * m->ncam);
    add(d->light_xpos, 3 * m->nlight);
    add(d->light_xdir, 3 * m->nlight);
    return out;
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
  }

  // do_simulation(action, frame_skip): ctrl[:] = action (float32 ->
  // float64), mj_step frame_skip times, then mj_rnePostConstraint.
  // gymnasium calls the last after every step; it only fills cacc, cfrc_int
  // and cfrc_ext, which mj_step never reads back (sensors that need them
  // compute them inside mj_step), so a task that reads none of them skips
  // it (2-3% of a HalfCheetah step) and stays bit-exact.
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
  double Norm(const double* x, int n) const {
    return mujoco::Norm(ddot_, x, n);
  }

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
  NumpyDdot ddot_;
  int frame_skip_;
  bool reads_cfrc_ext_ = true;  // the task reads cfrc_ext (see DoSimulation)
  NumpyRandom rng_;
  std::vector<double> init_qpos_, init_qvel_;
  double dt_ = 0.0;
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
