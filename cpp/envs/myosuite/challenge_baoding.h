// MyoChallenge 2022's Baoding balls (envs/myo/myochallenge/baoding_v1.py,
// BaodingEnvV1): the hand, palm up, rolls two balls along targets that
// circle an ellipse (counter-clockwise, or with task_choice="random" a task
// drawn at every reset: hold, clockwise or counter-clockwise, from a drawn
// start angle). At every reset the ellipse's radii and the period are
// drawn, and, where the options give them, the balls' masses, frictions
// and sizes. Each step first moves the two target sites to the
// trajectory's next point (BaodingEnvV1.step), then steps.
//
// The trajectory (create_goal_trajectory) is not stored: its point t is
// sign * 2 * pi * (t * time_step / time_period), computed when needed.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeBaodingEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", StringList{"hand_pos", "object1_pos", "object1_velp",
                                 "object2_pos", "object2_velp", "target1_pos",
                                 "target2_pos", "target1_err", "target2_err"});
    c.Set("weighted_reward_keys",
          NamedNumbers{{"pos_dist_1", {5.0}}, {"pos_dist_2", {5.0}}});
    c.Set("drop_th", 1.25);
    c.Set("proximity_th", 0.015);
    c.Set("goal_time_period", NumberList{5.0, 5.0});
    c.Set("goal_xrange", NumberList{0.025, 0.025});
    c.Set("goal_yrange", NumberList{0.028, 0.028});
    // Empty: myosuite's None (no randomisation).
    c.Set("obj_size_range", NumberList{});
    c.Set("obj_mass_range", NumberList{});
    c.Set("obj_friction_change", NumberList{});
    c.Set("task_choice", std::string("fixed"));
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_pos", m->nq - 14}, {"object1_pos", 3},
             {"object2_pos", 3},       {"object1_velp", 3},
             {"object2_velp", 3},      {"target1_pos", 3},
             {"target2_pos", 3},       {"target1_err", 3},
             {"target2_err", 3},       {"act", m->na}};
    l.rwd = {{"pos_dist_1"},      {"pos_dist_2"},    {"act_reg"}, {"sparse"},
             {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeBaodingEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    ids_ = Check(config, api_, m());
    drop_th_ = config.GetFloat("drop_th", -kInf, kInf);
    proximity_th_ = config.GetFloat("proximity_th", -kInf, kInf);
    period_ = config.GetNumberList("goal_time_period");
    xrange_ = config.GetNumberList("goal_xrange");
    yrange_ = config.GetNumberList("goal_yrange");
    size_range_ = config.GetNumberList("obj_size_range");
    mass_range_ = config.GetNumberList("obj_mass_range");
    random_task_ = config.GetString("task_choice") == "random";
    // _setup: the task (np_random.choice(Task): integers(0, 3)), the
    // start angles, the radii, the trajectory for frame_skip * timestep
    // and a period of 6.
    sign_ = random_task_ ? TaskSign(rng_.Choice(3)) : 1;
    ball1_angle_ = 1.0 * kPi / 4.0;
    ball2_angle_ = ball1_angle_ - kPi;
    x_radius_ = rng_.Uniform(xrange_[0], xrange_[1]);
    y_radius_ = rng_.Uniform(yrange_[0], yrange_[1]);
    counter_ = 0;
    time_step_ = static_cast<double>(frame_skip_) * m()->opt.timestep;
    time_period_ = 6.0;
    m()->site_group[ids_.target1_site] = 2;
    m()->site_group[ids_.target2_site] = 2;
    const NumberList& change = config.GetNumberList("obj_friction_change");
    if (!change.empty()) {
      for (int k = 0; k < 3; ++k) {
        const double f = m()->geom_friction[3 * ids_.ball1_geom + k];
        const double c = change.size() == 1 ? change[0] : change[k];
        friction_low_.push_back(f - c);
        friction_high_.push_back(f + c);
      }
    }
    // MujocoEnv._setup's step of zero controls goes through
    // BaodingEnvV1.step: the targets move to the trajectory's first point.
    MoveTargets();
    ++counter_;
    Setup();
    // init_qpos[:-14] *= 0 (the hand fully open), init_qpos[0] = -1.57.
    for (int i = 0; i + 14 < m()->nq; ++i) init_qpos_[i] *= 0.0;
    init_qpos_[0] = -1.57;
  }

  StepResult Step(const void* action) override {
    MoveTargets();
    ++counter_;
    return MyoEnv::Step(action);
  }

  // BaodingEnvV1.reset: its draws in order, then MujocoEnv._reset (after
  // BaseV0's fatigue reset).
  void Reset() override {
    if (random_task_) {
      sign_ = TaskSign(rng_.Choice(3));
      ball1_angle_ = rng_.Uniform(0.0, 2 * kPi);
      ball2_angle_ = ball1_angle_ - kPi;
    }
    counter_ = 0;
    x_radius_ = rng_.Uniform(xrange_[0], xrange_[1]);
    y_radius_ = rng_.Uniform(yrange_[0], yrange_[1]);
    time_period_ = rng_.Uniform(period_[0], period_[1]);
    time_step_ = dt_;
    const int g1 = ids_.ball1_geom, g2 = ids_.ball2_geom;
    if (!mass_range_.empty()) {
      m()->body_mass[ids_.ball1_body] =
          rng_.Uniform(mass_range_[0], mass_range_[1]);
      m()->body_mass[ids_.ball2_body] =
          rng_.Uniform(mass_range_[0], mass_range_[1]);
    }
    if (!friction_low_.empty()) {
      for (int g : {g1, g2}) {
        for (int k = 0; k < 3; ++k) {
          m()->geom_friction[3 * g + k] =
              rng_.Uniform(friction_low_[k], friction_high_[k]);
        }
      }
    }
    if (!size_range_.empty()) {
      for (int g : {g1, g2}) {
        const double s = rng_.Uniform(size_range_[0], size_range_[1]);
        for (int k = 0; k < 3; ++k) m()->geom_size[3 * g + k] = s;
      }
    }
    // myosuite's reset computes no rewards: the balls keep the last step's
    // colours.
    float kept[4];
    for (int k = 0; k < 2; ++k) {
      kept[k] = m()->geom_rgba[4 * g1 + k];
      kept[2 + k] = m()->geom_rgba[4 * g2 + k];
    }
    ResetToInit();
    for (int k = 0; k < 2; ++k) {
      m()->geom_rgba[4 * g1 + k] = kept[k];
      m()->geom_rgba[4 * g2 + k] = kept[2 + k];
    }
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, sign_, ball1_angle_, ball2_angle_, x_radius_,
                           y_radius_, counter_, time_step_, time_period_)

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 14, Obs("hand_pos"));
    const double* x = d()->site_xpos;
    double* o1 = Obs("object1_pos");
    double* o2 = Obs("object2_pos");
    double* v1 = Obs("object1_velp");
    double* v2 = Obs("object2_velp");
    double* t1 = Obs("target1_pos");
    double* t2 = Obs("target2_pos");
    double* e1 = Obs("target1_err");
    double* e2 = Obs("target2_err");
    for (int i = 0; i < 3; ++i) {
      o1[i] = x[3 * ids_.ball1_site + i];
      o2[i] = x[3 * ids_.ball2_site + i];
      v1[i] = d()->qvel[nv - 12 + i] * dt_;
      v2[i] = d()->qvel[nv - 6 + i] * dt_;
      t1[i] = x[3 * ids_.target1_site + i];
      t2[i] = x[3 * ids_.target2_site + i];
      e1[i] = t1[i] - o1[i];
      e2[i] = t2[i] - o2[i];
    }
    std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict, and the balls' colours it sets.
  void RewardDict() override {
    const double d1 = Norm(Obs("target1_err"), 3, scratch_.data());
    const double d2 = Norm(Obs("target2_err"), 3, scratch_.data());
    const double target_dist = d1 + d2;
    const double act_mag = ActMag();
    const bool fall =
        Obs("object1_pos")[2] < drop_th_ || Obs("object2_pos")[2] < drop_th_;
    Rwd("pos_dist_1") = -1.0 * d1;
    Rwd("pos_dist_2") = -1.0 * d2;
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("sparse") = -target_dist;
    Rwd("solved") =
        (d1 < proximity_th_ && d2 < proximity_th_ && !fall) ? 1.0 : 0.0;
    Rwd("done") = fall ? 1.0 : 0.0;
    const bool near = d1 < proximity_th_;
    float* rgba1 = m()->geom_rgba + 4 * ids_.ball1_geom;
    float* rgba2 = m()->geom_rgba + 4 * ids_.ball2_geom;
    rgba1[0] = near ? 1.0f : 0.5f;
    rgba1[1] = near ? 1.0f : 0.5f;
    rgba2[0] = near ? 0.9f : 0.5f;
    rgba2[1] = near ? 0.7f : 0.5f;
  }

 private:
  struct Ids {
    int ball1_body = -1, ball2_body = -1, ball1_site = -1, ball2_site = -1;
    int ball1_geom = -1, ball2_geom = -1, target1_site = -1, target2_site = -1;
  };

  // Task(k): HOLD 0, BAODING_CW -1, BAODING_CCW 1 (create_goal_trajectory's
  // sign).
  static int TaskSign(int64_t k) { return k == 0 ? 0 : (k == 1 ? -1 : 1); }

  // BaodingEnvV1.step's target update: the trajectory's point `counter_`,
  // shifted by the start angles, on the ellipse about center_pos.
  void MoveTargets() {
    const double t = static_cast<double>(counter_);
    const double angle =
        static_cast<double>(sign_ * 2) * kPi * (t * time_step_ / time_period_);
    const double a1 = angle + ball1_angle_;
    const double a2 = angle + ball2_angle_;
    const double center[2] = {-0.0125, -0.07};
    const double p0 = x_radius_ * np_.Cos(a1) + center[0];
    const double p1 = y_radius_ * np_.Sin(a1) + center[1];
    const double p2 = x_radius_ * np_.Cos(a2) + center[0];
    const double p3 = y_radius_ * np_.Sin(a2) + center[1];
    m()->site_pos[3 * ids_.target1_site + 0] = p0;
    m()->site_pos[3 * ids_.target1_site + 1] = p1;
    m()->site_pos[3 * ids_.target2_site + 0] = p2;
    m()->site_pos[3 * ids_.target2_site + 1] = p3;
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    ids.ball1_body = api.name2id(m, mjOBJ_BODY, "ball1");
    ids.ball2_body = api.name2id(m, mjOBJ_BODY, "ball2");
    ids.ball1_geom = api.name2id(m, mjOBJ_GEOM, "ball1");
    ids.ball2_geom = api.name2id(m, mjOBJ_GEOM, "ball2");
    if (ids.ball1_body < 0 || ids.ball2_body < 0 || ids.ball1_geom < 0 ||
        ids.ball2_geom < 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the Baoding task needs the bodies and geoms "
          "'ball1' and 'ball2'");
    }
    ids.ball1_site = SiteId(api, m, "ball1_site", "mujoco_model");
    ids.ball2_site = SiteId(api, m, "ball2_site", "mujoco_model");
    ids.target1_site = SiteId(api, m, "target1_site", "mujoco_model");
    ids.target2_site = SiteId(api, m, "target2_site", "mujoco_model");
    if (m->nq < 14 || m->nv < 12 || m->na < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the Baoding task needs the balls' two free "
          "joints last and muscles (myosuite's get_obs_dict fails without "
          "activations)");
    }
    // create_goal_trajectory's 1000 points: a longer episode fails in
    // myosuite (IndexError at step 1001).
    if (config.GetInt("max_episode_steps") > 1000) {
      throw std::invalid_argument(
          "option 'max_episode_steps': at most 1000 for the Baoding task "
          "(myosuite's goal trajectory has 1000 points; its step 1001 raises "
          "IndexError)");
    }
    for (const char* name : {"goal_time_period", "goal_xrange", "goal_yrange",
                             "obj_size_range", "obj_mass_range"}) {
      const NumberList& v = config.GetNumberList(name);
      const bool optional = std::string(name).rfind("obj_", 0) == 0;
      if (optional && v.empty()) continue;
      if (v.size() != 2) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "': (low, high) expected, got " +
                                    std::to_string(v.size()) + " values");
      }
      CheckUniform(name, v[0], v[1]);
    }
    const NumberList& period = config.GetNumberList("goal_time_period");
    if (!(period[0] > 0)) {
      throw std::invalid_argument(
          "option 'goal_time_period': must be above 0 (the trajectory "
          "divides by it)");
    }
    const NumberList& change = config.GetNumberList("obj_friction_change");
    if (!change.empty()) {
      if (change.size() != 3 && change.size() != 1) {
        throw std::invalid_argument(
            "option 'obj_friction_change': three values (sliding, torsional, "
            "rolling) expected");
      }
      for (int k = 0; k < 3; ++k) {
        const double f = m->geom_friction[3 * ids.ball1_geom + k];
        const double c = change.size() == 1 ? change[0] : change[k];
        CheckUniform("obj_friction_change", f - c, f + c);
      }
    }
    for (const char* name : {"drop_th", "proximity_th"}) {
      config.GetFloat(name, -kInf, kInf);
    }
    config.GetString("task_choice");
    return ids;
  }

  Ids ids_;
  double drop_th_ = 1.25, proximity_th_ = 0.015;
  NumberList period_, xrange_, yrange_, size_range_, mass_range_;
  std::vector<double> friction_low_, friction_high_;
  bool random_task_ = false;
  int sign_ = 1;
  double ball1_angle_ = 0.0, ball2_angle_ = 0.0;
  double x_radius_ = 0.0, y_radius_ = 0.0;
  int64_t counter_ = 0;
  double time_step_ = 0.0, time_period_ = 6.0;
};

}  // namespace myosuite
}  // namespace envpool_lite
