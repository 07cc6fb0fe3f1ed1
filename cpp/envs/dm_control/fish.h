// dm_control/suite/fish.py: upright, swim.
#pragma once

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <int kTask>  // 0 upright, 1 swim
class FishEnv : public DmcEnv {
  static constexpr bool kSwim = kTask == 1;
  static constexpr const char* kJoints[7] = {
      "tail1",          "tail_twist",   "tail2",        "finright_roll",
      "finright_pitch", "finleft_roll", "finleft_pitch"};

 public:
  static Config DefaultConfig() {
    return BaseConfig("fish", kSwim ? "swim" : "upright", 40, 0.04);
  }

  FishEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        root_(JointId("root")),
        torso_(BodyId("torso")),
        mouth_(GeomId("mouth")),
        target_(GeomId("target")) {
    for (int i = 0; i < 7; ++i) joints_[i] = JointId(kJoints[i]);
  }

 protected:
  void InitializeEpisode() override {
    // A random orientation (randn(4) normalised), joints uniform(-.2, .2).
    double quat[4];
    for (double& v : quat) v = random_.StandardNormal();
    const double norm = Norm(quat, 4);
    double* root = JointQpos(root_);
    for (int i = 0; i < 4; ++i) root[3 + i] = quat[i] / norm;
    for (int j : joints_) JointQpos(j)[0] = random_.Uniform(-.2, .2);
    if (kSwim) {
      // The target's position (a model change: it stays for later episodes
      // until the next reset draws again).
      double* pos = model_->geom_pos + 3 * target_;
      pos[0] = random_.Uniform(-.4, .4);
      pos[1] = random_.Uniform(-.4, .4);
      pos[2] = random_.Uniform(.1, .3);
    } else {
      model_->geom_rgba[4 * target_ + 3] = 0;  // the target hidden
    }
  }

  double GetReward() override {
    if (!kSwim) return Tolerance(np_, Upright(), 1, 1, 1);
    const double radii =
        (0.0 + model_->geom_size[3 * mouth_]) + model_->geom_size[3 * target_];
    double target[3];
    MouthToTarget(target);
    const double in_target =
        Tolerance(np_, Norm(target, 3), 0, radii, 2 * radii);
    const double is_upright = 0.5 * (Upright() + 1);
    return (7 * in_target + is_upright) / 8;
  }

  void GetObservation(Observation& obs) override {
    double angles[7];
    for (int i = 0; i < 7; ++i) angles[i] = JointQpos(joints_[i])[0];
    obs.Add("joint_angles", angles, {7});
    obs.Add("upright", Upright());
    if (kSwim) {
      double target[3];
      MouthToTarget(target);
      obs.Add("target", target, {3});
    }
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("target0", model_->geom_pos + 3 * target_, 3);
  }

 private:
  double Upright() const { return data_->xmat[9 * torso_ + 8]; }
  // (geom_xpos[target] - geom_xpos[mouth]).dot(geom_xmat[mouth] as 3x3)
  void MouthToTarget(double* out) const {
    const double* t = data_->geom_xpos + 3 * target_;
    const double* m = data_->geom_xpos + 3 * mouth_;
    const double global[3] = {t[0] - m[0], t[1] - m[1], t[2] - m[2]};
    blas_.VecMat3(global, data_->geom_xmat + 9 * mouth_, out);
  }

  int root_;
  int torso_;
  int mouth_;
  int target_;
  int joints_[7];
};

inline void RegisterFish(Registry& registry) {
  registry.Add<Task<FishEnv<0>>>("FishUpright-v1");
  registry.Add<Task<FishEnv<1>>>("FishSwim-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
