// The plumbing of gymnasium-robotics 1.4.2's MuJoCo envs, shared by the
// family's tasks: the libmujoco of the installed mujoco package
// (refkit/mujoco/api.h), numpy's generator, BLAS and math loops, the
// goal-conditioned dict observation, and the helpers of
// gymnasium_robotics/utils/mujoco_utils.py, each computing what numpy
// computes there (a Jacobian times qvel is numpy's matmul, i.e. its BLAS's
// dgemv; np.linalg.norm without an axis is its ddot; with axis=-1 a plain
// sum of squares).
//
// RobotEnv follows envs/robot_env.py's MujocoRobotEnv (Fetch and Shadow
// Hand): the model loaded once per env, _env_setup run at construction, the
// state it leaves recorded (initial_time, initial_qpos, initial_qvel), and
// _reset_sim's mj_resetData + that state at each reset; a step sets the
// action, runs n_substeps mj_steps and the task's step callback.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "refkit/mujoco/api.h"
#include "refkit/mujoco/state.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/loops.h"
#include "refkit/numpy/random.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace gymnasium_robotics {

using mujoco::Api;
using mujoco::DataDeleter;
using mujoco::DataPtr;
using mujoco::LoadApi;
using mujoco::LoadModel;
using mujoco::ModelPtr;

// The options every task of the family has, filled by make() (Python):
// the library, the model file, numpy's BLAS and math loops.
inline void AddInternalOptions(Config* config) {
  config->Set("mujoco_lib", std::string());
  config->Set("mujoco_model", std::string());
  config->Set("numpy_blas", std::string());
  config->Set("numpy_loops", NamedNumbers{});
}

// reward_type: "sparse" or "dense", as gymnasium-robotics' envs take it.
inline bool IsDense(const Config& config) {
  const std::string& t = config.GetString("reward_type");
  if (t != "sparse" && t != "dense") {
    throw std::invalid_argument(
        "option 'reward_type' must be 'sparse' or 'dense', got '" + t + "'");
  }
  return t == "dense";
}

// goal_distance(a, b) = np.linalg.norm(a - b, axis=-1): the square root of
// numpy's add.reduce of the squares (a plain sum below 8 values).
inline double GoalDistance(const double* a, const double* b, int n) {
  double sq[16];
  for (int i = 0; i < n; ++i) {
    const double d = a[i] - b[i];
    sq[i] = d * d;
  }
  return std::sqrt(PairwiseSum(sq, n));
}

// The goal-conditioned observation of gymnasium_robotics' GoalEnv, its keys
// in the order of its observation_space (gymnasium's Dict sorts them):
// achieved_goal, desired_goal, observation; float64, unbounded.
inline std::vector<ArraySpec> GoalObsSpecs(int64_t goal_size,
                                           int64_t obs_size) {
  return {MakeBox<double>("achieved_goal", {goal_size}, {}, {}),
          MakeBox<double>("desired_goal", {goal_size}, {}, {}),
          MakeBox<double>("observation", {obs_size}, {}, {})};
}

// The MuJoCo model, data and numpy's helpers of one env.
class MujocoSim {
 public:
  explicit MujocoSim(const Config& config)
      : api_(LoadApi(config.GetString("mujoco_lib"))),
        model_(LoadModel(api_, config.GetString("mujoco_model"))),
        data_(api_.make_data(model_.get()), DataDeleter{&api_}),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))),
        np_(config.GetNamedNumbers("numpy_loops")) {
    if (!data_) throw std::runtime_error("MuJoCo: mj_makeData failed");
  }

  // Its part of an env's state: the model and the whole data.
  void SaveState(StateWriter& out) const {
    mujoco_state::SaveModel(m(), out);
    mujoco_state::SaveData(d(), out);
  }
  void LoadState(StateReader& in) {
    mujoco_state::LoadModel(m(), in);
    mujoco_state::LoadData(d(), in);
  }

  mjModel* m() const { return model_.get(); }
  mjData* d() const { return data_.get(); }
  const Api& api() const { return api_; }
  const NumpyBlas& blas() const { return blas_; }
  const NumpyMath& np() const { return np_; }

  void Forward() const { api_.forward(m(), d()); }
  // mujoco.mj_step(model, data, nstep=n)
  void Step(int n) const {
    for (int i = 0; i < n; ++i) api_.step(m(), d());
  }

  int Id(mjtObj type, const std::string& name) const {
    int id = api_.name2id(m(), type, name.c_str());
    if (id < 0) {
      throw std::invalid_argument("MuJoCo: the model has no object '" + name +
                                  "'");
    }
    return id;
  }
  int SiteId(const std::string& name) const { return Id(mjOBJ_SITE, name); }
  int BodyId(const std::string& name) const { return Id(mjOBJ_BODY, name); }
  int JointId(const std::string& name) const { return Id(mjOBJ_JOINT, name); }

  // The number of qpos (qvel) values of a joint, as mujoco_utils counts them
  // (note get_joint_qvel's 4 for a ball joint, kept as the reference has it).
  int JointQposSize(int joint) const {
    switch (m()->jnt_type[joint]) {
      case mjJNT_FREE:
        return 7;
      case mjJNT_BALL:
        return 4;
      default:
        return 1;
    }
  }
  double* JointQpos(int joint) const {
    return d()->qpos + m()->jnt_qposadr[joint];
  }
  double* JointQvel(int joint) const {
    return d()->qvel + m()->jnt_dofadr[joint];
  }
  // set_joint_qpos(name, values)
  void SetJointQpos(const std::string& name,
                    const std::vector<double>& values) const {
    int j = JointId(name);
    if (static_cast<int>(values.size()) != JointQposSize(j) &&
        values.size() != 1) {
      throw std::invalid_argument("MuJoCo: joint '" + name + "' takes " +
                                  std::to_string(JointQposSize(j)) +
                                  " qpos values");
    }
    double* q = JointQpos(j);
    for (int i = 0; i < JointQposSize(j); ++i) {
      q[i] = values.size() == 1 ? values[0] : values[i];
    }
  }

  // The names of all joints, in id order.
  std::vector<std::string> JointNames() const {
    std::vector<std::string> out;
    for (int j = 0; j < m()->njnt; ++j) {
      const char* n = api_.id2name(m(), mjOBJ_JOINT, j);
      out.emplace_back(n == nullptr ? "" : n);
    }
    return out;
  }

  const double* SiteXpos(int site) const { return d()->site_xpos + 3 * site; }
  const double* SiteXmat(int site) const { return d()->site_xmat + 9 * site; }

  // get_site_xvelp / get_site_xvelr: mj_jacSite's (3, nv) Jacobian @ qvel.
  void SiteXvelp(int site, double* out) const { SiteVel(site, true, out); }
  void SiteXvelr(int site, double* out) const { SiteVel(site, false, out); }

  // reset_mocap_welds: every weld's eq_data[:7] = (0,0,0, 1,0,0,0)... as
  // the reference writes it, [0, 0, 0, 0, 0, 0, 1], then mj_forward.
  void ResetMocapWelds() const {
    if (m()->nmocap > 0) {
      for (int i = 0; i < m()->neq; ++i) {
        if (m()->eq_type[i] == mjEQ_WELD) {
          double* e = m()->eq_data + mjNEQDATA * i;
          const double v[7] = {0, 0, 0, 0, 0, 0, 1};
          std::copy(v, v + 7, e);
        }
      }
    }
    Forward();
  }

  // reset_mocap2body_xpos: each weld's mocap body moved onto its body.
  void ResetMocap2BodyXpos() const {
    for (int i = 0; i < m()->neq; ++i) {
      if (m()->eq_type[i] != mjEQ_WELD) continue;
      int obj1 = m()->eq_obj1id[i], obj2 = m()->eq_obj2id[i];
      int mocap = m()->body_mocapid[obj1];
      int body = obj2;
      if (mocap == -1) {
        mocap = m()->body_mocapid[obj2];
        body = obj1;
      }
      if (mocap == -1) throw std::runtime_error("MuJoCo: weld without mocap");
      std::copy(d()->xpos + 3 * body, d()->xpos + 3 * body + 3,
                d()->mocap_pos + 3 * mocap);
      std::copy(d()->xquat + 4 * body, d()->xquat + 4 * body + 4,
                d()->mocap_quat + 4 * mocap);
    }
  }

  // ctrl_set_action(action) then mocap_set_action(action) of mujoco_utils:
  // the first nmocap*7 values move the mocap bodies (position deltas and
  // quaternion *added*, as the reference does), the rest drive the
  // actuators (a position actuator's ctrl is qpos + action).
  void CtrlSetAction(const double* action, int n) const {
    const int skip = m()->nmocap * 7;
    const double* a = action + skip;
    for (int i = 0; i < n - skip && i < m()->nu; ++i) {
      if (m()->actuator_biastype[i] == 0) {
        d()->ctrl[i] = a[i];
      } else {
        int idx = m()->jnt_qposadr[m()->actuator_trnid[2 * i]];
        d()->ctrl[i] = d()->qpos[idx] + a[i];
      }
    }
  }
  void MocapSetAction(const double* action) const {
    if (m()->nmocap == 0) return;
    ResetMocap2BodyXpos();
    for (int k = 0; k < m()->nmocap; ++k) {
      for (int i = 0; i < 3; ++i)
        d()->mocap_pos[3 * k + i] += action[7 * k + i];
      for (int i = 0; i < 4; ++i) {
        d()->mocap_quat[4 * k + i] += action[7 * k + 3 + i];
      }
    }
  }

  // rotations.mat2euler of a row-major 3x3 matrix.
  void Mat2Euler(const double* mat, double* euler) const {
    envpool_lite::Mat2Euler(np_, mat, euler);
  }

  // np.linalg.norm of a vector (no axis): sqrt of its BLAS's ddot.
  double Norm(const double* x, int n) const { return blas_.Norm(x, n); }

 private:
  void SiteVel(int site, bool translational, double* out) const {
    jac_.assign(3 * static_cast<std::size_t>(m()->nv), 0.0);
    if (translational) {
      api_.jac_site(m(), d(), jac_.data(), nullptr, site);
    } else {
      api_.jac_site(m(), d(), nullptr, jac_.data(), site);
    }
    blas_.MatVec(jac_.data(), 3, m()->nv, d()->qvel, out);
  }

  const Api& api_;
  ModelPtr model_;
  DataPtr data_;
  const NumpyBlas& blas_;
  NumpyMath np_;
  mutable std::vector<double> jac_;
};

// robot_env.py's MujocoRobotEnv: the base of Fetch and Shadow Hand.
class RobotEnv : public Env {
 public:
  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  // get_state / set_state: the simulation, the generator and the goal; a
  // task adds its own fields (ENVPOOL_LITE_STATE_AFTER).
  ENVPOOL_LITE_STATE(sim_, rng_, goal_)

  // What gymnasium's MujocoRenderer draws from (as the mujoco family's
  // RenderState), followed by the goal the task's _render_callback shows.
  std::vector<double> RenderState() const override {
    std::vector<double> out =
        mujoco::RenderStateOf(sim_.m(), sim_.d(), /*full=*/true);
    out.insert(out.end(), goal_.begin(), goal_.end());
    return out;
  }

 protected:
  RobotEnv(const Config& config, uint64_t seed, int n_substeps)
      : sim_(config), n_substeps_(n_substeps), rng_(seed) {}

  // After _env_setup: initial_time, initial_qpos, initial_qvel.
  void RecordInitialState() {
    initial_time_ = sim_.d()->time;
    initial_qpos_.assign(sim_.d()->qpos, sim_.d()->qpos + sim_.m()->nq);
    initial_qvel_.assign(sim_.d()->qvel, sim_.d()->qvel + sim_.m()->nv);
  }

  // MujocoRobotEnv._reset_sim's first part: mj_resetData, then the recorded
  // time, qpos and qvel (and act = None, i.e. NaN, where the model has
  // activations). The caller changes what its task changes, then
  // mj_forward.
  void ResetSimState() {
    mjModel* m = sim_.m();
    mjData* d = sim_.d();
    sim_.api().reset_data(m, d);
    d->time = initial_time_;
    std::copy(initial_qpos_.begin(), initial_qpos_.end(), d->qpos);
    std::copy(initial_qvel_.begin(), initial_qvel_.end(), d->qvel);
    for (int i = 0; i < m->na; ++i) {
      d->act[i] = std::numeric_limits<double>::quiet_NaN();
    }
  }

  // _mujoco_step
  void MujocoStep() { sim_.Step(n_substeps_); }

  MujocoSim sim_;
  int n_substeps_;
  NumpyRandom rng_;
  double initial_time_ = 0.0;
  std::vector<double> initial_qpos_, initial_qvel_;
  std::vector<double> goal_;
};

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
