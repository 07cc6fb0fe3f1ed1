// dm_control/suite/stacker.py: stack_2, stack_4 (the planar arm stacking
// boxes on a target).
#pragma once

#include <string>
#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/manipulator.h"  // planar_arm
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <int kBoxes>
class StackerEnv : public DmcEnv {
 public:
  static Config DefaultConfig() {
    return BaseConfig("stacker", kBoxes == 2 ? "stack_2" : "stack_4", 10, 0.01);
  }

  StackerEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        hand_(BodyId("hand")),
        target_(BodyId("target")),
        target_site_(SiteId("target")),
        grasp_site_(SiteId("grasp")),
        box_size_(model_->geom_size[3 * GeomId("target")]) {
    const mjModel* m = model_.get();
    arm_ = planar_arm::FindArm(m, [this](const char* n) { return JointId(n); });
    for (int b = 0; b < kBoxes; ++b) {
      const std::string name = "box" + std::to_string(b);
      box_body_[b] = BodyId(name.c_str());
      box_site_[b] = SiteId(name.c_str());
      // _box_joint_names: box<b>_x, _y, _z.
      for (int k = 0; k < 3; ++k) {
        const std::string joint = name + "_" + "xyz"[k];
        const int j = JointId(joint.c_str());
        box_qpos_[b][k] = m->jnt_qposadr[j];
        box_qvel_[b][k] = m->jnt_dofadr[j];
      }
    }
  }

 protected:
  void InitializeEpisode() override {
    mjModel* m = model_.get();
    mjData* d = data_.get();
    // A collision-free random initial configuration: draw until mj_forward
    // finds no contact (the model's target stays where drawn, into the next
    // episodes, as dm_control leaves it).
    bool penetrating = true;
    while (penetrating) {
      for (int i = 0; i < 8; ++i) {
        d->qpos[arm_.qpos[i]] = random_.Uniform(arm_.lower[i], arm_.upper[i]);
      }
      d->qpos[arm_.finger_qpos] = d->qpos[arm_.thumb_qpos];

      const int64_t target_height = 2 * random_.RandInt(0, kBoxes) + 1;
      m->body_pos[3 * target_ + 2] =
          box_size_ * static_cast<double>(target_height);
      m->body_pos[3 * target_ + 0] = random_.Uniform(-.37, .37);

      for (int b = 0; b < kBoxes; ++b) {
        d->qpos[box_qpos_[b][0]] = random_.Uniform(.1, .3);      // x
        d->qpos[box_qpos_[b][2]] = random_.Uniform(0, .7);       // z
        d->qpos[box_qpos_[b][1]] = random_.Uniform(0, 2 * kPi);  // y
      }

      ForwardWithoutActuation();
      penetrating = d->ncon > 0;
    }
  }

  double GetReward() override {
    // min(site_distance(box, 'target') for box in boxes): the first least.
    double min_distance = SiteDistance(box_site_[0], target_site_);
    for (int b = 1; b < kBoxes; ++b) {
      const double dist = SiteDistance(box_site_[b], target_site_);
      if (dist < min_distance) min_distance = dist;
    }
    const double box_is_close =
        Tolerance(np_, min_distance, 0, 0, 2 * box_size_);
    const double hand_to_target = SiteDistance(grasp_site_, target_site_);
    const double hand_is_far = Tolerance(np_, hand_to_target, .1, kInf, kClose);
    return box_is_close * hand_is_far;
  }

  void GetObservation(Observation& obs) override {
    const mjModel* m = model_.get();
    const mjData* d = data_.get();
    double arm_pos[16], arm_vel[8];
    for (int i = 0; i < 8; ++i) {
      const double q = d->qpos[arm_.qpos[i]];
      arm_pos[2 * i] = np_.Sin(q);
      arm_pos[2 * i + 1] = np_.Cos(q);
      arm_vel[i] = d->qvel[arm_.qvel[i]];
    }
    obs.Add("arm_pos", arm_pos, {8, 2});
    obs.Add("arm_vel", arm_vel, {8});
    // np.log1p(sensordata): every sensor (numpy's own log1p loop).
    std::vector<double> touch(m->nsensordata);
    for (int i = 0; i < m->nsensordata; ++i) {
      touch[i] = np_.Log1p(d->sensordata[i]);
    }
    obs.Add("touch", touch);
    double hand[4];
    BodyPose(hand_, hand);
    obs.Add("hand_pos", hand, {4});
    double box_pos[4 * kBoxes], box_vel[3 * kBoxes];
    for (int b = 0; b < kBoxes; ++b) {
      BodyPose(box_body_[b], box_pos + 4 * b);
      for (int k = 0; k < 3; ++k) box_vel[3 * b + k] = d->qvel[box_qvel_[b][k]];
    }
    obs.Add("box_pos", box_pos, {kBoxes, 4});
    obs.Add("box_vel", box_vel, {3 * kBoxes});
    const double target_pos[2] = {d->xpos[3 * target_ + 0],
                                  d->xpos[3 * target_ + 2]};
    obs.Add("target_pos", target_pos, {2});
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("qvel0", data_->qvel, model_->nv);
    out.Add("qacc_warmstart0", data_->qacc_warmstart, model_->nv);
    out.Add("target0", {model_->body_pos[3 * target_ + 0],
                        model_->body_pos[3 * target_ + 2]});  // x, z
  }

 private:
  static constexpr double kClose = .01;

  planar_arm::Arm arm_;
  int hand_, target_, target_site_, grasp_site_;
  double box_size_;
  int box_body_[kBoxes], box_site_[kBoxes];
  int box_qpos_[kBoxes][3], box_qvel_[kBoxes][3];
};

inline void RegisterStacker(Registry& registry) {
  registry.Add<Task<StackerEnv<2>>>("StackerStack2-v1");
  registry.Add<Task<StackerEnv<4>>>("StackerStack4-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
