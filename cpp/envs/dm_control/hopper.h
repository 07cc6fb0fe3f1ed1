// dm_control/suite/hopper.py: stand, hop.
#pragma once

#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <bool kHopping>
class HopperEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("hopper", kHopping ? "hop" : "stand", 20, 0.02);
  }

  HopperEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        torso_(BodyId("torso")),
        foot_(BodyId("foot")),
        subtreelinvel_(model_->sensor_adr[SensorId("torso_subtreelinvel")]),
        touch_toe_(model_->sensor_adr[SensorId("touch_toe")]),
        touch_heel_(model_->sensor_adr[SensorId("touch_heel")]) {}

 protected:
  void InitializeEpisode() override { RandomizeLimitedAndRotationalJoints(); }

  double GetReward() override {
    // height: torso's xipos z minus foot's.
    const double height =
        data_->xipos[3 * torso_ + 2] - data_->xipos[3 * foot_ + 2];
    const double standing = Tolerance(np_, height, kStandHeight, 2);
    if (kHopping) {
      const double hopping =
          Tolerance(np_, data_->sensordata[subtreelinvel_], kHopSpeed, kInf,
                    kHopSpeed / 2, Sigmoid::kLinear, 0.5);
      return standing * hopping;
    }
    // tolerance(control, margin=1, value_at_margin=0, 'quadratic') of the
    // ctrl array (its scaled_x ** 2 is an array's square: x * x), then its
    // mean (add.reduce left to right for < 8 values, / nu).
    double sum = 0.0;
    for (int i = 0; i < model_->nu; ++i) {
      const double x = data_->ctrl[i];
      double v = 1.0;
      if (!(0 <= x && x <= 0)) {
        const double d = (x < 0 ? 0.0 - x : x - 0.0) / 1.0;
        v = std::abs(d) < 1 ? 1 - d * d : 0.0;
      }
      sum = i == 0 ? v : sum + v;
    }
    const double small_control = (sum / model_->nu + 4) / 5;
    return standing * small_control;
  }

  void GetObservation(Observation& obs) override {
    obs.Add("position", data_->qpos + 1, {model_->nq - 1});
    obs.Add("velocity", data_->qvel, {model_->nv});
    const double touch_in[2] = {data_->sensordata[touch_toe_],
                                data_->sensordata[touch_heel_]};
    double touch[2];
    for (int i = 0; i < 2; ++i) touch[i] = np_.Log1p(touch_in[i]);
    obs.Add("touch", touch, {2});
  }

 private:
  static constexpr double kStandHeight = 0.6;
  static constexpr double kHopSpeed = 2;
  int torso_, foot_;
  int subtreelinvel_, touch_toe_, touch_heel_;
};

inline void RegisterHopper(Registry& registry) {
  registry.Add<Task<HopperEnv<false>>>("HopperStand-v1");
  registry.Add<Task<HopperEnv<true>>>("HopperHop-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
