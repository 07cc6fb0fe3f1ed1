// MyoChallenge 2025's table tennis (envs/myo/myochallenge/tabletennis_v0.py,
// TableTennisEnvV0): the full-body model, its legs fixed, returns a served
// ball with a paddle held in its right hand.
//
// What myosuite 2.12.2 does, and so what this does:
//  - The model: myoarm_tabletennis.xml edited before it is compiled
//    (_preprocess_spec, model_edit.h's LoadTableTennisModel): the sensors
//    other than the ball's and the paddle's removed, the legs immobilised
//    (their joints, sites and joint equalities deleted, the keyframes'
//    qpos cut to match), the body's collisions off (but the forearm's:
//    remove_body_collisions), and a mirrored copy of the right arm, without
//    joints or collisions, attached to the torso (add_left_arm).
//  - Setup: init_qpos is keyframe 0 and the ball starts at 5.6, 1.6, 0.1 m/s
//    (init_qvel), after BaseV0's setup step.
//  - A step: the robotic actuators (the pelvis' x and y) mapped from
//    [-1, 1] to their control range, then BaseV0.step.
//  - A reset, in order: keyframe 0; the paddle's mass (paddle_mass_range),
//    the ball's friction (ball_friction_range) and start (ball_xyz_range:
//    the ball body's position in the model and its qpos) drawn; noise on
//    the joints (qpos_noise_range: all but the last two, the paddle's and
//    the ball's free joints, clipped to their range); the ball's velocity
//    drawn (ball_qvel: towards the model's half of the table,
//    cal_ball_qvel) into init_qvel; BaseV0's reset.
//  - The obs dict reads the env's data, and adds the labels of what touches
//    the ball (paddle, own half, opponent's half, net, ground, anything
//    else: each once) to the episode's contact trajectory.
//  - The reward dict: solved is evaluate_pingpong_trajectory's None (the
//    ball hit by the paddle, then on the opponent's half, with no second
//    touch and no second bounce on the own half); done is the episode past
//    3 s, the ball below 0.3 m (which sets the info's time to 3.0) or
//    solved. myosuite's check of the trajectory's issue against [0, 2, 3]
//    compares an Enum with ints and is never true, so it is not here.
//    "dense" is Python's sum of the weighted terms. With rally_count > 1, a
//    solved rally is not done: the info's time reads 0 and the contact
//    trajectory starts anew, and relaunch_ball draws a new start and speed
//    into the model, init_qpos and init_qvel, and the env's data (which the
//    next step overwrites from the robot's: the ball flies on).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/model_edit.h"
#include "envs/myosuite/myo_env.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeTableTennisEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys",
          StringList{"pelvis_pos", "body_qpos", "body_qvel", "ball_pos",
                     "ball_vel", "paddle_pos", "paddle_vel", "paddle_ori",
                     "reach_err", "touching_info"});
    c.Set("weighted_reward_keys", NamedNumbers{{"reach_dist", {1.0}},
                                               {"palm_dist", {1.0}},
                                               {"paddle_quat", {2.0}},
                                               {"act_reg", {0.5}},
                                               {"torso_up", {2.0}},
                                               {"sparse", {100.0}},
                                               {"solved", {1000.0}},
                                               {"done", {-10.0}}});
    // Empty: myosuite's None.
    c.Set("qpos_noise_range", NamedNumbers{});
    c.Set("ball_xyz_range", NamedNumbers{});
    c.Set("ball_qvel", false);
    c.Set("ball_friction_range", NamedNumbers{});
    c.Set("paddle_mass_range", NumberList{});
    c.Set("rally_count", int64_t{1});
    c.Set("remove_body_collisions", true);
    c.Set("add_left_arm", true);
    return c;
  }

  static ModelPtr LoadTableTennisTask(const Config& config) {
    const std::string& path = ModelPath(config);
    const std::string& lib = config.GetString("mujoco_lib");
    const Api& api = LoadApi(lib);
    TableTennisEdit edit;
    edit.remove_body_collisions = config.GetBool("remove_body_collisions");
    edit.add_left_arm = config.GetBool("add_left_arm");
    const std::string key = path + "\ntable_tennis " +
                            (edit.remove_body_collisions ? "1" : "0") +
                            (edit.add_left_arm ? "1" : "0");
    return LoadCachedModel(
        api, key, [&] { return LoadTableTennisModel(api, lib, path, edit); });
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    const Joints j = FindJoints(m);
    Layout l;
    l.obs = {{"pelvis_pos", 3},
             {"body_qpos", static_cast<int64_t>(j.myo_qpos.size())},
             {"body_qvel", static_cast<int64_t>(j.myo_dof.size())},
             {"ball_pos", 3},
             {"ball_vel", 3},
             {"paddle_pos", 3},
             {"paddle_vel", 3},
             {"paddle_ori", 4},
             {"padde_ori_err", 4},  // myosuite's name
             {"reach_err", 3},
             {"palm_pos", 3},
             {"palm_err", 3},
             {"touching_info", 6}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"reach_dist"},      {"palm_dist"},     {"paddle_quat"},
             {"torso_up"},        {"act_reg"},       {"sparse", 1, true},
             {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTableTennisTask(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeTableTennisEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout, LoadTableTennisTask(config)) {
    ids_ = Check(config, api_, m());
    joints_ = FindJoints(m());
    python_sum_dense_ = true;
    map_robotic_controls_ = true;  // TableTennisEnvV0.step
    qpos_noise_ = RangeOption(config, "qpos_noise_range", 1);
    ball_xyz_ = RangeOption(config, "ball_xyz_range", 3);
    ball_friction_ = RangeOption(config, "ball_friction_range", 3);
    ball_qvel_ = config.GetBool("ball_qvel");
    paddle_mass_ = config.GetNumberList("paddle_mass_range");
    rally_count_ = config.GetInt("rally_count");
    ScipyExtrinsicXyzQuat(-0.3, 1.57, 0.0, init_paddle_quat_);
    Setup();
    // init_qpos[:] = key_qpos[0]; the ball's serve.
    std::copy(m()->key_qpos, m()->key_qpos + m()->nq, init_qpos_.begin());
    const double start_vel[3] = {5.6, 1.6, 0.1};
    std::copy(start_vel, start_vel + 3, init_qvel_.begin() + ball_dofadr());
    cur_rally_ = 0;
  }

  // TableTennisEnvV0.reset.
  void Reset() override {
    ClearContacts();
    std::copy(m()->key_qpos, m()->key_qpos + m()->nq, init_qpos_.begin());
    if (!paddle_mass_.empty()) {
      m()->body_mass[ids_.paddle_body] =
          rng_.Uniform(paddle_mass_[0], paddle_mass_[1]);
    }
    if (!ball_friction_.empty()) {
      Draw(ball_friction_, m()->geom_friction + 3 * ids_.ball_geom);
    }
    double ball_pos[3] = {0, 0, 0};
    if (!ball_xyz_.empty()) {
      Draw(ball_xyz_, ball_pos);
      std::copy(ball_pos, ball_pos + 3, m()->body_pos + 3 * ids_.ball_body);
      std::copy(ball_pos, ball_pos + 3, init_qpos_.begin() + ball_posadr());
    }
    std::vector<double>& qpos = reset_qpos_;
    qpos = init_qpos_;
    if (!qpos_noise_.empty()) {
      const int njnt = m()->njnt;
      std::vector<double> noise(static_cast<std::size_t>(njnt));
      for (double& x : noise) {
        x = rng_.Uniform(qpos_noise_.low[0], qpos_noise_.high[0]);
      }
      for (int j = 0; j + 2 < njnt; ++j) {
        const double lo = m()->jnt_range[2 * j], hi = m()->jnt_range[2 * j + 1];
        const int adr = m()->jnt_qposadr[j];
        qpos[adr] += noise[j] * (hi - lo);
        qpos[adr] = std::min(std::max(qpos[adr], lo), hi);  // np.clip
      }
    }
    if (ball_qvel_) DrawBallVel(ball_pos, init_qvel_.data() + ball_dofadr());
    in_reset_ = true;
    ResetTo(qpos.data(), init_qvel_.data());
    in_reset_ = false;
    cur_rally_ = 0;
    info_time_ = kNoTime;
  }

  void WriteObs(const Row& row) override {
    MyoEnv::WriteObs(row);
    // info["time"] is obs_dict["time"], which a dropped ball sets to 3.0 and
    // a rally's end to 0.
    if (info_time_ != kNoTime) *row.Info<double>(0) = info_time_;
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, init_qpos_, init_qvel_, contacts_,
                           trajectory_, cur_rally_, info_time_)

 protected:
  // get_obs_dict, of the env's data.
  void ObsDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const double* x = dd->site_xpos;
    auto site = [&](const char* key, int id) {
      std::copy(x + 3 * id, x + 3 * id + 3, Obs(key));
    };
    site("pelvis_pos", ids_.pelvis_site);
    Gather(dd->qpos, joints_.myo_qpos, Obs("body_qpos"));
    Gather(dd->qvel, joints_.myo_dof, Obs("body_qvel"));
    site("ball_pos", ids_.ball_site);
    std::copy(dd->sensordata + ids_.ball_vel_adr,
              dd->sensordata + ids_.ball_vel_adr + 3, Obs("ball_vel"));
    site("paddle_pos", ids_.paddle_site);
    std::copy(dd->sensordata + ids_.paddle_vel_adr,
              dd->sensordata + ids_.paddle_vel_adr + 3, Obs("paddle_vel"));
    const double* quat = dd->xquat + 4 * ids_.paddle_body;
    std::copy(quat, quat + 4, Obs("paddle_ori"));
    double* ori_err = Obs("padde_ori_err");
    for (int i = 0; i < 4; ++i) ori_err[i] = quat[i] - init_paddle_quat_[i];
    const double* ball = Obs("ball_pos");
    const double* paddle = Obs("paddle_pos");
    double* reach_err = Obs("reach_err");
    for (int i = 0; i < 3; ++i) reach_err[i] = paddle[i] - ball[i];
    site("palm_pos", ids_.palm_site);
    const double* palm = Obs("palm_pos");
    double* palm_err = Obs("palm_err");
    for (int i = 0; i < 3; ++i) palm_err[i] = palm[i] - paddle[i];
    // get_ball_contact_labels, as a set.
    unsigned touching = 0;
    for (int c = 0; c < dd->ncon; ++c) {
      const int g1 = dd->contact[c].geom[0], g2 = dd->contact[c].geom[1];
      if (mm->geom_bodyid[g1] == ids_.ball_body) {
        touching |= 1u << Label(g2);
      } else if (mm->geom_bodyid[g2] == ids_.ball_body) {
        touching |= 1u << Label(g1);
      }
    }
    contacts_.push_back(static_cast<uint8_t>(touching));
    // _ball_label_to_obs: paddle, own, opponent, net, ground, the rest.
    static const int kOrder[6] = {kPaddle, kOwn,    kOpponent,
                                  kNet,    kGround, kEnv};
    double* info = Obs("touching_info");
    for (int i = 0; i < 6; ++i) info[i] = (touching >> kOrder[i]) & 1u;
    if (mm->na > 0) std::copy(dd->act, dd->act + mm->na, Obs("act"));
  }

  // get_reward_dict.
  void RewardDict() override {
    double* s = scratch_.data();
    const double reach_dist = std::fabs(Norm(Obs("reach_err"), 3, s));
    const double palm_dist = std::fabs(Norm(Obs("palm_err"), 3, s));
    const double act_mag = ActMag();
    const bool solved = Evaluate() == kSolved;
    const double quat_err = Norm(Obs("padde_ori_err"), 4, s);
    const double torso_err = std::fabs(d()->qpos[ids_.torso_qposadr]);
    Rwd("reach_dist") = np_.Exp(-1.0 * reach_dist);
    Rwd("palm_dist") = np_.Exp(-5.0 * palm_dist);
    Rwd("paddle_quat") = np_.Exp(-5 * quat_err);
    Rwd("torso_up") = np_.Exp(-5 * torso_err);
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("sparse") = Obs("touching_info")[0] == 1 ? 1.0 : 0.0;
    Rwd("solved") = solved ? 1.0 : 0.0;
    // _get_done(ball_pos[-1], solved).
    bool done = false;
    if (d()->time > kMaxTime) {
      done = true;
    } else if (Obs("ball_pos")[2] < 0.3) {
      if (!in_reset_) info_time_ = kMaxTime;
      done = true;
    } else if (solved) {
      done = true;
    }
    Rwd("done") = done ? 1.0 : 0.0;
    if (in_reset_) return;  // myosuite's reset computes no reward dict
    // After "dense" (ComputeRewards sums the terms after this): a rally
    // won, not the last, is not done.
    if (solved) ++cur_rally_;
    if (solved && cur_rally_ < rally_count_) rally_won_ = true;
  }

  StepResult Step(const void* action) override {
    info_time_ = kNoTime;
    rally_won_ = false;
    StepResult r = MyoEnv::Step(action);
    if (rally_won_) {
      Rwd("done") = 0.0;
      Rwd("solved") = 0.0;
      solved_ = done_ = false;
      r.terminated = false;
      info_time_ = 0.0;
      d()->time = 0.0;
      ClearContacts();
      RelaunchBall();
    }
    return r;
  }

 private:
  static constexpr double kMaxTime = 3.0;
  static constexpr double kNoTime = -1.0;
  // PingpongContactLabels.
  static constexpr int kPaddle = 0, kOwn = 1, kOpponent = 2, kGround = 3,
                       kNet = 4, kEnv = 5;
  // evaluate_pingpong_trajectory's results: None, or a ContactTrajIssue.
  static constexpr int kSolved = -1, kOwnHalf = 0, kMiss = 1, kNoPaddle = 2,
                       kDoubleTouch = 3;

  struct Ids {
    int paddle_site = -1, paddle_body = -1, ball_site = -1, ball_body = -1;
    int ball_geom = -1, own_half_geom = -1, paddle_geom = -1,
        opponent_half_geom = -1, ground_geom = -1, net_geom = -1;
    int pelvis_site = -1, palm_site = -1;
    int ball_vel_adr = -1, paddle_vel_adr = -1;
    int ball_joint = -1, torso_qposadr = -1;
  };

  // IdInfo's joints: the body's (one qpos and one dof address per joint,
  // as myosuite concatenates them; its dofs leave out only "ping..." and
  // the paddle's free joint, which the body's joints leave out too).
  struct Joints {
    std::vector<int> myo_qpos, myo_dof;
  };

  static Joints FindJoints(const mjModel* m) {
    Joints j;
    for (int i = 0; i < m->njnt; ++i) {
      const char* name = m->names + m->name_jntadr[i];
      const bool ping = std::strncmp(name, "ping", 4) == 0;
      const bool paddle = std::strcmp(name, "paddle_freejoint") == 0;
      if (!ping && !paddle && std::strcmp(name, "pingpong_freejoint") != 0) {
        j.myo_qpos.push_back(m->jnt_qposadr[i]);
      }
      if (!ping && !paddle) j.myo_dof.push_back(m->jnt_dofadr[i]);
    }
    return j;
  }

  // geom_id_to_label.
  int Label(int geom) const {
    if (geom == ids_.paddle_geom) return kPaddle;
    if (geom == ids_.own_half_geom) return kOwn;
    if (geom == ids_.opponent_half_geom) return kOpponent;
    if (geom == ids_.net_geom) return kNet;
    if (geom == ids_.ground_geom) return kGround;
    return kEnv;
  }

  // contact_trajectory = [].
  void ClearContacts() {
    contacts_.clear();
    trajectory_ = Trajectory{};
  }

  // evaluate_pingpong_trajectory of the episode's contact trajectory,
  // walked on from where the last call stopped (its state kept).
  int Evaluate() {
    Trajectory& t = trajectory_;
    for (; t.seen < contacts_.size() && t.result == kMiss; ++t.seen) {
      const unsigned s = contacts_[t.seen];
      const bool paddle = (s >> kPaddle) & 1u;
      if (!paddle && t.hit_paddle) t.bounced_from_paddle = true;
      if (paddle && t.bounced_from_paddle) {
        t.result = kDoubleTouch;
        break;
      }
      if (paddle) t.hit_paddle = true;
      if ((s >> kOwn) & 1u) {
        if (!t.bounced_from_table) {
          t.bounced_from_table = true;
          t.own_contacts = 1;
        } else if (!t.own_phase_done) {
          t.own_contacts += 1;
          if (t.own_contacts > 2) {
            t.own_phase_done = true;
            t.result = kOwnHalf;
            break;
          }
        } else {
          t.result = kOwnHalf;
          break;
        }
      } else if (t.bounced_from_table) {
        t.own_phase_done = true;
      }
      if ((s >> kOpponent) & 1u) {
        t.result = t.hit_paddle ? kSolved : kNoPaddle;
        break;
      }
    }
    return t.result;
  }

  // cal_ball_qvel's bounds for a start at p, then np_random.uniform(low=
  // the lower, high=the upper): a speed that lands the ball on the model's
  // half of the table.
  void DrawBallVel(const double* p, double* vel) {
    const double upper[3] = {1.35, 0.70, 0.785};
    const double lower[3] = {0.5, -0.60, 0.785};
    const double gravity = 9.81;
    const double v_z = rng_.Uniform(-0.1, 0.1);
    const double a = -0.5 * gravity;
    const double b = v_z;
    const double c = p[2] - upper[2];
    // Python's b**2 and discriminant**0.5: libm's pow.
    const double discriminant = std::pow(b, 2.0) - 4 * a * c;
    const double t = (-b - std::pow(discriminant, 0.5)) / (2 * a);
    double low[3], high[3];
    for (int i = 0; i < 2; ++i) {
      high[i] = (upper[i] - p[i]) / t;
      low[i] = (lower[i] - p[i]) / t;
    }
    low[2] = high[2] = v_z;
    for (int i = 0; i < 3; ++i) vel[i] = rng_.Uniform(low[i], high[i]);
  }

  // relaunch_ball: a new start and speed drawn, into the model, init_qpos
  // and init_qvel, and the env's data.
  void RelaunchBall() {
    const int posadr = ball_posadr(), dofadr = ball_dofadr();
    double ball_pos[3] = {0, 0, 0};
    Draw(ball_xyz_, ball_pos);  // Check: rally_count > 1 needs the range
    std::copy(ball_pos, ball_pos + 3, m()->body_pos + 3 * ids_.ball_body);
    std::copy(ball_pos, ball_pos + 3, init_qpos_.begin() + posadr);
    if (ball_qvel_) DrawBallVel(ball_pos, init_qvel_.data() + dofadr);
    std::copy(ball_pos, ball_pos + 3, d()->qpos + posadr);
    std::copy(init_qvel_.begin() + dofadr, init_qvel_.begin() + dofadr + 6,
              d()->qvel + dofadr);
  }

  int ball_posadr() const { return m()->jnt_qposadr[ids_.ball_joint]; }
  int ball_dofadr() const { return m()->body_dofadr[ids_.ball_body]; }

  // scipy's Rotation.from_euler("xyz", (x, y, z)).as_quat() as (w, x, y,
  // z): the elementary rotations composed extrinsically, each new one on
  // the left (_compose_quat), in its arithmetic order.
  static void ScipyExtrinsicXyzQuat(double x, double y, double z,
                                    double* wxyz) {
    auto elementary = [](int axis, double angle, double* q) {
      q[0] = q[1] = q[2] = 0.0;
      q[3] = std::cos(angle / 2);
      q[axis] = std::sin(angle / 2);
    };
    auto compose = [](const double* p, const double* q, double* out) {
      const double cross[3] = {p[1] * q[2] - p[2] * q[1],
                               p[2] * q[0] - p[0] * q[2],
                               p[0] * q[1] - p[1] * q[0]};
      for (int i = 0; i < 3; ++i) {
        out[i] = p[3] * q[i] + q[3] * p[i] + cross[i];
      }
      out[3] = p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2];
    };
    double r[4], e[4], next[4];
    elementary(0, x, r);
    elementary(1, y, e);
    compose(e, r, next);
    elementary(2, z, e);
    compose(e, next, r);
    wxyz[0] = r[3], wxyz[1] = r[0], wxyz[2] = r[1], wxyz[3] = r[2];
  }

  static int Need(const Api& api, const mjModel* m, mjtObj type,
                  const char* name) {
    return ModelId(api, m, type, name, "table tennis");
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    ids.paddle_site = Need(api, m, mjOBJ_SITE, "paddle");
    ids.paddle_body = Need(api, m, mjOBJ_BODY, "paddle");
    ids.ball_site = Need(api, m, mjOBJ_SITE, "pingpong");
    ids.ball_body = Need(api, m, mjOBJ_BODY, "pingpong");
    ids.ball_geom = Need(api, m, mjOBJ_GEOM, "pingpong");
    ids.own_half_geom = Need(api, m, mjOBJ_GEOM, "coll_own_half");
    ids.paddle_geom = Need(api, m, mjOBJ_GEOM, "pad");
    ids.opponent_half_geom = Need(api, m, mjOBJ_GEOM, "coll_opponent_half");
    ids.ground_geom = Need(api, m, mjOBJ_GEOM, "ground");
    ids.net_geom = Need(api, m, mjOBJ_GEOM, "coll_net");
    ids.pelvis_site = Need(api, m, mjOBJ_SITE, "pelvis");
    ids.palm_site = Need(api, m, mjOBJ_SITE, "S_grasp");
    ids.ball_joint = Need(api, m, mjOBJ_JOINT, "pingpong_freejoint");
    ids.torso_qposadr =
        m->jnt_qposadr[Need(api, m, mjOBJ_JOINT, "flex_extension")];
    const int ball_vel = Need(api, m, mjOBJ_SENSOR, "pingpong_vel_sensor");
    const int paddle_vel = Need(api, m, mjOBJ_SENSOR, "paddle_vel_sensor");
    if (m->sensor_dim[ball_vel] != 3 || m->sensor_dim[paddle_vel] != 3 ||
        m->jnt_type[ids.ball_joint] != mjJNT_FREE || m->nkey < 1 ||
        m->njnt < 2) {
      throw std::invalid_argument(
          "option 'mujoco_model': the table tennis task needs 3-d velocity "
          "sensors, the ball's free joint and a keyframe");
    }
    ids.ball_vel_adr = m->sensor_adr[ball_vel];
    ids.paddle_vel_adr = m->sensor_adr[paddle_vel];
    const LowHigh noise = RangeOption(config, "qpos_noise_range", 1);
    (void)noise;
    const LowHigh xyz = RangeOption(config, "ball_xyz_range", 3);
    RangeOption(config, "ball_friction_range", 3);
    const NumberList& mass = config.GetNumberList("paddle_mass_range");
    if (!mass.empty()) {
      if (mass.size() != 2) {
        throw std::invalid_argument(
            "option 'paddle_mass_range': (low, high) expected, got " +
            std::to_string(mass.size()) + " numbers");
      }
      CheckUniform("paddle_mass_range", mass[0], mass[1]);
    }
    if (config.GetBool("ball_qvel")) {
      if (xyz.empty()) {
        throw std::invalid_argument(
            "option 'ball_qvel' needs 'ball_xyz_range' (myosuite's reset "
            "draws the speed for the start it drew: UnboundLocalError "
            "without one)");
      }
      if (!(xyz.low[2] >= 0.785)) {
        throw std::invalid_argument(
            "option 'ball_xyz_range': with ball_qvel, the ball must start at "
            "or above the table (z >= 0.785; below it myosuite's "
            "cal_ball_qvel may find no time of flight: ValueError)");
      }
    }
    const int64_t rally = config.GetInt("rally_count");
    if (rally < 1) {
      throw std::invalid_argument(
          "option 'rally_count' must be at least 1, "
          "got " +
          std::to_string(rally));
    }
    if (rally > 1 && xyz.empty()) {
      throw std::invalid_argument(
          "option 'rally_count' > 1 needs 'ball_xyz_range' (myosuite's "
          "relaunch_ball otherwise writes 2 values into 3: ValueError)");
    }
    return ids;
  }

  // evaluate_pingpong_trajectory's walk so far.
  struct Trajectory {
    std::size_t seen = 0;
    int result = kMiss;  // kMiss until the walk returns
    bool hit_paddle = false, bounced_from_paddle = false,
         bounced_from_table = false, own_phase_done = false;
    int own_contacts = 0;
    ENVPOOL_LITE_STATE_FIELDS(seen, result, hit_paddle, bounced_from_paddle,
                              bounced_from_table, own_phase_done, own_contacts)
  };

  Ids ids_;
  Joints joints_;
  LowHigh qpos_noise_, ball_xyz_, ball_friction_;
  NumberList paddle_mass_;
  bool ball_qvel_ = false;
  int64_t rally_count_ = 1;
  double init_paddle_quat_[4] = {0, 0, 0, 0};
  std::vector<double> reset_qpos_;
  // The contact trajectory: per obs dict, the set of labels (bits).
  std::vector<uint8_t> contacts_;
  Trajectory trajectory_;
  int64_t cur_rally_ = 0;
  double info_time_ = kNoTime;
  bool in_reset_ = false, rally_won_ = false;
};

}  // namespace myosuite
}  // namespace envpool_lite
