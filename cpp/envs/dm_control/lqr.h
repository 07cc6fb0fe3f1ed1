// dm_control/suite/lqr.py: lqr_2_1, lqr_6_2 (a chain of springs, the first
// bodies actuated, to bring to rest).
//
// The model depends on the seed: suite.load draws each joint's stiffness and
// damping (random.uniform(15, 25), random.uniform(0, 0), body by body) from
// the task's RandomState while it builds the XML, before any episode, and
// the task's episodes then continue that same stream. Python passes the
// model of random=0 (families/dm_control.py); each env redraws the values
// from its own RandomState(seed) here, at construction and at every
// re-seed (a new suite.load(random=seed)), and writes them into its mjModel:
// the XML holds them as Python's shortest repr, which MuJoCo parses back to
// the same doubles, and nothing MuJoCo compiles depends on them, so the
// model equals the one seed's XML compiles. The constructor checks that
// the random=0 draws give the loaded model's values.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dm_control/dmc_env.h"

namespace envpool_lite {
namespace dm_control {

template <int kBodies, int kActuators>
class LqrEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("lqr", kBodies == 2 ? "lqr_2_1" : "lqr_6_2", kInf, 0);
  }

  LqrEnv(const Config& config, uint64_t seed) : DmcEnv(config, seed) {
    const mjModel* m = model_.get();
    for (int b = 0; b < kBodies; ++b) {
      const std::string name = "joint_" + std::to_string(b);
      joint_[b] = JointId(name.c_str());
    }
    if (m->nq != kBodies || m->nv != kBodies || m->nu != kActuators ||
        m->na != 0 || m->nplugin != 0) {
      throw std::logic_error("dm_control lqr: unexpected model sizes");
    }
    // The loaded model is random=0's: its values are RandomState(0)'s draws.
    NumpyRandomState zero(0);
    for (int b = 0; b < kBodies; ++b) {
      const double stiffness = zero.Uniform(kStiffnessLo, kStiffnessHi);
      const double damping = zero.Uniform(kDampingLo, kDampingHi);
      if (m->jnt_stiffness[joint_[b]] != stiffness ||
          m->dof_damping[m->jnt_dofadr[joint_[b]]] != damping) {
        throw std::logic_error(
            "dm_control lqr: the model is not random=0's (stiffness, damping "
            "drawn otherwise)");
      }
    }
    DrawModel();
  }

  // A new suite.load(random=seed): the model's draws, then the episodes'.
  void Seed(uint64_t seed) override {
    DmcEnv::Seed(seed);
    DrawModel();
  }

 protected:
  void InitializeEpisode() override {
    // qpos = np.sqrt(2) * unit / np.linalg.norm(unit), unit = randn(nq).
    double unit[kBodies];
    for (double& u : unit) u = random_.StandardNormal();
    const double norm = Norm(unit, kBodies);
    const double sqrt2 = std::sqrt(2.0);
    for (int i = 0; i < kBodies; ++i) data_->qpos[i] = sqrt2 * unit[i] / norm;
  }

  double GetReward() override {
    const double state_cost = 0.5 * Dot(data_->qpos, data_->qpos, kBodies);
    const double control_l2_norm =
        0.5 * Dot(data_->ctrl, data_->ctrl, kActuators);
    return 1 - (state_cost + control_l2_norm * kControlCostCoef);
  }

  // Discount 0 when np.linalg.norm(physics.state()) (qpos, qvel) < 1e-6.
  bool GetTermination(double* discount) override {
    double state[2 * kBodies];
    std::copy(data_->qpos, data_->qpos + kBodies, state);
    std::copy(data_->qvel, data_->qvel + kBodies, state + kBodies);
    if (Norm(state, 2 * kBodies) < kTerminalTol) {
      *discount = 0.0;
      return true;
    }
    return false;
  }

  void GetObservation(Observation& obs) override {
    obs.Add("position", data_->qpos, {kBodies});
    obs.Add("velocity", data_->qvel, {kBodies});
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("qvel0", data_->qvel, model_->nv);
    out.Add("stiffness0", model_->jnt_stiffness, model_->njnt);
  }

 private:
  static constexpr double kStiffnessLo = 15, kStiffnessHi = 25;
  static constexpr double kDampingLo = 0, kDampingHi = 0;
  static constexpr double kControlCostCoef = 0.1;
  static constexpr double kTerminalTol = 1e-6;

  // _make_model's draws, body by body: stiffness, then damping.
  void DrawModel() {
    mjModel* m = model_.get();
    for (int b = 0; b < kBodies; ++b) {
      m->jnt_stiffness[joint_[b]] = random_.Uniform(kStiffnessLo, kStiffnessHi);
      m->dof_damping[m->jnt_dofadr[joint_[b]]] =
          random_.Uniform(kDampingLo, kDampingHi);
    }
  }

  int joint_[kBodies];
};

inline void RegisterLqr(Registry& registry) {
  registry.Add<Task<LqrEnv<2, 1>>>("LqrLqr21-v1");
  registry.Add<Task<LqrEnv<6, 2>>>("LqrLqr62-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
