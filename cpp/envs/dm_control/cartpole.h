// dm_control/suite/cartpole.py: balance, balance_sparse, swingup,
// swingup_sparse, two_poles, three_poles.
#pragma once

#include <algorithm>
#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

// 0 balance, 1 balance_sparse, 2 swingup, 3 swingup_sparse, 4 two_poles,
// 5 three_poles.
template <int kTask>
class CartpoleEnv : public DmcEnv {
  static constexpr bool kSwingUp = kTask >= 2;
  static constexpr bool kSparse = kTask == 1 || kTask == 3;

 public:
  static Config DefaultConfig() {
    static const char* kNames[6] = {"balance",   "balance_sparse",
                                    "swingup",   "swingup_sparse",
                                    "two_poles", "three_poles"};
    return BaseConfig("cartpole", kNames[kTask], 10, 0);
  }

  CartpoleEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        slider_(JointId("slider")),
        hinge_1_(JointId("hinge_1")) {}

 protected:
  void InitializeEpisode() override {
    const int nv = model_->nv;
    double* qpos = data_->qpos;
    if (kSwingUp) {
      JointQpos(slider_)[0] = .01 * random_.StandardNormal();
      JointQpos(hinge_1_)[0] = kPi + .01 * random_.StandardNormal();
      for (int i = 2; i < nv; ++i) qpos[i] = .1 * random_.StandardNormal();
    } else {
      JointQpos(slider_)[0] = random_.Uniform(-.1, .1);
      for (int i = 1; i < nv; ++i) qpos[i] = random_.Uniform(-.034, .034);
    }
    for (int i = 0; i < nv; ++i) {
      data_->qvel[i] = 0.01 * random_.StandardNormal();
    }
  }

  double GetReward() override {
    const double cart = JointQpos(slider_)[0];
    const int npoles = model_->nbody - 2;
    if (kSparse) {
      const double cart_in_bounds = Tolerance(np_, cart, -.25, .25);
      // tolerance(cosines, (.995, 1)).prod(): 1 or 0 each.
      double angle_in_bounds = 1.0;
      for (int p = 0; p < npoles; ++p) {
        angle_in_bounds *= Tolerance(np_, PoleZz(p), .995, 1);
      }
      return cart_in_bounds * angle_in_bounds;
    }
    // upright.mean(): numpy's sum (left to right below 8 elements) / n.
    double upright_sum = 0.0;
    for (int p = 0; p < npoles; ++p) upright_sum += (PoleZz(p) + 1) / 2;
    const double upright = upright_sum / npoles;
    const double centered = (1 + Tolerance(np_, cart, 0, 0, 2)) / 2;
    // tolerance(control, margin=1, value_at_margin=0, 'quadratic'), an
    // array: its square is x * x (np.square).
    const double small_control = (4 + ArrayQuadratic(data_->ctrl[0])) / 5;
    // tolerance(qvel[1:], margin=5).min(), gaussian over an array.
    double small_velocity = kInf;
    for (int i = 1; i < model_->nv; ++i) {
      small_velocity = std::min(small_velocity, ArrayGaussian(data_->qvel[i]));
    }
    small_velocity = (1 + small_velocity) / 2;
    return upright * small_control * small_velocity * centered;
  }

  void GetObservation(Observation& obs) override {
    const int npoles = model_->nbody - 2;
    std::vector<double> position{JointQpos(slider_)[0]};
    for (int p = 0; p < npoles; ++p) {
      position.push_back(PoleZz(p));
      position.push_back(data_->xmat[9 * (p + 2) + 2]);
    }
    obs.Add("position", position);
    obs.Add("velocity", data_->qvel, {model_->nv});
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("qvel0", data_->qvel, model_->nv);
  }

 private:
  double PoleZz(int p) const { return data_->xmat[9 * (p + 2) + 8]; }

  // One element of tolerance(array, bounds=(0, 0), margin=1,
  // value_at_margin=0, sigmoid='quadratic').
  static double ArrayQuadratic(double x) {
    if (x == 0) return 1.0;
    const double scaled_x = (x < 0 ? 0 - x : x - 0) / 1.0 * 1.0;
    return std::abs(scaled_x) < 1 ? 1 - scaled_x * scaled_x : 0.0;
  }
  // One element of tolerance(array, bounds=(0, 0), margin=5): gaussian,
  // value_at_margin 0.1.
  double ArrayGaussian(double x) const {
    if (x == 0) return 1.0;
    const double scale = std::sqrt(-2 * np_.Log(0.1));
    const double y = (x < 0 ? 0 - x : x - 0) / 5 * scale;
    return np_.Exp(-0.5 * (y * y));
  }

  int slider_, hinge_1_;
};

inline void RegisterCartpole(Registry& registry) {
  registry.Add<Task<CartpoleEnv<0>>>("CartpoleBalance-v1");
  registry.Add<Task<CartpoleEnv<1>>>("CartpoleBalanceSparse-v1");
  registry.Add<Task<CartpoleEnv<2>>>("CartpoleSwingup-v1");
  registry.Add<Task<CartpoleEnv<3>>>("CartpoleSwingupSparse-v1");
  registry.Add<Task<CartpoleEnv<4>>>("CartpoleTwoPoles-v1");
  registry.Add<Task<CartpoleEnv<5>>>("CartpoleThreePoles-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
