// Fetch: gymnasium-robotics 1.4.2's envs/fetch/fetch_env.py (MujocoFetchEnv)
// and its four tasks (reach.py, push.py, slide.py, pick_and_place.py): a
// 7-DoF arm whose gripper a mocap body moves (action: dx, dy, dz scaled by
// 0.05, and the fingers), a goal for the gripper (Reach) or for the object.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "envs/gymnasium_robotics/robot_env.h"

namespace envpool_lite {
namespace gymnasium_robotics {

// One task's constants, as its file passes them to MujocoFetchEnv.
struct FetchTask {
  const char* model;  // under gymnasium_robotics/envs/assets
  bool has_object;
  bool block_gripper;
  double gripper_extra_height;
  bool target_in_the_air;
  std::array<double, 3> target_offset;
  double obj_range;
  double target_range;
  double distance_threshold;
  // initial_qpos: the arm's slides, then object0:joint (7 values) if any.
  std::array<double, 3> slides;
  std::array<double, 7> object;
};

enum class FetchKind { kReach, kPush, kSlide, kPickAndPlace };

inline FetchTask GetFetchTask(FetchKind kind) {
  switch (kind) {
    case FetchKind::kReach:
      return {"fetch/reach.xml",
              false,
              true,
              0.2,
              true,
              {0, 0, 0},
              0.15,
              0.15,
              0.05,
              {0.4049, 0.48, 0.0},
              {}};
    case FetchKind::kPush:
      return {"fetch/push.xml",
              true,
              true,
              0.0,
              false,
              {0, 0, 0},
              0.15,
              0.15,
              0.05,
              {0.405, 0.48, 0.0},
              {1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0}};
    case FetchKind::kSlide:
      return {"fetch/slide.xml",
              true,
              true,
              -0.02,
              false,
              {0.4, 0.0, 0.0},
              0.1,
              0.3,
              0.05,
              {0.05, 0.48, 0.0},
              {1.7, 1.1, 0.41, 1.0, 0.0, 0.0, 0.0}};
    case FetchKind::kPickAndPlace:
    default:
      return {"fetch/pick_and_place.xml",
              true,
              false,
              0.2,
              true,
              {0, 0, 0},
              0.15,
              0.15,
              0.05,
              {0.405, 0.48, 0.0},
              {1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0}};
  }
}

template <FetchKind K>
class FetchEnv : public RobotEnv {
 public:
  static constexpr int kNSubsteps = 20;

  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{50}},
             {"reward_type", std::string("sparse")}};
    AddInternalOptions(&c);
    c.Set("mujoco_model", std::string(GetFetchTask(K).model));
    return c;
  }

  static int64_t ObsSize() { return GetFetchTask(K).has_object ? 25 : 10; }

  static EnvSpec MakeSpec(const Config& config) {
    IsDense(config);
    EnvSpec spec;
    spec.obs_dict = GoalObsSpecs(3, ObsSize());
    spec.action = MakeBox<float>("action", {4}, {-1.0}, {1.0});
    // info["is_success"]: np.float32 (d < threshold).astype(np.float32)
    spec.info = {MakeScalar<float>("is_success")};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  FetchEnv(const Config& config, uint64_t seed)
      : RobotEnv(config, seed, kNSubsteps),
        task_(GetFetchTask(K)),
        dense_(IsDense(config)),
        grip_site_(sim_.SiteId("robot0:grip")),
        object_site_(task_.has_object ? sim_.SiteId("object0") : -1),
        object_joint_(task_.has_object ? sim_.JointId("object0:joint") : -1),
        l_finger_(sim_.JointId("robot0:l_gripper_finger_joint")),
        r_finger_(sim_.JointId("robot0:r_gripper_finger_joint")) {
    // robot_get_obs reads the joints whose names start with "robot".
    std::vector<std::string> names = sim_.JointNames();
    for (int j = 0; j < static_cast<int>(names.size()); ++j) {
      if (names[j].rfind("robot", 0) == 0) robot_joints_.push_back(j);
    }
    if (robot_joints_.size() < 2) {
      throw std::runtime_error("Fetch: the model has no gripper joints");
    }
    EnvSetup();
    RecordInitialState();
    goal_.assign(3, 0.0);
  }

  void Reset() override {
    // _reset_sim (always succeeds for Fetch), then _sample_goal.
    ResetSimState();
    if (task_.has_object) {
      double xy[2] = {initial_gripper_xpos_[0], initial_gripper_xpos_[1]};
      auto distance = [&] {
        double diff[2] = {xy[0] - initial_gripper_xpos_[0],
                          xy[1] - initial_gripper_xpos_[1]};
        return sim_.Norm(diff, 2);
      };
      while (distance() < 0.1) {
        for (int i = 0; i < 2; ++i) {
          xy[i] = initial_gripper_xpos_[i] +
                  rng_.Uniform(-task_.obj_range, task_.obj_range);
        }
      }
      double* q = sim_.JointQpos(object_joint_);
      q[0] = xy[0];
      q[1] = xy[1];
    }
    sim_.Forward();
    SampleGoal();
    UpdateObs();
    is_success_ = 0.0f;  // reset's info is {}: the field reads 0
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    // _set_action: np.clip to [-1, 1] (the pool has checked the range), then
    // pos_ctrl *= 0.05 in float32, rot_ctrl [1, 0, 1, 0], the gripper twice
    // (zeros when blocked), concatenated as float64.
    double full[9];
    for (int i = 0; i < 3; ++i) {
      const float c = std::min(std::max(a[i], -1.0f), 1.0f);
      full[i] = static_cast<double>(c * 0.05f);
    }
    full[3] = 1.0, full[4] = 0.0, full[5] = 1.0, full[6] = 0.0;
    const float g = std::min(std::max(a[3], -1.0f), 1.0f);
    full[7] = full[8] = task_.block_gripper ? 0.0 : static_cast<double>(g);
    sim_.CtrlSetAction(full, 9);
    sim_.MocapSetAction(full);
    MujocoStep();
    // _step_callback: the blocked gripper's fingers back to 0.
    if (task_.block_gripper) {
      *sim_.JointQpos(l_finger_) = 0.0;
      *sim_.JointQpos(r_finger_) = 0.0;
      sim_.Forward();
    }
    UpdateObs();
    const double* achieved = obs_.data();
    const double d = GoalDistance(achieved, goal_.data(), 3);
    is_success_ = d < task_.distance_threshold ? 1.0f : 0.0f;
    StepResult r;
    // compute_reward: -(d > threshold).astype(np.float32), or -d.
    r.reward = dense_ ? -d : -(d > task_.distance_threshold ? 1.0 : 0.0);
    return r;
  }

  void WriteObs(const Row& row) override {
    double* achieved = row.Obs<double>(0);
    double* desired = row.Obs<double>(1);
    double* observation = row.Obs<double>(2);
    std::copy(obs_.begin(), obs_.begin() + 3, achieved);
    std::copy(goal_.begin(), goal_.end(), desired);
    std::copy(obs_.begin() + 3, obs_.end(), observation);
    *row.Info<float>(0) = is_success_;
  }

  // The last observation and success (the base saves the goal).
  ENVPOOL_LITE_STATE_AFTER(RobotEnv, obs_, is_success_)

 private:
  // _env_setup: the initial joint positions, the mocap welds reset, the
  // gripper moved to its start by 10 steps of n_substeps.
  void EnvSetup() {
    sim_.SetJointQpos("robot0:slide0", {task_.slides[0]});
    sim_.SetJointQpos("robot0:slide1", {task_.slides[1]});
    sim_.SetJointQpos("robot0:slide2", {task_.slides[2]});
    if (task_.has_object) {
      sim_.SetJointQpos(
          "object0:joint",
          std::vector<double>(task_.object.begin(), task_.object.end()));
    }
    sim_.ResetMocapWelds();
    sim_.Forward();
    const double* grip = sim_.SiteXpos(grip_site_);
    const double offset[3] = {-0.498, 0.005,
                              -0.431 + task_.gripper_extra_height};
    const int mocap = sim_.m()->body_mocapid[sim_.BodyId("robot0:mocap")];
    for (int i = 0; i < 3; ++i) {
      sim_.d()->mocap_pos[3 * mocap + i] = offset[i] + grip[i];
    }
    const double rotation[4] = {1.0, 0.0, 1.0, 0.0};
    std::copy(rotation, rotation + 4, sim_.d()->mocap_quat + 4 * mocap);
    for (int i = 0; i < 10; ++i) sim_.Step(kNSubsteps);
    const double* g = sim_.SiteXpos(grip_site_);
    initial_gripper_xpos_ = {g[0], g[1], g[2]};
    if (task_.has_object) height_offset_ = sim_.SiteXpos(object_site_)[2];
  }

  // _sample_goal
  void SampleGoal() {
    for (int i = 0; i < 3; ++i) {
      goal_[i] = initial_gripper_xpos_[i] +
                 rng_.Uniform(-task_.target_range, task_.target_range);
    }
    if (task_.has_object) {
      for (int i = 0; i < 3; ++i) goal_[i] += task_.target_offset[i];
      goal_[2] = height_offset_;
      if (task_.target_in_the_air && rng_.Uniform(0.0, 1.0) < 0.5) {
        goal_[2] += rng_.Uniform(0.0, 0.45);
      }
    }
  }

  // _get_obs into obs_: achieved_goal (3) then the observation.
  void UpdateObs() {
    const double dt = static_cast<double>(n_substeps_) * sim_.m()->opt.timestep;
    const double* grip_pos = sim_.SiteXpos(grip_site_);
    double grip_velp[3];
    sim_.SiteXvelp(grip_site_, grip_velp);
    for (double& v : grip_velp) v *= dt;
    const int nr = static_cast<int>(robot_joints_.size());
    const double gripper_state[2] = {*sim_.JointQpos(robot_joints_[nr - 2]),
                                     *sim_.JointQpos(robot_joints_[nr - 1])};
    const double gripper_vel[2] = {*sim_.JointQvel(robot_joints_[nr - 2]) * dt,
                                   *sim_.JointQvel(robot_joints_[nr - 1]) * dt};
    obs_.clear();
    auto add = [this](const double* p, int n) {
      obs_.insert(obs_.end(), p, p + n);
    };
    if (!task_.has_object) {
      add(grip_pos, 3);  // achieved_goal
      add(grip_pos, 3);
      add(gripper_state, 2);
      add(grip_velp, 3);
      add(gripper_vel, 2);
      return;
    }
    const double* object_pos = sim_.SiteXpos(object_site_);
    double object_rot[3], object_velp[3], object_velr[3], rel_pos[3];
    sim_.Mat2Euler(sim_.SiteXmat(object_site_), object_rot);
    sim_.SiteXvelp(object_site_, object_velp);
    sim_.SiteXvelr(object_site_, object_velr);
    for (int i = 0; i < 3; ++i) {
      object_velp[i] *= dt;
      object_velr[i] *= dt;
      rel_pos[i] = object_pos[i] - grip_pos[i];
      object_velp[i] -= grip_velp[i];
    }
    add(object_pos, 3);  // achieved_goal
    add(grip_pos, 3);
    add(object_pos, 3);
    add(rel_pos, 3);
    add(gripper_state, 2);
    add(object_rot, 3);
    add(object_velp, 3);
    add(object_velr, 3);
    add(grip_velp, 3);
    add(gripper_vel, 2);
  }

  FetchTask task_;
  bool dense_;
  int grip_site_, object_site_, object_joint_, l_finger_, r_finger_;
  std::vector<int> robot_joints_;
  std::array<double, 3> initial_gripper_xpos_{};
  double height_offset_ = 0.0;
  std::vector<double> obs_;
  float is_success_ = 0.0f;
};

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
