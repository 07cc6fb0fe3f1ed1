// MyoChallenge 2025's soccer (envs/myo/myochallenge/soccer_v0.py,
// SoccerEnvV0): the legs kick a ball into a goal at x = 50 m that a
// goalkeeper guards.
//
// What myosuite 2.12.2 does, and so what this does:
//  - The goalkeeper (GoalKeeper) is the first mocap body of the env's
//    (observed) data: myosuite moves it there, so the robot's physics never
//    sees it move; what it changes is the obs dict's goalkeeper_pos and the
//    pictures. Its policy, drawn at each reset: block_ball (follow the
//    ball's y at up to block_velocity), random (pink-noise-rl's colored
//    noise, refkit/pink/colored_noise.h, clipped to block_velocity) or
//    stationary, with goalkeeper_probabilities; its y in [-3.3, 3.3].
//  - Construction, in myosuite's order: the goalkeeper (its block velocity
//    drawn, then its reset: a new noise process with that velocity as its
//    scale, the policy, its y, a new block velocity), WalkEnvV0's setup
//    (BaseV0's, whose step of zero controls first moves the goalkeeper, with
//    a pain of -1: startFlag is not set yet), the height field moved away
//    unseen, init_qpos keyframe 0; then the goalkeeper's time step becomes
//    the env's.
//  - A step: the goalkeeper moves, then BaseV0.step.
//  - A reset: the start (reset_type "random": keyframe 0 with every body
//    joint drawn within rnd_joint_noise and the root drawn up to
//    rnd_pos_noise behind and aside; else keyframe 0) written into the env's
//    data, mj_forward of it (sync_sims onto itself), BaseV0's reset (whose
//    observation is returned: its goalkeeper_pos is the last episode's),
//    then the goalkeeper's reset and mj_forward of the env's data.
//  - The reward dict: goal_scored (the ball past x = 50 within the goal),
//    time_cost (the time), act_reg (np.mean of the squared activations),
//    pain (the joint-limit forces of twelve joints, mj_mulJacTVec of the
//    limit rows of efc_force, clipped to 1000 and averaged), sparse and
//    done (a goal, the time past max_time_sec, or the pelvis below 0.2 m),
//    solved (a goal); "dense" np.sum's.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"
#include "refkit/numpy/fft.h"
#include "refkit/numpy/rotations.h"
#include "refkit/pink/colored_noise.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeSoccerEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("max_episode_steps", int64_t{2000});
    c.Set("obs_keys",
          StringList{"internal_qpos", "internal_qvel", "grf", "torso_angle",
                     "ball_pos", "model_root_pos", "model_root_vel",
                     "muscle_length", "muscle_velocity", "muscle_force"});
    c.Set("weighted_reward_keys", NamedNumbers{{"goal_scored", {1000.0}},
                                               {"time_cost", {-0.01}},
                                               {"act_reg", {-100.0}},
                                               {"pain", {-10.0}}});
    c.Set("reset_type", std::string("none"));
    c.Set("min_agent_spawn_distance", 1.0);  // taken, not used
    c.Set("random_vel_range", NumberList{1.0, 5.0});
    c.Set("rnd_pos_noise", 1.0);
    c.Set("rnd_joint_noise", 0.02);
    c.Set("goalkeeper_probabilities", NumberList{0.1, 0.45, 0.45});
    c.Set("max_time_sec", 10.0);
    SetUnusedWalkOptions(&c);
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"internal_qpos", kJoints},
             {"internal_qvel", kJoints},
             {"grf", 4},
             {"torso_angle", 4},
             {"pelvis_angle", 4},
             {"muscle_length", m->nu},
             {"muscle_velocity", m->nu},
             {"muscle_force", m->nu},
             {"r_toe_pos", 3},
             {"l_toe_pos", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.obs.push_back({"ball_pos", 3});
    l.obs.push_back({"goal_bounds", 12});
    l.obs.push_back({"model_root_pos", 7});
    l.obs.push_back({"model_root_vel", 6});
    l.obs.push_back({"goalkeeper_pos", 2});
    l.rwd = {{"goal_scored"}, {"time_cost"}, {"act_reg"}, {"pain"},
             {"sparse"},      {"solved"},    {"done"},    {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeSoccerEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout),
        fft_(config.GetNamedNumbers("numpy_loops")) {
    ids_ = Check(config, api_, m());
    const std::string& reset = config.GetString("reset_type");
    reset_random_ = reset == "random";
    const NumberList& vel = config.GetNumberList("random_vel_range");
    vel_low_ = vel[0], vel_high_ = vel[1];
    const NumberList& p = config.GetNumberList("goalkeeper_probabilities");
    for (int i = 0; i < 3; ++i) probabilities_[i] = p[i];
    rnd_pos_noise_ = std::fabs(config.GetFloat("rnd_pos_noise"));
    rnd_joint_noise_ = std::fabs(config.GetFloat("rnd_joint_noise"));
    max_time_ = config.GetFloat("max_time_sec");
    // GoalKeeper.__init__.
    block_velocity_ = rng_.Uniform(vel_low_, vel_high_);
    ResetGoalkeeper();
    Setup();
    // WalkEnvV0._setup: the height field moved away, unseen; both: the first
    // keyframe, at rest.
    m()->geom_rgba[4 * ids_.terrain + 3] = 0.0f;
    const double away[3] = {0, 0, -10};
    std::copy(away, away + 3, m()->geom_pos + 3 * ids_.terrain);
    std::copy(m()->key_qpos, m()->key_qpos + m()->nq, init_qpos_.begin());
    std::fill(init_qvel_.begin(), init_qvel_.end(), 0.0);
    started_ = true;
    keeper_dt_ = m()->opt.timestep * frame_skip_;
    qpos_.assign(static_cast<std::size_t>(m()->nq), 0.0);
    qvel_.assign(static_cast<std::size_t>(m()->nv), 0.0);
  }

  // SoccerEnvV0.reset.
  void Reset() override {
    const int nq = m()->nq, nv = m()->nv;
    if (reset_random_) {
      // _get_randomized_initial_state, in the env's data.
      std::copy(m()->key_qpos, m()->key_qpos + nq, d()->qpos);
      std::copy(m()->key_qvel, m()->key_qvel + nv, d()->qvel);
      for (int adr : ids_.joint_qpos) {
        d()->qpos[adr] += rng_.Uniform(-rnd_joint_noise_, rnd_joint_noise_);
      }
      d()->qpos[ids_.root_qpos] += rng_.Uniform(-rnd_pos_noise_, 0);
      d()->qpos[ids_.root_qpos + 1] +=
          rng_.Uniform(-rnd_pos_noise_, rnd_pos_noise_);
      std::copy(d()->qpos, d()->qpos + nq, qpos_.begin());
      std::copy(d()->qvel, d()->qvel + nv, qvel_.begin());
    } else {
      std::copy(m()->key_qpos, m()->key_qpos + nq, qpos_.begin());
      std::copy(m()->key_qvel, m()->key_qvel + nv, qvel_.begin());
    }
    api_.forward(m(), d());  // sync_sims of the env's data onto itself
    ResetTo(qpos_.data(), qvel_.data());
    ResetGoalkeeper();
    api_.forward(m(), d());
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, noise_, policy_, block_velocity_, keeper_dt_,
                           started_)

 protected:
  void ObsDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    double* qpos = Obs("internal_qpos");
    double* qvel = Obs("internal_qvel");
    for (int i = 0; i < kJoints; ++i) {
      qpos[i] = dd->qpos[ids_.joint_qpos[i]];
      qvel[i] = dd->qvel[ids_.joint_dof[i]] * dt_;
    }
    double* grf = Obs("grf");
    for (int i = 0; i < 4; ++i) grf[i] = dd->sensordata[ids_.grf_adr[i]];
    std::copy(dd->xquat + 4 * ids_.torso, dd->xquat + 4 * ids_.torso + 4,
              Obs("torso_angle"));
    std::copy(dd->xquat + 4 * ids_.pelvis, dd->xquat + 4 * ids_.pelvis + 4,
              Obs("pelvis_angle"));
    MuscleObs(dd, m()->nu, Obs("muscle_length"), Obs("muscle_velocity"),
              Obs("muscle_force"));
    std::copy(dd->geom_xpos + 3 * ids_.r_toe,
              dd->geom_xpos + 3 * ids_.r_toe + 3, Obs("r_toe_pos"));
    std::copy(dd->geom_xpos + 3 * ids_.l_toe,
              dd->geom_xpos + 3 * ids_.l_toe + 3, Obs("l_toe_pos"));
    if (mm->na > 0) std::copy(dd->act, dd->act + mm->na, Obs("act"));
    std::copy(dd->xpos + 3 * ids_.ball, dd->xpos + 3 * ids_.ball + 3,
              Obs("ball_pos"));
    const double bounds[12] = {kGoalX, kYMin, 0.0, kGoalX, kYMax, 0.0,
                               kGoalX, kYMin, 2.2, kGoalX, kYMax, 2.2};
    std::copy(bounds, bounds + 12, Obs("goal_bounds"));
    std::copy(dd->qpos + ids_.root_qpos, dd->qpos + ids_.root_qpos + 7,
              Obs("model_root_pos"));
    std::copy(dd->qvel + ids_.root_dof, dd->qvel + ids_.root_dof + 6,
              Obs("model_root_vel"));
    std::copy(dd->mocap_pos, dd->mocap_pos + 2, Obs("goalkeeper_pos"));
  }

  // SoccerEnvV0.step: the goalkeeper moves first.
  void PreStep() override { UpdateGoalkeeper(); }

  void RewardDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    double act_mag = 0.0;  // np.mean(np.square(act))
    if (mm->na > 0) {
      double* s = scratch_.data();
      for (int i = 0; i < mm->na; ++i) s[i] = dd->act[i] * dd->act[i];
      act_mag = PairwiseSum(s, mm->na) / static_cast<double>(mm->na);
    }
    const double* ball = dd->xpos + 3 * ids_.ball;
    const bool goal = ball[0] >= kGoalX && kYMin <= ball[1] &&
                      ball[1] <= kYMax && 0.0 <= ball[2] && ball[2] <= 2.2;
    const bool late = dd->time >= max_time_;
    const bool fallen = dd->xpos[3 * ids_.pelvis + 2] < 0.2;
    const bool done = goal || late || fallen;
    Rwd("goal_scored") = goal ? 1.0 : 0.0;
    Rwd("time_cost") = dd->time;
    Rwd("act_reg") = act_mag;
    Rwd("pain") =
        started_ ? JointLimitPain(ids_.pain_dof) : -1;  // -1 before startFlag
    Rwd("sparse") = done ? 1.0 : 0.0;
    Rwd("solved") = goal ? 1.0 : 0.0;
    Rwd("done") = done ? 1.0 : 0.0;
  }

 private:
  static constexpr int kJoints = 46;
  static constexpr double kGoalX = 50, kYMin = -3.3, kYMax = 3.3;
  enum Policy : int32_t { kBlockBall = 0, kRandom = 1, kStationary = 2 };

  // SoccerEnvV0.myo_joints, in its order.
  static constexpr const char* kJointNames[kJoints] = {
      "Abs_r3",
      "Abs_t1",
      "Abs_t2",
      "L1_L2_AR",
      "L1_L2_FE",
      "L1_L2_LB",
      "L2_L3_AR",
      "L2_L3_FE",
      "L2_L3_LB",
      "L3_L4_AR",
      "L3_L4_FE",
      "L3_L4_LB",
      "L4_L5_AR",
      "L4_L5_FE",
      "L4_L5_LB",
      "ankle_angle_l",
      "ankle_angle_r",
      "axial_rotation",
      "flex_extension",
      "hip_adduction_l",
      "hip_adduction_r",
      "hip_flexion_l",
      "hip_flexion_r",
      "hip_rotation_l",
      "hip_rotation_r",
      "knee_angle_l",
      "knee_angle_l_beta_rotation1",
      "knee_angle_l_beta_translation1",
      "knee_angle_l_beta_translation2",
      "knee_angle_l_rotation2",
      "knee_angle_l_rotation3",
      "knee_angle_l_translation1",
      "knee_angle_l_translation2",
      "knee_angle_r",
      "knee_angle_r_beta_rotation1",
      "knee_angle_r_beta_translation1",
      "knee_angle_r_beta_translation2",
      "knee_angle_r_rotation2",
      "knee_angle_r_rotation3",
      "knee_angle_r_translation1",
      "knee_angle_r_translation2",
      "lat_bending",
      "mtp_angle_l",
      "mtp_angle_r",
      "subtalar_angle_l",
      "subtalar_angle_r"};
  // JNT_OVEREXT: the joints whose limit forces are the pain.
  static constexpr const char* kPainJoints[12] = {
      "hip_adduction_l", "hip_adduction_r",        "hip_flexion_l",
      "hip_flexion_r",   "hip_rotation_l",         "hip_rotation_r",
      "knee_angle_l",    "knee_angle_l_rotation2", "knee_angle_l_rotation3",
      "mtp_angle_l",     "ankle_angle_l",          "subtalar_angle_l"};

  struct Ids {
    std::vector<int> joint_qpos, joint_dof, pain_dof;
    int grf_adr[4] = {0, 0, 0, 0};
    int torso = -1, pelvis = -1, ball = -1, r_toe = -1, l_toe = -1;
    int root_qpos = -1, root_dof = -1, terrain = -1;
  };

  // get_goalkeeper_pose's angle: quat2euler(mocap_quat[0])[-1].
  double KeeperAngle() const {
    double euler[3];
    Quat2Euler(np_, d()->mocap_quat, euler);
    return euler[2];
  }

  // set_goalkeeper_pose(x, y, angle): x fixed, y clipped, into the env's
  // data.
  void SetKeeperPose(double y, double angle) {
    d()->mocap_pos[0] = kGoalX;
    d()->mocap_pos[1] = std::min(std::max(y, kYMin), kYMax);
    const double euler[3] = {0.0, 0.0, angle};
    Euler2Quat(np_, euler, d()->mocap_quat);
  }

  // reset_goalkeeper(rng): a new noise process (scaled by the last block
  // velocity), the policy, the place, a new block velocity.
  void ResetGoalkeeper() {
    noise_ = pink::ColoredNoiseProcess(2, 2, 10, block_velocity_);
    noise_.Reset(&rng_, np_, fft_);
    const double r = rng_.NextDouble();  // np_random.uniform()
    const double* p = probabilities_;
    if (r < p[0]) {
      policy_ = kBlockBall;
    } else if (r < p[0] + p[1]) {
      policy_ = kRandom;
    } else if (r < p[0] + p[1] + p[2]) {
      policy_ = kStationary;
    }  // else the last episode's (Check makes them sum to 1)
    const double y = rng_.Uniform(kYMin, kYMax);
    SetKeeperPose(y, 0.0);
    block_velocity_ = rng_.Uniform(vel_low_, vel_high_);
  }

  // update_goalkeeper_state: the policy's velocity, then move_goalkeeper.
  void UpdateGoalkeeper() {
    double lin_vel = 0.0;
    if (policy_ == kRandom) {
      double v[2];
      noise_.Sample(&rng_, np_, fft_, v);
      lin_vel = std::min(std::max(v[0], -block_velocity_), block_velocity_);
    } else if (policy_ == kBlockBall) {
      const double ball_y = d()->xpos[3 * ids_.ball + 1];
      const double target = std::min(std::max(ball_y, kYMin), kYMax);
      const double displacement = target - d()->mocap_pos[1];
      lin_vel =
          std::min(std::max(displacement, -block_velocity_), block_velocity_);
    }
    const double angle = KeeperAngle();
    const double y = d()->mocap_pos[1] + keeper_dt_ * lin_vel;
    SetKeeperPose(y, angle);
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    auto id = [&](mjtObj type, const char* name) {
      return ModelId(api, m, type, name, "soccer");
    };
    for (const char* name : kJointNames) {
      const int j = id(mjOBJ_JOINT, name);
      ids.joint_qpos.push_back(m->jnt_qposadr[j]);
      ids.joint_dof.push_back(m->jnt_dofadr[j]);
    }
    for (const char* name : kPainJoints) {
      ids.pain_dof.push_back(m->jnt_dofadr[id(mjOBJ_JOINT, name)]);
    }
    const char* grf[4] = {"r_foot", "r_toes", "l_foot", "l_toes"};
    for (int i = 0; i < 4; ++i) {
      ids.grf_adr[i] = m->sensor_adr[id(mjOBJ_SENSOR, grf[i])];
    }
    ids.torso = id(mjOBJ_BODY, "torso");
    ids.pelvis = id(mjOBJ_BODY, "pelvis");
    ids.ball = id(mjOBJ_BODY, "soccer_ball");
    ids.r_toe = id(mjOBJ_GEOM, "r_bofoot");
    ids.l_toe = id(mjOBJ_GEOM, "l_bofoot");
    ids.terrain = id(mjOBJ_GEOM, "terrain");
    const int root = id(mjOBJ_JOINT, "root");
    if (m->jnt_type[root] != mjJNT_FREE || m->nmocap < 1 || m->nkey < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the soccer task needs a free joint 'root', "
          "the goalkeeper's mocap body and a keyframe");
    }
    ids.root_qpos = m->jnt_qposadr[root];
    ids.root_dof = m->jnt_dofadr[root];
    const std::string& reset = config.GetString("reset_type");
    if (reset != "none" && reset != "init" && reset != "random") {
      throw std::invalid_argument(
          "option 'reset_type' must be 'none', 'init' or 'random' (myosuite's "
          "SoccerEnvV0), got '" +
          reset + "'");
    }
    // assert_settings, and Generator.uniform's checks.
    const NumberList& p = config.GetNumberList("goalkeeper_probabilities");
    if (p.size() != 3) {
      throw std::invalid_argument(
          "option 'goalkeeper_probabilities': 3 numbers (block_ball, "
          "random, stationary) expected");
    }
    double sum = 0.0;
    for (double x : p) {
      if (!(0 <= x && x <= 1)) {
        throw std::invalid_argument(
            "option 'goalkeeper_probabilities': each must be in [0, 1] "
            "(myosuite asserts it)");
      }
      sum += x;
    }
    if (!(std::fabs(sum - 1.0) <= 1e-8 + 1e-5)) {  // np.isclose(sum, 1.0)
      throw std::invalid_argument(
          "option 'goalkeeper_probabilities': they must sum to 1 (myosuite "
          "asserts it)");
    }
    const NumberList& vel = config.GetNumberList("random_vel_range");
    if (vel.size() != 2 || !(vel[0] >= 0)) {
      throw std::invalid_argument(
          "option 'random_vel_range': (low, high) with low >= 0 expected "
          "(myosuite asserts it)");
    }
    CheckUniform("random_vel_range", vel[0], vel[1]);
    for (const char* name : {"rnd_pos_noise", "rnd_joint_noise"}) {
      const double x = config.GetFloat(name);
      if (!std::isfinite(x)) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "' must be finite");
      }
    }
    for (const char* name :
         {"max_time_sec", "min_agent_spawn_distance", "min_height", "max_rot",
          "target_x_vel", "target_y_vel"}) {
      config.GetFloat(name, -kInf, kInf);
    }
    return ids;
  }

  NumpyFft fft_;
  Ids ids_;
  bool reset_random_ = false;
  double vel_low_ = 1.0, vel_high_ = 5.0;
  double probabilities_[3] = {0.1, 0.45, 0.45};
  double rnd_pos_noise_ = 1.0, rnd_joint_noise_ = 0.02, max_time_ = 10.0;
  pink::ColoredNoiseProcess noise_;
  int32_t policy_ = kStationary;
  double block_velocity_ = 1.0;
  double keeper_dt_ = 0.01;  // GoalKeeper's dt until the setup is done
  bool started_ = false;
  std::vector<double> qpos_, qvel_;
};

}  // namespace myosuite
}  // namespace envpool_lite
