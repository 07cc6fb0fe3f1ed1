// dm_control/suite/manipulator.py: bring_ball, bring_peg, insert_ball,
// insert_peg (the planar arm bringing a ball or a peg to a target, or
// inserting it into a cup or a slot).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

// What the planar-arm domains (manipulator, stacker) share.
namespace planar_arm {

// _ARM_JOINTS
inline constexpr const char* kArmJoints[8] = {
    "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
    "finger",   "fingertip",    "thumb",     "thumbtip"};

// The arm's joints: their qpos/qvel addresses and the ranges their initial
// angles are drawn from (np.where(limited, range, -+pi)).
struct Arm {
  int qpos[8];
  int qvel[8];
  double lower[8];
  double upper[8];
  int finger_qpos, thumb_qpos;
};

// The arm of a model (manipulator's, stacker's); joint_id(name) finds a
// joint.
template <typename JointIdFn>
Arm FindArm(const mjModel* m, JointIdFn joint_id) {
  Arm arm;
  for (int i = 0; i < 8; ++i) {
    const int j = joint_id(kArmJoints[i]);
    arm.qpos[i] = m->jnt_qposadr[j];
    arm.qvel[i] = m->jnt_dofadr[j];
    const bool limited = m->jnt_limited[j] != 0;
    arm.lower[i] = limited ? m->jnt_range[2 * j] : -kPi;
    arm.upper[i] = limited ? m->jnt_range[2 * j + 1] : kPi;
  }
  arm.finger_qpos = m->jnt_qposadr[joint_id("finger")];
  arm.thumb_qpos = m->jnt_qposadr[joint_id("thumb")];
  return arm;
}

}  // namespace planar_arm

template <bool kUsePeg, bool kInsert>
class ManipulatorEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    static const char* kName = kUsePeg
                                   ? (kInsert ? "insert_peg" : "bring_peg")
                                   : (kInsert ? "insert_ball" : "bring_ball");
    return BaseConfig("manipulator", kName, 10, 0.01);
  }

  ManipulatorEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        hand_(BodyId("hand")),
        object_(BodyId(kUsePeg ? "peg" : "ball")),
        target_(BodyId(kUsePeg ? "target_peg" : "target_ball")),
        receptacle_(kInsert ? BodyId(kUsePeg ? "slot" : "cup") : -1),
        grasp_site_(SiteId("grasp")) {
    const mjModel* m = model_.get();
    arm_ = planar_arm::FindArm(m, [this](const char* n) { return JointId(n); });
    // _object_joints: <object>_x, _z, _y.
    const std::string object = kUsePeg ? "peg" : "ball";
    for (int i = 0; i < 3; ++i) {
      const std::string name = object + "_" + "xzy"[i];
      const int j = JointId(name.c_str());
      object_qpos_[i] = m->jnt_qposadr[j];
      object_qvel_[i] = m->jnt_dofadr[j];
    }
    static const char* kTouch[5] = {"palm_touch", "finger_touch", "thumb_touch",
                                    "fingertip_touch", "thumbtip_touch"};
    for (int i = 0; i < 5; ++i) touch_[i] = m->sensor_adr[SensorId(kTouch[i])];
    if (kUsePeg) {
      static const char* kSites[8] = {"peg_grasp",      "grasp",  "peg_pinch",
                                      "pinch",          "peg",    "target_peg",
                                      "target_peg_tip", "peg_tip"};
      for (int i = 0; i < 8; ++i) sites_[i] = SiteId(kSites[i]);
    } else {
      sites_[0] = SiteId("ball");
      sites_[1] = SiteId("target_ball");
    }
    // choice(..., p=[_P_IN_HAND, _P_IN_TARGET, 1 - _P_IN_HAND - _P_IN_TARGET]):
    // the cumulative sum, divided by its last value.
    const double p[3] = {kPInHand, kPInTarget, 1 - kPInHand - kPInTarget};
    cdf_[0] = p[0];
    cdf_[1] = cdf_[0] + p[1];
    cdf_[2] = cdf_[1] + p[2];
    const double last = cdf_[2];
    for (double& c : cdf_) c /= last;
  }

 protected:
  void InitializeEpisode() override {
    mjData* d = data_.get();
    // A collision-free random initial configuration: draw until mj_forward
    // finds no contact. (The model's target and receptacle poses stay as
    // drawn, into the next episodes, as dm_control leaves them.)
    bool penetrating = true;
    while (penetrating) {
      for (int i = 0; i < 8; ++i) {
        d->qpos[arm_.qpos[i]] = random_.Uniform(arm_.lower[i], arm_.upper[i]);
      }
      d->qpos[arm_.finger_qpos] = d->qpos[arm_.thumb_qpos];

      const double target_x = random_.Uniform(-.4, .4);
      const double target_z = random_.Uniform(.1, .4);
      double target_angle;
      if (kInsert) {
        target_angle = random_.Uniform(-kPi / 3, kPi / 3);
        SetPlanarPose(receptacle_, target_x, target_z, target_angle);
      } else {
        target_angle = random_.Uniform(-kPi, kPi);
      }
      SetPlanarPose(target_, target_x, target_z, target_angle);

      // init_type: searchsorted(cdf, random_sample(), side='right').
      const double u = random_.RandomSample();
      int init_type = 0;
      while (init_type < 2 && cdf_[init_type] <= u) ++init_type;
      double object_x, object_z, object_angle;
      if (init_type == 1) {  // in_target
        object_x = target_x;
        object_z = target_z;
        object_angle = target_angle;
      } else if (init_type == 0) {  // in_hand
        ForwardWithoutActuation();
        object_x = d->site_xpos[3 * grasp_site_ + 0];
        object_z = d->site_xpos[3 * grasp_site_ + 2];
        const double* xmat = d->site_xmat + 9 * grasp_site_;
        object_angle = kPi - np_.Arctan2(xmat[6], xmat[0]);
      } else {  // uniform
        object_x = random_.Uniform(-.5, .5);
        object_z = random_.Uniform(0, .7);
        object_angle = random_.Uniform(0, 2 * kPi);
        d->qvel[object_qvel_[0]] = random_.Uniform(-5, 5);
      }
      d->qpos[object_qpos_[0]] = object_x;
      d->qpos[object_qpos_[1]] = object_z;
      d->qpos[object_qpos_[2]] = object_angle;
      // EnvPool's init_type: 1 in_target, 2 in_hand, 3 uniform; 3 also
      // where the object moves after another draw: this loop does not clear
      // qvel, so a rejected uniform draw's x velocity stays (dm_control's
      // too), and EnvPool's tests restore that velocity for 3 only.
      const double object_vx = d->qvel[object_qvel_[0]];
      const double type = object_vx != 0 ? 3.0 : init_type == 1 ? 1.0 : 2.0;
      const double info[8] = {target_x, target_z, target_angle, type,
                              object_x, object_z, object_angle, object_vx};
      std::copy(info, info + 8, random_info_);

      ForwardWithoutActuation();
      penetrating = d->ncon > 0;
    }
  }

  double GetReward() override {
    if (!kUsePeg) return IsClose(SiteDistance(sites_[0], sites_[1]));
    const double grasp = IsClose(SiteDistance(sites_[0], sites_[1]));
    const double pinch = IsClose(SiteDistance(sites_[2], sites_[3]));
    const double grasping = (grasp + pinch) / 2;
    const double bring = IsClose(SiteDistance(sites_[4], sites_[5]));
    const double bring_tip = IsClose(SiteDistance(sites_[6], sites_[7]));
    const double bringing = (bring + bring_tip) / 2;
    const double g3 = grasping / 3;
    return bringing >= g3 ? bringing : g3;  // max(bringing, grasping / 3)
  }

  void GetObservation(Observation& obs) override {
    const mjData* d = data_.get();
    double arm_pos[16], arm_vel[8], touch[5];
    for (int i = 0; i < 8; ++i) {
      const double q = d->qpos[arm_.qpos[i]];
      arm_pos[2 * i] = np_.Sin(q);
      arm_pos[2 * i + 1] = np_.Cos(q);
      arm_vel[i] = d->qvel[arm_.qvel[i]];
    }
    // np.log1p: numpy's own loop (SVML's with AVX-512, unlike libm's).
    for (int i = 0; i < 5; ++i) touch[i] = np_.Log1p(d->sensordata[touch_[i]]);
    obs.Add("arm_pos", arm_pos, {8, 2});
    obs.Add("arm_vel", arm_vel, {8});
    obs.Add("touch", touch, {5});
    double pose[4];
    BodyPose(hand_, pose);
    obs.Add("hand_pos", pose, {4});
    BodyPose(object_, pose);
    obs.Add("object_pos", pose, {4});
    double object_vel[3];
    for (int i = 0; i < 3; ++i) object_vel[i] = d->qvel[object_qvel_[i]];
    obs.Add("object_vel", object_vel, {3});
    BodyPose(target_, pose);
    obs.Add("target_pos", pose, {4});
  }

  // random_info: EnvPool's target_x, target_z, target_angle, init_type (1
  // in_target, 2 in_hand, 3 uniform), object_x, object_z, object_angle and
  // the object's x velocity.
  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("random_info", random_info_, 8);
  }

 private:
  static constexpr double kClose = .01;
  static constexpr double kPInHand = .1;
  static constexpr double kPInTarget = .1;

  // model.body_pos[body, ['x', 'z']] = x, z; model.body_quat[body, ['qw',
  // 'qy']] = np.cos(angle / 2), np.sin(angle / 2).
  void SetPlanarPose(int body, double x, double z, double angle) {
    mjModel* m = model_.get();
    m->body_pos[3 * body + 0] = x;
    m->body_pos[3 * body + 2] = z;
    m->body_quat[4 * body + 0] = np_.Cos(angle / 2);
    m->body_quat[4 * body + 2] = np_.Sin(angle / 2);
  }
  // _is_close: tolerance(distance, (0, _CLOSE), margin=_CLOSE * 2).
  double IsClose(double distance) const {
    return Tolerance(np_, distance, 0, kClose, kClose * 2);
  }

  planar_arm::Arm arm_;
  int hand_, object_, target_, receptacle_, grasp_site_;
  int object_qpos_[3], object_qvel_[3];
  int touch_[5];
  int sites_[8] = {};
  double cdf_[3];
  double random_info_[8] = {};  // with report_reset_state
};

inline void RegisterManipulator(Registry& registry) {
  registry.Add<Task<ManipulatorEnv<false, false>>>("ManipulatorBringBall-v1");
  registry.Add<Task<ManipulatorEnv<true, false>>>("ManipulatorBringPeg-v1");
  registry.Add<Task<ManipulatorEnv<false, true>>>("ManipulatorInsertBall-v1");
  registry.Add<Task<ManipulatorEnv<true, true>>>("ManipulatorInsertPeg-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
