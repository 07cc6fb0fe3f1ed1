// Reacher-v4/v5 and Pusher-v4/v5, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/mujoco/{reacher,pusher}_v{4,5}.py. v4 computes the reward
// from the state before the step, v5 after it. The control reward is a
// float32 (np.square(action).sum() of the float32 action).
//
// gymnasium refuses to make Pusher-v4 with mujoco >= 3 (its pusher.xml was
// tuned for MuJoCo 2); envpool_lite runs it on the pinned MuJoCo as EnvPool
// does, and its tests compare it with gymnasium's class with that check
// skipped.
#pragma once

#include <cmath>
#include <string>

#include "refkit/gymnasium/mujoco_env.h"

namespace envpool_lite {

template <int V>
class ReacherEnv : public mujoco::MujocoEnv {
 public:
  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{50}},
             {"mujoco_model", std::string("reacher.xml")},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()}};
    if (V == 5) {
      c.Set("xml_file", std::string("reacher.xml"));
      c.Set("frame_skip", int64_t{2});
      c.Set("reward_dist_weight", 1.0);
      c.Set("reward_control_weight", 1.0);
    }
    return c;
  }
  static std::vector<ArraySpec> Info(const Config&) {
    return {mujoco::F64("reward_dist"), mujoco::F32("reward_ctrl")};
  }
  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) {
      mujoco::GetFrameSkip(config);
      config.GetFloat("reward_dist_weight");
      config.GetFloat("reward_control_weight");
    }
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    // cos(qpos[:2]), sin(qpos[:2]), qpos[2:], qvel[:2], fingertip - target
    const int64_t n = 4 + (s.nq - 2) + 2 + (V == 5 ? 2 : 3);
    return mujoco::MakeMujocoSpec(config, s, n, Info(config));
  }

  ReacherEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config)) : 2),
        dist_weight_(V == 5 ? config.GetFloat("reward_dist_weight") : 1.0),
        ctrl_weight_(V == 5 ? static_cast<float>(
                                  config.GetFloat("reward_control_weight"))
                            : 1.0f) {
    SetInfoSpecs(Info(config));
    reads_cfrc_ext_ = false;
    fingertip_ = BodyId("fingertip");
    target_ = BodyId("target");
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    // uniform(-0.1, 0.1, nq) + init_qpos
    std::vector<double> qpos(model_->nq);
    for (int i = 0; i < model_->nq; ++i) {
      qpos[i] = rng_.Uniform(-0.1, 0.1) + init_qpos_[i];
    }
    double goal[2];
    do {
      goal[0] = rng_.Uniform(-0.2, 0.2);
      goal[1] = rng_.Uniform(-0.2, 0.2);
    } while (!(Norm(goal, 2) < 0.2));
    qpos[model_->nq - 2] = goal[0];
    qpos[model_->nq - 1] = goal[1];
    std::vector<double> qvel = PlusUniform(init_qvel_, -0.005, 0.005);
    qvel[model_->nv - 2] = 0;
    qvel[model_->nv - 1] = 0;
    SetState(qpos, qvel);
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    if (V == 5) DoSimulation(a);
    double vec[3];
    Vec(vec);
    const double reward_dist = -Norm(vec, 3) * dist_weight_;
    const float reward_ctrl =
        -mujoco::SumOfSquares(a, model_->nu) * ctrl_weight_;
    if (V != 5) DoSimulation(a);
    StepResult r;
    r.reward = reward_dist + static_cast<double>(reward_ctrl);
    SetInfo("reward_dist", reward_dist);
    SetInfo("reward_ctrl", reward_ctrl);
    return r;
  }

 protected:
  // get_body_com("fingertip") - get_body_com("target")
  void Vec(double out[3]) const {
    for (int i = 0; i < 3; ++i) {
      out[i] = BodyXpos(fingertip_)[i] - BodyXpos(target_)[i];
    }
  }

  void WriteObservation(double* obs) const override {
    for (int i = 0; i < 2; ++i) *obs++ = std::cos(data_->qpos[i]);
    for (int i = 0; i < 2; ++i) *obs++ = std::sin(data_->qpos[i]);
    for (int i = 2; i < model_->nq; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < 2; ++i) *obs++ = data_->qvel[i];
    double vec[3];
    Vec(vec);
    for (int i = 0; i < (V == 5 ? 2 : 3); ++i) *obs++ = vec[i];
  }

 private:
  double dist_weight_;
  float ctrl_weight_;
  int fingertip_ = 0, target_ = 0;
};

template <int V>
class PusherEnv : public mujoco::MujocoEnv {
 public:
  static Config DefaultConfig() {
    const std::string xml = V == 5 ? "pusher_v5.xml" : "pusher.xml";
    Config c{{"max_episode_steps", int64_t{100}},
             {"mujoco_model", xml},
             {"mujoco_lib", std::string()},
             {"report_reset_state", false},
             {"numpy_blas", std::string()}};
    if (V == 5) {
      c.Set("xml_file", xml);
      c.Set("frame_skip", int64_t{5});
      c.Set("reward_near_weight", 0.5);
      c.Set("reward_dist_weight", 1.0);
      c.Set("reward_control_weight", 0.1);
    }
    return c;
  }
  static std::vector<ArraySpec> Info(const Config&) {
    if (V == 5) {
      return {mujoco::F64("reward_dist"), mujoco::F32("reward_ctrl"),
              mujoco::F64("reward_near")};
    }
    return {mujoco::F64("reward_dist"), mujoco::F32("reward_ctrl")};
  }
  static EnvSpec MakeSpec(const Config& config) {
    if (V == 5) {
      mujoco::GetFrameSkip(config);
      config.GetFloat("reward_near_weight");
      config.GetFloat("reward_dist_weight");
      config.GetFloat("reward_control_weight");
    }
    mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    // qpos[:7], qvel[:7], tips_arm, object, goal
    return mujoco::MakeMujocoSpec(config, s, 7 + 7 + 9, Info(config));
  }

  PusherEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed,
                  V == 5 ? static_cast<int>(mujoco::GetFrameSkip(config)) : 5),
        near_weight_(V == 5 ? config.GetFloat("reward_near_weight") : 0.5),
        dist_weight_(V == 5 ? config.GetFloat("reward_dist_weight") : 1.0),
        ctrl_weight_(V == 5 ? static_cast<float>(
                                  config.GetFloat("reward_control_weight"))
                            : 0.1f) {
    SetInfoSpecs(Info(config));
    reads_cfrc_ext_ = false;
    tips_arm_ = BodyId("tips_arm");
    object_ = BodyId("object");
    goal_ = BodyId("goal");
  }

  void Reset() override {
    ResetData();
    ClearInfo();
    std::vector<double> qpos = init_qpos_;
    double cylinder[2];
    do {
      cylinder[0] = rng_.Uniform(-0.3, 0);
      cylinder[1] = rng_.Uniform(-0.2, 0.2);
    } while (!(Norm(cylinder, 2) > 0.17));
    const int nq = model_->nq, nv = model_->nv;
    qpos[nq - 4] = cylinder[0];
    qpos[nq - 3] = cylinder[1];
    qpos[nq - 2] = 0;
    qpos[nq - 1] = 0;
    std::vector<double> qvel = PlusUniform(init_qvel_, -0.005, 0.005);
    for (int i = nv - 4; i < nv; ++i) qvel[i] = 0;
    SetState(qpos, qvel);
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    if (V == 5) DoSimulation(a);
    double vec_1[3], vec_2[3];
    for (int i = 0; i < 3; ++i) {
      vec_1[i] = BodyXpos(object_)[i] - BodyXpos(tips_arm_)[i];
      vec_2[i] = BodyXpos(object_)[i] - BodyXpos(goal_)[i];
    }
    StepResult r;
    const float sum_sq = mujoco::SumOfSquares(a, model_->nu);
    if (V == 5) {
      const double reward_near = -Norm(vec_1, 3) * near_weight_;
      const double reward_dist = -Norm(vec_2, 3) * dist_weight_;
      const float reward_ctrl = -sum_sq * ctrl_weight_;
      r.reward = reward_dist + static_cast<double>(reward_ctrl) + reward_near;
      SetInfo("reward_near", reward_near);
      SetInfo("reward_dist", reward_dist);
      SetInfo("reward_ctrl", reward_ctrl);
    } else {
      const double reward_near = -Norm(vec_1, 3);
      const double reward_dist = -Norm(vec_2, 3);
      const float reward_ctrl = -sum_sq;
      // reward_dist + 0.1 * reward_ctrl + 0.5 * reward_near (0.1 * a
      // float32 is a float32)
      r.reward = reward_dist + static_cast<double>(0.1f * reward_ctrl) +
                 0.5 * reward_near;
      SetInfo("reward_dist", reward_dist);
      SetInfo("reward_ctrl", reward_ctrl);
      DoSimulation(a);
    }
    return r;
  }

 protected:
  void WriteObservation(double* obs) const override {
    for (int i = 0; i < 7; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < 7; ++i) *obs++ = data_->qvel[i];
    for (int body : {tips_arm_, object_, goal_}) {
      for (int i = 0; i < 3; ++i) *obs++ = BodyXpos(body)[i];
    }
  }

 private:
  double near_weight_, dist_weight_;
  float ctrl_weight_;
  int tips_arm_ = 0, object_ = 0, goal_ = 0;
};

}  // namespace envpool_lite
