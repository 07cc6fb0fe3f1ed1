// dm_control/suite/humanoid.py: stand, walk, run, run_pure_state (and the
// shared body of humanoid_CMU.py, whose task is the same on another model).
#pragma once

#include <string>
#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

// numpy's float64 add.reduce of a contiguous 1-D array: 0 plus the pairwise
// sum (refkit/numpy/loops.h).
inline double NumpySum(const double* a, int n) {
  return 0.0 + PairwiseSum(a, n);
}

// The humanoid and humanoid_CMU models' names.
struct HumanoidNames {
  const char* domain;
  const char* torso;  // the body of the egocentric frame
  const char* subtreelinvel;
  const char* extremities[4];  // left hand, left foot, right hand, right foot
  int upright_index;           // the torso's xmat entry of uprightness
  double time_limit;
  double control_timestep;
};

inline constexpr HumanoidNames kHumanoid{
    "humanoid",
    "torso",
    "torso_subtreelinvel",
    {"left_hand", "left_foot", "right_hand", "right_foot"},
    8,  // zz
    25,
    0.025};

// kTask: 0 stand, 1 walk, 2 run, 3 run_pure_state.
template <const HumanoidNames& kNames, int kTask>
class HumanoidEnv : public DmcEnv {
  static constexpr double kMoveSpeed[4] = {0, 1, 10, 10};  // _WALK/_RUN_SPEED
  static constexpr bool kPureState = kTask == 3;

 public:
  static Config DefaultConfig() {
    static const char* kTaskNames[4] = {"stand", "walk", "run",
                                        "run_pure_state"};
    return BaseConfig(kNames.domain, kTaskNames[kTask], kNames.time_limit,
                      kNames.control_timestep);
  }

  HumanoidEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        torso_(BodyId(kNames.torso)),
        head_(BodyId("head")),
        subtreelinvel_(model_->sensor_adr[SensorId(kNames.subtreelinvel)]) {
    for (int i = 0; i < 4; ++i) extremities_[i] = BodyId(kNames.extremities[i]);
  }

 protected:
  void InitializeEpisode() override {
    // A collision-free random configuration: randomize, mj_forward without
    // actuation (Physics.after_reset), again while there are contacts.
    do {
      RandomizeLimitedAndRotationalJoints();
      ForwardWithoutActuation();
    } while (data_->ncon > 0);
  }

  double GetReward() override {
    const double standing =
        Tolerance(np_, HeadHeight(), kStandHeight, kInf, kStandHeight / 4);
    const double upright =
        Tolerance(np_, data_->xmat[9 * torso_ + kNames.upright_index], 0.9,
                  kInf, 1.9, Sigmoid::kLinear, 0);
    const double stand_reward = standing * upright;
    // tolerance(control, margin=1, value_at_margin=0, 'quadratic').mean():
    // an array, so scaled_x ** 2 is scaled_x * scaled_x.
    const int nu = model_->nu;
    control_tol_.resize(nu);
    for (int i = 0; i < nu; ++i) {
      const double x = data_->ctrl[i];
      const double d = (x < 0 ? 0 - x : x - 0) / 1.0;
      const double scaled = d * 1.0;  // np.sqrt(1 - 0)
      const double sig = std::abs(scaled) < 1 ? 1 - scaled * scaled : 0.0;
      control_tol_[i] = (0 <= x && x <= 0) ? 1.0 : sig;
    }
    double small_control = NumpySum(control_tol_.data(), nu) / nu;
    small_control = (4 + small_control) / 5;
    const double* com_vel = data_->sensordata + subtreelinvel_;
    const double move_speed = kMoveSpeed[kTask];
    if (move_speed == 0) {
      // tolerance(com_velocity[[0, 1]], margin=2).mean(): gaussian on an
      // array.
      const double scale = std::sqrt(-2 * np_.Log(0.1));
      double v[2];
      for (int i = 0; i < 2; ++i) {
        const double x = com_vel[i];
        const double d = (x < 0 ? 0 - x : x - 0) / 2.0;
        const double y = d * scale;
        const double sig = np_.Exp(-0.5 * (y * y));
        v[i] = (0 <= x && x <= 0) ? 1.0 : sig;
      }
      const double dont_move = NumpySum(v, 2) / 2;
      return small_control * stand_reward * dont_move;
    }
    const double com_velocity = Norm(com_vel, 2);
    double move = Tolerance(np_, com_velocity, move_speed, kInf, move_speed,
                            Sigmoid::kLinear, 0);
    move = (5 * move + 1) / 6;
    return small_control * stand_reward * move;
  }

  void GetObservation(Observation& obs) override {
    if (kPureState) {
      obs.Add("position", data_->qpos, {model_->nq});
      obs.Add("velocity", data_->qvel, {model_->nv});
      return;
    }
    obs.Add("joint_angles", data_->qpos + 7, {model_->nq - 7});
    obs.Add("head_height", HeadHeight());
    // extremities: (xpos[limb] - xpos[torso]).dot(xmat[torso] as 3x3).
    const double* frame = data_->xmat + 9 * torso_;
    const double* torso_pos = data_->xpos + 3 * torso_;
    double extremities[12];
    for (int k = 0; k < 4; ++k) {
      const double* limb = data_->xpos + 3 * extremities_[k];
      double torso_to_limb[3];
      for (int i = 0; i < 3; ++i) torso_to_limb[i] = limb[i] - torso_pos[i];
      blas_.VecMat3(torso_to_limb, frame, extremities + 3 * k);
    }
    obs.Add("extremities", extremities, {12});
    obs.Add("torso_vertical", data_->xmat + 9 * torso_ + 6, {3});
    obs.Add("com_velocity", data_->sensordata + subtreelinvel_, {3});
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

 private:
  static constexpr double kStandHeight = 1.4;
  double HeadHeight() const { return data_->xpos[3 * head_ + 2]; }

  int torso_;
  int head_;
  int subtreelinvel_;
  int extremities_[4];
  std::vector<double> control_tol_;
};

inline void RegisterHumanoid(Registry& registry) {
  registry.Add<Task<HumanoidEnv<kHumanoid, 0>>>("HumanoidStand-v1");
  registry.Add<Task<HumanoidEnv<kHumanoid, 1>>>("HumanoidWalk-v1");
  registry.Add<Task<HumanoidEnv<kHumanoid, 2>>>("HumanoidRun-v1");
  registry.Add<Task<HumanoidEnv<kHumanoid, 3>>>("HumanoidRunPureState-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
