// dm_control/suite/dog.py: stand, walk, trot, run, fetch.
//
// Vector x matrix products (`v.dot(frame)`: the torso-frame com velocity,
// the ball and target in the head frame) use numpy's own BLAS dgemv
// (blas_.VecMat3), and the head and ball velocities are MuJoCo's
// mj_objectVelocity.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

// kTask: 0 stand, 1 walk, 2 trot, 3 run, 4 fetch.
template <int kTask>
class DogEnv : public DmcEnv {
  static constexpr bool kFetch = kTask == 4;
  // _WALK_SPEED, _TROT_SPEED, _RUN_SPEED (0: no move reward).
  static constexpr double kMoveSpeed[5] = {0, 1, 3, 9, 0};
  // np.cos(np.deg2rad(30)) as numpy computes it.
  static constexpr double kMinUprightCosine = 0x1.bb67ae8584cabp-1;
  static constexpr double kStandHeightFraction = 0.9;

 public:
  static Config DefaultConfig() {
    static const char* kNames[5] = {"stand", "walk", "trot", "run", "fetch"};
    return BaseConfig("dog", kNames[kTask], 15, 0.015);
  }

  DogEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        torso_(BodyId("torso")),
        pelvis_(BodyId("pelvis")),
        skull_(BodyId("skull")),
        root_(JointId("root")),
        torso_linvel_(SensorAdr("torso_linvel")),
        inertial_{SensorAdr("accelerometer"), SensorAdr("velocimeter"),
                  SensorAdr("gyro")},
        touch_{SensorAdr("palm_L"), SensorAdr("palm_R"), SensorAdr("sole_L"),
               SensorAdr("sole_R")},
        foot_{SensorAdr("foot_L"), SensorAdr("foot_R"), SensorAdr("hand_L"),
              SensorAdr("hand_R")} {
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_type[j] == mjJNT_HINGE) hinges_.push_back(j);
    }
    if (model_->nu != model_->na) {
      throw std::logic_error("dog: the model's nu != na");
    }
    if (kFetch) {
      ball_root_ = JointId("ball_root");
      ball_geom_ = GeomId("ball");
      target_geom_ = GeomId("target");
      floor_geom_ = GeomId("floor");
      head_site_ = SiteId("head");
      upper_bite_ = SiteId("upper_bite");
      lower_bite_ = SiteId("lower_bite");
    }
  }

  // The episode's stand heights and weight (set at reset).
  ENVPOOL_LITE_STATE_AFTER(DmcEnv, stand_height_, body_weight_)

 protected:
  void InitializeEpisode() override {
    // (physics.reset(): the state the base's reset left.)
    stand_height_[0] = data_->xpos[3 * torso_ + 2] * kStandHeightFraction;
    stand_height_[1] = data_->xpos[3 * pelvis_ + 2] * kStandHeightFraction;
    body_weight_ = -model_->opt.gravity[2] * model_->body_subtreemass[torso_];

    const double azimuth = random_.Uniform(0, 2 * kPi);
    double* q = JointQpos(root_);
    q[3] = np_.Cos(azimuth / 2);
    q[4] = 0;
    q[5] = 0;
    q[6] = np_.Sin(azimuth / 2);

    data_->qvel[0] = 2 * random_.StandardNormal();
    data_->qvel[1] = 2 * random_.StandardNormal();
    data_->qvel[5] = 2 * random_.StandardNormal();

    for (int i = 0; i < model_->nu; ++i) {
      const double* range = model_->actuator_ctrlrange + 2 * i;
      data_->act[i] = random_.Uniform(range[0], range[1]);
    }

    if (kFetch) {
      const double radius = 0.75 * model_->geom_size[3 * floor_geom_];
      const double az = random_.Uniform(0, 2 * kPi);
      const double sin_az = np_.Sin(az), cos_az = np_.Cos(az);
      double* bq = JointQpos(ball_root_);
      bq[0] = radius * sin_az;
      bq[1] = radius * cos_az;
      bq[2] = 0.05;
      const double vertical_height = random_.Uniform(0, 3);
      const double gravity = -model_->opt.gravity[2];
      const double vertical_velocity = std::sqrt(2 * gravity * vertical_height);
      const double horizontal_speed = random_.Uniform(0, 5);
      const double dx = -sin_az + 0.05 * random_.StandardNormal();
      const double dy = -cos_az + 0.05 * random_.StandardNormal();
      double* bv = JointQvel(ball_root_);
      bv[0] = horizontal_speed * dx;
      bv[1] = horizontal_speed * dy;
      bv[2] = vertical_velocity;
    }
  }

  double GetReward() override {
    double f[8];
    int n = 0;
    // Stand: torso and pelvis heights, head/torso/pelvis upright, touch.
    const double heights[2] = {data_->xpos[3 * torso_ + 2],
                               data_->xpos[3 * pelvis_ + 2]};
    for (int i = 0; i < 2; ++i) {
      f[n++] =
          Tolerance(np_, heights[i], stand_height_[i], kInf, stand_height_[i]);
    }
    for (int b : {skull_, torso_, pelvis_}) {
      f[n++] = Tolerance(np_, data_->xmat[9 * b + 8], kMinUprightCosine, kInf,
                         kMinUprightCosine + 1, Sigmoid::kLinear, 0);
    }
    double touch = 0.0;
    for (int a : touch_) touch += data_->sensordata[a];
    f[n++] = Tolerance(np_, touch, body_weight_, kInf, body_weight_,
                       Sigmoid::kLinear, 0.9);
    if (kMoveSpeed[kTask] > 0) {
      const double s = kMoveSpeed[kTask];
      double vel[3];
      TorsoComVelocity(vel);
      const double forward = Tolerance(np_, vel[0], s, 2 * s, std::max(1.0, s),
                                       Sigmoid::kLinear, 0);
      f[n++] = (4 * forward + 1) / 5;
    }
    if (kFetch) {
      const double bite_radius = model_->site_size[3 * upper_bite_];
      double reach_ball = Tolerance(np_, BallToMouthDistance(), 0, bite_radius,
                                    2, Sigmoid::kReciprocal);
      reach_ball = (6 * reach_ball + 1) / 7;
      const double target_radius = model_->geom_size[3 * target_geom_];
      const double bring_margin = model_->geom_size[3 * floor_geom_];
      const double to_target = BallToTargetDistance();
      const double near_target = Tolerance(np_, to_target, 0, target_radius,
                                           bring_margin, Sigmoid::kReciprocal);
      const double fetch_ball = (near_target + 1) / 2;
      if (to_target < 2 * target_radius) reach_ball = 1;
      f[n++] = reach_ball;
      f[n++] = fetch_ball;
    }
    // np.prod: left to right.
    double prod = f[0];
    for (int i = 1; i < n; ++i) prod *= f[i];
    return prod;
  }

  void GetObservation(Observation& obs) override {
    const int nh = static_cast<int>(hinges_.size());
    buf_.resize(nh);
    for (int i = 0; i < nh; ++i) {
      buf_[i] = data_->qpos[model_->jnt_qposadr[hinges_[i]]];
    }
    obs.Add("joint_angles", buf_);
    for (int i = 0; i < nh; ++i) {
      buf_[i] = data_->qvel[model_->jnt_dofadr[hinges_[i]]];
    }
    obs.Add("joint_velocites", buf_);
    const double heights[2] = {data_->xpos[3 * torso_ + 2],
                               data_->xpos[3 * pelvis_ + 2]};
    obs.Add("torso_pelvis_height", heights, {2});
    double z[9];
    int k = 0;
    for (int b : {skull_, torso_, pelvis_}) {
      for (int c = 6; c < 9; ++c) z[k++] = data_->xmat[9 * b + c];
    }
    obs.Add("z_projection", z, {9});
    double vel[3];
    TorsoComVelocity(vel);
    obs.Add("torso_com_velocity", vel, {3});
    double inertial[9];
    k = 0;
    for (int a : inertial_) {
      for (int c = 0; c < 3; ++c) inertial[k++] = data_->sensordata[a + c];
    }
    obs.Add("inertial_sensors", inertial, {9});
    double foot[12];
    k = 0;
    for (int a : foot_) {
      for (int c = 0; c < 3; ++c) foot[k++] = data_->sensordata[a + c];
    }
    obs.Add("foot_forces", foot, {12});
    double touch[4];
    for (int i = 0; i < 4; ++i) touch[i] = data_->sensordata[touch_[i]];
    obs.Add("touch_sensors", touch, {4});
    obs.Add("actuator_state", data_->act, {model_->na});
    if (kFetch) {
      const double* head_frame = data_->site_xmat + 9 * head_site_;
      const double* head_pos = data_->site_xpos + 3 * head_site_;
      const double* ball_pos = data_->geom_xpos + 3 * ball_geom_;
      double head_to_ball[3], head_vel[6], ball_vel[6], rel_vel[3];
      for (int i = 0; i < 3; ++i) head_to_ball[i] = ball_pos[i] - head_pos[i];
      api_.object_velocity(model_.get(), data_.get(), mjOBJ_SITE, head_site_,
                           head_vel, 0);
      api_.object_velocity(model_.get(), data_.get(), mjOBJ_GEOM, ball_geom_,
                           ball_vel, 0);
      // (mj_objectVelocity: angular, then linear.)
      for (int i = 0; i < 3; ++i)
        rel_vel[i] = ball_vel[3 + i] - head_vel[3 + i];
      double state[6];
      blas_.VecMat3(head_to_ball, head_frame, state);
      blas_.VecMat3(rel_vel, head_frame, state + 3);
      obs.Add("ball_state", state, {6});
      const double* target_pos = data_->geom_xpos + 3 * target_geom_;
      double head_to_target[3], target[3];
      for (int i = 0; i < 3; ++i) {
        head_to_target[i] = target_pos[i] - head_pos[i];
      }
      blas_.VecMat3(head_to_target, head_frame, target);
      obs.Add("target_position", target, {3});
    }
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("qvel0", data_->qvel, model_->nv);
    out.Add("qacc_warmstart0", data_->qacc_warmstart, model_->nv);
    out.Add("act0", data_->act, model_->na);
  }

 private:
  int SensorAdr(const char* name) const {
    return model_->sensor_adr[SensorId(name)];
  }

  // sensordata['torso_linvel'].dot(xmat['torso'].reshape(3, 3)).
  void TorsoComVelocity(double* out) const {
    blas_.VecMat3(data_->sensordata + torso_linvel_, data_->xmat + 9 * torso_,
                  out);
  }

  double BallToMouthDistance() const {
    const double* ball = data_->geom_xpos + 3 * ball_geom_;
    const double* upper = data_->site_xpos + 3 * upper_bite_;
    const double* lower = data_->site_xpos + 3 * lower_bite_;
    double du[3], dl[3];
    for (int i = 0; i < 3; ++i) {
      du[i] = ball[i] - upper[i];
      dl[i] = ball[i] - lower[i];
    }
    return 0.5 * (Norm(du, 3) + Norm(dl, 3));
  }

  double BallToTargetDistance() const {
    const double* ball = data_->geom_xpos + 3 * ball_geom_;
    const double* target = data_->geom_xpos + 3 * target_geom_;
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = ball[i] - target[i];
    return Norm(d, 3);
  }
  int torso_, pelvis_, skull_, root_;
  int torso_linvel_;
  int inertial_[3];
  int touch_[4];
  int foot_[4];
  int ball_root_ = -1, ball_geom_ = -1, target_geom_ = -1, floor_geom_ = -1;
  int head_site_ = -1, upper_bite_ = -1, lower_bite_ = -1;
  std::vector<int> hinges_;
  std::vector<double> buf_;
  double stand_height_[2] = {0, 0};
  double body_weight_ = 0;
};

inline void RegisterDog(Registry& registry) {
  registry.Add<Task<DogEnv<0>>>("DogStand-v1");
  registry.Add<Task<DogEnv<1>>>("DogWalk-v1");
  registry.Add<Task<DogEnv<2>>>("DogTrot-v1");
  registry.Add<Task<DogEnv<3>>>("DogRun-v1");
  registry.Add<Task<DogEnv<4>>>("DogFetch-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
