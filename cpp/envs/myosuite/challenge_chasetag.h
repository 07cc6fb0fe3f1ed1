// MyoChallenge 2023's chase tag (envs/myo/myochallenge/chasetag_v0.py,
// ChaseTagEnvV0): the legs chase an opponent (CHASE) or evade it (EVADE) on
// a 12 x 12 m quad, flat or of random terrain patches (heightfields.py,
// ChaseTagField).
//
// What myosuite 2.12.2 does, and so what this does:
//  - The opponent is the first mocap body of the env's (observed) data:
//    myosuite moves it there, so the robot's physics never sees it; what it
//    changes is the obs dict and the rewards. Its policy, drawn at each
//    reset of a CHASE episode (uniform() against opponent_probabilities):
//    static_stationary (placed at (0, -5)), stationary, random (colored
//    noise, refkit/pink/colored_noise.h, clipped to random_vel_range) or,
//    with repeller_opponent (RepellerChallengeOpponent, P2eval), repeller
//    (away from the agent and the walls); in an EVADE episode chase_player
//    (towards the pelvis at a chase velocity drawn from chase_vel_range).
//    move_opponent: |linear|, both clipped to 2, a step of dt, the position
//    clipped to 5.5; opponent_vel is the velocity before the clip.
//  - The terrain (terrain != "FLAT"): the model's height field "terrain"
//    (100 x 100 over 12 m) in 3 x 3 patches of 33, each flat, rough
//    (uniform noise), or hilly (a sine, at most 2 per field), drawn with
//    np_random.choice; in 20% of fields one patch is the MyoSuite relief
//    (myo_relief.npy of the package, as np.load reads it). Drawn at
//    construction and at every reset; the patch under the agent's start
//    flattened. The obs dict's "hfield": the heights of a 10 x 10 grid
//    around the agent, turned with its yaw. The height field is the model's:
//    the robot's physics sees it.
//  - Construction, in myosuite's order: the field (if any), the opponent (a
//    noise process, its policy, its place, its chase velocity), WalkEnvV0's
//    setup (BaseV0's, whose step of zero controls first moves the opponent:
//    startFlag is not set, so nothing is won), the field moved away unseen,
//    init_qpos keyframe 0 at rest; the opponent's dt becomes the env's.
//  - A reset: the field redrawn (shown, at z = 0) or moved away; the task
//    (task_choice "random": np_random.choice); the start (reset_type
//    "random": keyframe 2 or 3, every position but the height noised, then
//    placed and turned at random; "init": keyframe 2; else keyframe 0); its
//    patch flattened; BaseV0's reset (whose observation is returned: its
//    opponent is the last episode's); the opponent's reset; mj_forward.
//  - A step: the opponent moves, then BaseV0.step.
//  - The reward dict: act_reg, distance (to the opponent), lose, sparse
//    (the score: 1 - t / 20 for a tag in CHASE, t / 20 at the end of an
//    EVADE episode, t rounded to 2 decimals), solved (won), done (won or
//    lost); "dense" np.sum's. A lost CHASE episode sets the obs dict's time
//    to 20 (myosuite's maxTime), which info["time"] reports.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/heightfield.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/fft.h"
#include "refkit/numpy/npy.h"
#include "refkit/numpy/rotations.h"
#include "refkit/pink/colored_noise.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeChaseTagEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("max_episode_steps", int64_t{2000});
    c.Set("obs_keys",
          StringList{"internal_qpos", "internal_qvel", "grf", "torso_angle",
                     "opponent_pose", "opponent_vel", "model_root_pos",
                     "model_root_vel", "muscle_length", "muscle_velocity",
                     "muscle_force"});
    c.Set("weighted_reward_keys",
          NamedNumbers{{"distance", {-0.1}}, {"lose", {-1000.0}}});
    c.Set("reset_type", std::string("none"));
    c.Set("win_distance", 0.5);
    c.Set("min_spawn_distance", 2.0);
    c.Set("task_choice", std::string("CHASE"));
    c.Set("terrain", std::string("FLAT"));
    c.Set("hills_range", NumberList{0.0, 0.0});
    c.Set("rough_range", NumberList{0.0, 0.0});
    c.Set("relief_range", NumberList{0.0, 0.0});
    c.Set("repeller_opponent", false);
    c.Set("chase_vel_range", NumberList{1.0, 1.0});
    c.Set("random_vel_range", NumberList{1.0, 1.0});
    c.Set("repeller_vel_range", NumberList{1.0, 1.0});
    c.Set("opponent_probabilities", NumberList{0.1, 0.45, 0.45});
    SetUnusedWalkOptions(&c);
    // The relief patch (make() fills the package's path in).
    c.Set("relief_npy", std::string("envs/myo/assets/myo_relief.npy"));
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    Layout l;
    l.obs = {{"internal_qpos", kJoints},
             {"internal_qvel", kJoints},
             {"grf", 4},
             {"torso_angle", 4},
             {"muscle_length", m->nu},
             {"muscle_velocity", m->nu},
             {"muscle_force", m->nu}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.obs.push_back({"opponent_pose", 3});
    l.obs.push_back({"opponent_vel", 2});
    l.obs.push_back({"model_root_pos", 2});
    l.obs.push_back({"model_root_vel", 2});
    l.obs.push_back({"task", 1});
    if (config.GetString("terrain") != "FLAT") l.obs.push_back({"hfield", 100});
    l.rwd = {{"act_reg"}, {"distance"}, {"lose"}, {"sparse"},
             {"solved"},  {"done"},     {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    const Ids ids = Check(config, api, model.get());
    if (ids.hfield_on) LoadRelief(config, ids.patch);
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeChaseTagEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))),
        fft_(config.GetNamedNumbers("numpy_loops")) {
    ids_ = Check(config, api_, m());
    const std::string& reset = config.GetString("reset_type");
    reset_random_ = reset == "random";
    reset_init_ = reset == "init";
    const std::string& task = config.GetString("task_choice");
    task_random_ = task == "random";
    task_fixed_ = task == "EVADE" ? kEvade : kChase;
    win_distance_ = config.GetFloat("win_distance");
    min_spawn_ = config.GetFloat("min_spawn_distance");
    repeller_ = config.GetBool("repeller_opponent");
    auto pair = [&](const char* name, double* out) {
      const NumberList& v = config.GetNumberList(name);
      out[0] = v[0], out[1] = v[1];
    };
    pair("hills_range", hills_);
    pair("rough_range", rough_);
    pair("relief_range", relief_range_);
    pair("chase_vel_range", chase_vel_);
    pair("random_vel_range", random_vel_);
    pair("repeller_vel_range", repeller_vel_);
    const NumberList& p = config.GetNumberList("opponent_probabilities");
    std::copy(p.begin(), p.end(), probabilities_);
    // ChaseTagField.__init__: the first field.
    if (ids_.hfield_on) {
      relief_ = LoadRelief(config, ids_.patch);
      PopulatePatches();
    }
    // The opponent's __init__: a noise process, then reset_opponent (CHASE).
    ResetOpponent();
    Setup();
    // WalkEnvV0._setup: the height field moved away, unseen; both: the first
    // keyframe, at rest.
    MoveTerrain(false);
    std::copy(m()->key_qpos, m()->key_qpos + m()->nq, init_qpos_.begin());
    std::fill(init_qvel_.begin(), init_qvel_.end(), 0.0);
    started_ = true;
    opponent_dt_ = m()->opt.timestep * frame_skip_;
    qpos_.assign(static_cast<std::size_t>(m()->nq), 0.0);
    qvel_.assign(static_cast<std::size_t>(m()->nv), 0.0);
  }

  // ChaseTagEnvV0.reset.
  void Reset() override {
    // _maybe_sample_terrain.
    if (ids_.hfield_on) PopulatePatches();
    MoveTerrain(ids_.hfield_on);
    // _sample_task.
    task_ = task_random_ ? static_cast<int32_t>(rng_.Choice(2)) : task_fixed_;
    ResetState();
    if (ids_.hfield_on) FlattenAgentPatch();
    api_.forward(m(), d());  // sync_sims of the env's data onto itself
    ResetTo(qpos_.data(), qvel_.data());
    ResetOpponent();
    api_.forward(m(), d());
  }

  // The state: MyoEnv's, the opponent's and the task's, and the height
  // field (an asset the model's state leaves out, which this task draws).
  void SaveState(StateWriter& out) const override {
    MyoEnv::SaveState(out);
    out(task_, noise_, policy_, opponent_vel_, chase_velocity_, opponent_dt_,
        started_, lost_time_);
    out.Bytes(Field(), FieldBytes());
  }
  void LoadState(StateReader& in) override {
    MyoEnv::LoadState(in);
    in(task_, noise_, policy_, opponent_vel_, chase_velocity_, opponent_dt_,
       started_, lost_time_);
    in.Bytes(Field(), FieldBytes());
  }

 protected:
  void ObsDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    double* qpos = Obs("internal_qpos");
    double* qvel = Obs("internal_qvel");
    for (int i = 0; i < kJoints; ++i) {
      qpos[i] = dd->qpos[7 + i];
      qvel[i] = dd->qvel[6 + i] * dt_;
    }
    double* grf = Obs("grf");
    for (int i = 0; i < 4; ++i) grf[i] = dd->sensordata[ids_.grf_adr[i]];
    std::copy(dd->xquat + 4 * ids_.pelvis, dd->xquat + 4 * ids_.pelvis + 4,
              Obs("torso_angle"));
    MuscleObs(dd, mm->nu, Obs("muscle_length"), Obs("muscle_velocity"),
              Obs("muscle_force"));
    if (mm->na > 0) std::copy(dd->act, dd->act + mm->na, Obs("act"));
    OpponentPose(Obs("opponent_pose"));
    std::copy(opponent_vel_, opponent_vel_ + 2, Obs("opponent_vel"));
    std::copy(dd->qpos, dd->qpos + 2, Obs("model_root_pos"));
    std::copy(dd->qvel, dd->qvel + 2, Obs("model_root_vel"));
    Obs("task")[0] = task_;
    if (ids_.hfield_on) MeasureHeight(Obs("hfield"));
  }

  // ChaseTagEnvV0.step: the opponent moves first.
  void PreStep() override { UpdateOpponent(); }

  void RewardDict() override {
    const double act_mag = ActMag();
    lost_time_ = false;
    const bool win = Win();
    const bool lose = Lose();
    const double time = d()->time;
    double score = 0.0;
    if (task_ == kChase) {
      if (win) score = Score(time);
      lost_time_ = lose;  // obs_dict["time"] = maxTime
    } else if (win || lose) {
      score = Score(time);
    }
    double diff[2];
    const double* pose = Obs("opponent_pose");
    const double* root = Obs("model_root_pos");
    for (int i = 0; i < 2; ++i) diff[i] = root[i] - pose[i];
    Rwd("act_reg") = act_mag;
    Rwd("distance") = blas_.Norm(diff, 2);
    Rwd("lose") = lose ? 1.0 : 0.0;
    Rwd("sparse") = score;
    Rwd("solved") = win ? 1.0 : 0.0;
    Rwd("done") = (lose || win) ? 1.0 : 0.0;
    // The success indicator, in the model (the pictures).
    const float solved[4] = {0, 2, 0, 0.2f}, not_solved[4] = {2, 0, 0, 0};
    std::copy(win ? solved : not_solved, (win ? solved : not_solved) + 4,
              m()->site_rgba + 4 * ids_.indicator);
  }

  double InfoTime() const override { return lost_time_ ? kMaxTime : d()->time; }

 private:
  static constexpr int kJoints = 28;
  static constexpr double kMaxTime = 20;
  static constexpr int kPatches = 3;       // patches_per_side
  static constexpr double kRealSize = 12;  // real_length, real_width
  enum Task : int32_t { kChase = 0, kEvade = 1 };
  enum Terrain : int { kFlat = 0, kHilly = 1, kRough = 2, kRelief = 3 };
  enum Policy : int32_t {
    kStaticStationary = 0,
    kStationary = 1,
    kRandom = 2,
    kRepeller = 3,
    kChasePlayer = 4
  };

  struct Ids {
    int grf_adr[4] = {0, 0, 0, 0};
    int pelvis = -1, root = -1, talus_l = -1, talus_r = -1, head = -1;
    int indicator = -1, terrain = -1;
    bool hfield_on = false;
    int nrow = 0, ncol = 0, adr = 0, patch = 0;
  };

  // --- The opponent (ChallengeOpponent, RepellerChallengeOpponent) ---

  // get_opponent_pose: x, y and quat2euler(mocap_quat[0])[-1].
  void OpponentPose(double* pose) const {
    pose[0] = d()->mocap_pos[0];
    pose[1] = d()->mocap_pos[1];
    double euler[3];
    Quat2Euler(np_, d()->mocap_quat, euler);
    pose[2] = euler[2];
  }

  // set_opponent_pose, into the env's data.
  void SetOpponentPose(const double* pose) {
    d()->mocap_pos[0] = pose[0];
    d()->mocap_pos[1] = pose[1];
    const double euler[3] = {0.0, 0.0, pose[2]};
    Euler2Quat(np_, euler, d()->mocap_quat);
  }

  // move_opponent(vel): opponent_vel keeps vel with its |linear| (the array
  // myosuite then clips is a copy).
  void MoveOpponent(const double* vel) {
    opponent_vel_[0] = std::fabs(vel[0]);
    opponent_vel_[1] = vel[1];
    double v[2];
    for (int i = 0; i < 2; ++i)
      v[i] = std::min(std::max(opponent_vel_[i], -2.0), 2.0);
    double pose[3];
    OpponentPose(pose);
    const double x_vel = v[0] * np_.Cos(pose[2] + 0.5 * kPi);
    const double y_vel = v[0] * np_.Sin(pose[2] + 0.5 * kPi);
    pose[0] -= opponent_dt_ * x_vel;
    pose[1] -= opponent_dt_ * y_vel;
    pose[2] += opponent_dt_ * v[1];
    for (int i = 0; i < 2; ++i)
      pose[i] = std::min(std::max(pose[i], -5.5), 5.5);
    SetOpponentPose(pose);
  }

  // sample_opponent_policy: uniform() against the probabilities' running
  // sums; the standard opponent keeps its last policy past their sum (Check
  // refuses sums below 1), the repeller's takes "repeller".
  void SampleOpponentPolicy() {
    const double r = rng_.NextDouble();
    const double* p = probabilities_;
    if (r < p[0]) {
      policy_ = kStaticStationary;
    } else if (r < p[0] + p[1]) {
      policy_ = kStationary;
    } else if (r < p[0] + p[1] + p[2]) {
      policy_ = kRandom;
    } else if (repeller_) {
      policy_ = kRepeller;
    }
  }

  // reset_opponent(player_task, rng): a new noise process, the policy, a
  // place at least min_spawn_distance from the root (drawn until it is), the
  // chase velocity.
  void ResetOpponent() {
    noise_ = pink::ColoredNoiseProcess(2, 2, 2000, 10);
    noise_.Reset(&rng_, np_, fft_);
    opponent_vel_[0] = opponent_vel_[1] = 0.0;
    if (task_ == kChase) {
      SampleOpponentPolicy();
    } else {
      policy_ = kChasePlayer;
    }
    const double* root = d()->xpos + 3 * ids_.root;
    double pose[3] = {0.0, 0.0, 0.0};
    double dist = 0.0;
    while (dist < min_spawn_) {
      pose[0] = rng_.Uniform(-5, 5);
      pose[1] = rng_.Uniform(-5, 5);
      pose[2] = rng_.Uniform(-2 * kPi, 2 * kPi);
      const double diff[2] = {pose[0] - root[0], pose[1] - root[1]};
      dist = blas_.Norm(diff, 2);
    }
    if (policy_ == kStaticStationary) {
      pose[0] = 0, pose[1] = -5, pose[2] = 0;
    }
    SetOpponentPose(pose);
    chase_velocity_ = rng_.Uniform(chase_vel_[0], chase_vel_[1]);
  }

  // update_opponent_state: the policy's velocity, then move_opponent.
  void UpdateOpponent() {
    double vel[2] = {0.0, 0.0};
    if (policy_ == kRandom) {
      noise_.Sample(&rng_, np_, fft_, vel);
      for (double& v : vel) {
        v = std::min(std::max(v, random_vel_[0]), random_vel_[1]);
      }
    } else if (policy_ == kRepeller) {
      Repeller(vel);
    } else if (policy_ == kChasePlayer) {
      double pose[3];
      OpponentPose(pose);
      const double* pelvis = d()->xpos + 3 * ids_.pelvis;
      const double heading[2] = {np_.Cos(pose[2]), np_.Sin(pose[2])};
      const double to_pelvis[2] = {pelvis[0] - pose[0], pelvis[1] - pose[1]};
      vel[0] = chase_velocity_;
      vel[1] = blas_.Dot(heading, to_pelvis, 2);
    }
    MoveOpponent(vel);
  }

  // repeller_stochastic: away from the agent's pelvis and the quad's walls
  // (25 points on each of its sides at +-8.7) within 3.5 m, else colored
  // noise.
  void Repeller(double* vel) {
    double pose[3];
    OpponentPose(pose);
    double obstacles[kObstacles][2];
    obstacles[0][0] = d()->xpos[3 * ids_.pelvis];
    obstacles[0][1] = d()->xpos[3 * ids_.pelvis + 1];
    // np.linspace(-8.7, 8.7, 25).
    double bounds[25];
    const double step = (8.7 - -8.7) / 24;
    for (int i = 0; i < 25; ++i) bounds[i] = i * step + -8.7;
    bounds[24] = 8.7;
    for (int i = 0; i < 25; ++i) {
      const double rows[4][2] = {{8.7, bounds[i]},
                                 {-8.7, bounds[i]},
                                 {bounds[i], 8.7},
                                 {bounds[i], -8.7}};
      for (int s = 0; s < 4; ++s) {
        obstacles[1 + 25 * s + i][0] = rows[s][0];
        obstacles[1 + 25 * s + i][1] = rows[s][1];
      }
    }
    double distance[kObstacles];
    int near[kObstacles];
    int count = 0;
    for (int k = 0; k < kObstacles; ++k) {
      const double diff[2] = {obstacles[k][0] - pose[0],
                              obstacles[k][1] - pose[1]};
      distance[k] = blas_.Norm(diff, 2);
      if (distance[k] < kInfluence) near[count++] = k;
    }
    if (count == 0) {
      double noise[2];
      noise_.Sample(&rng_, np_, fft_, noise);
      vel[0] = std::min(std::max(noise[0], repeller_vel_[0]), repeller_vel_[1]);
      vel[1] = AngularVel(pose[2], noise[1]);
      return;
    }
    // np.mean(obstacles[near], axis=0): rows summed in order.
    double com[2] = {0.0, 0.0};
    for (int c = 0; c < count; ++c) {
      com[0] += obstacles[near[c]][0];
      com[1] += obstacles[near[c]][1];
    }
    com[0] = com[0] / count;
    com[1] = com[1] / count;
    double force[kObstacles];
    for (int c = 0; c < count; ++c) {
      const double x =
          1 / std::max(distance[near[c]], 0.00001) - 1 / kInfluence;
      force[c] = 0.5 * kEta * (x * x);
    }
    const double mean = PairwiseSum(force, count) / count;
    vel[0] = std::min(std::max(mean, repeller_vel_[0]), repeller_vel_[1]);
    double escape[2] = {pose[0] - com[0], pose[1] - com[1]};
    for (double& e : escape) {
      if (std::fabs(e) <= 0.1) {
        const double sign = e > 0 ? 1.0 : (e < 0 ? -1.0 : 0.0);
        e = -1 * sign * rng_.Uniform(0.3, 0.9);
      }
    }
    const double direction = np_.Arctan2(escape[1], escape[0]) + 1.57;
    vel[1] = AngularVel(pose[2], direction);
  }

  // _calc_angular_vel: both angles brought into [0, 2 pi]; 1 to turn
  // clockwise, -1 anticlockwise, whichever is shorter.
  static double AngularVel(double current, double desired) {
    const double two_pi = 2 * kPi;
    for (double* a : {&current, &desired}) {
      if (*a > two_pi) {
        while (*a > two_pi) *a = *a - two_pi;
      } else if (*a < 0) {
        while (*a < 0) *a = *a + two_pi;
      }
    }
    const double clock = std::fabs(0 - current) + (two_pi - desired);
    const double anticlock = (two_pi - current) + (0 + desired);
    return clock < anticlock ? 1 : -1;
  }

  // --- The task ---

  // |pelvis - the obs dict's opponent_pose| in the plane.
  double PelvisDistance() {
    const double* pelvis = d()->xpos + 3 * ids_.pelvis;
    const double* opp = Obs("opponent_pose");
    const double diff[2] = {pelvis[0] - opp[0], pelvis[1] - opp[1]};
    return blas_.Norm(diff, 2);
  }

  bool OutOfBounds() const {
    const double* pelvis = d()->xpos + 3 * ids_.pelvis;
    return std::fabs(pelvis[0]) > 6.5 || std::fabs(pelvis[1]) > 6.5;
  }

  // _get_fallen_condition: the pelvis below 0.5 m on flat ground, else the
  // head less than 0.2 m above the feet's mean height.
  bool Fallen() const {
    const mjData* dd = d();
    if (!ids_.hfield_on) return dd->xpos[3 * ids_.pelvis + 2] < 0.5;
    const double head = dd->site_xpos[3 * ids_.head + 2];
    const double feet =
        (dd->xpos[3 * ids_.talus_l + 2] + dd->xpos[3 * ids_.talus_r + 2]) / 2;
    return head - feet < 0.2;
  }

  bool Win() {
    if (task_ == kChase) {
      return PelvisDistance() <= win_distance_ && started_;
    }
    return d()->time >= kMaxTime;
  }

  bool Lose() {
    if (task_ == kChase) {
      if (Fallen()) return true;
      return d()->time >= kMaxTime || OutOfBounds();
    }
    if (PelvisDistance() <= win_distance_ && started_) return true;
    return OutOfBounds();
  }

  // _get_score: np.round(time, 2) (rint of time * 100, over 100).
  double Score(double time) const {
    const double t = std::nearbyint(time * 100.0) / 100.0;
    return task_ == kChase ? 1 - t / kMaxTime : t / kMaxTime;
  }

  // The reset's start (_get_reset_state), into qpos_, qvel_.
  void ResetState() {
    const int nq = m()->nq, nv = m()->nv;
    int key = reset_init_ ? 2 : 0;
    if (reset_random_) key = rng_.NextDouble() < 0.5 ? 2 : 3;
    std::copy(m()->key_qpos + key * nq, m()->key_qpos + (key + 1) * nq,
              qpos_.begin());
    std::copy(m()->key_qvel + key * nv, m()->key_qvel + (key + 1) * nv,
              qvel_.begin());
    if (!reset_random_) return;
    // _get_randomized_initial_state: noise on every position but the height
    // (`rot_state = qpos[3:7]` is a view, which the noise changes too).
    const double height = qpos_[2];
    for (int i = 0; i < nq; ++i) qpos_[i] = qpos_[i] + Normal(&rng_, 0, 0.02);
    qpos_[2] = height;
    // _randomize_position_orientation.
    qpos_[0] = rng_.Uniform(-5, 5);
    qpos_[1] = rng_.Uniform(-5, 5);
    const double orientation = rng_.Uniform(0, 2 * kPi);
    double euler[3];
    Quat2Euler(np_, qpos_.data() + 3, euler);
    euler[2] = orientation;
    Euler2Quat(np_, euler, qpos_.data() + 3);
    const double speed = blas_.Norm(qvel_.data(), 2);
    qvel_[0] = np_.Cos(orientation) * speed;
    qvel_[1] = np_.Sin(orientation) * speed;
  }

  // --- The height field (ChaseTagField) ---

  // The terrain geom shown at z = 0, or hidden 10 m below.
  void MoveTerrain(bool shown) {
    m()->geom_rgba[4 * ids_.terrain + 3] = shown ? 1.0f : 0.0f;
    m()->geom_pos[3 * ids_.terrain] = 0;
    m()->geom_pos[3 * ids_.terrain + 1] = 0;
    m()->geom_pos[3 * ids_.terrain + 2] = shown ? 0 : -10;
  }

  float* Field() const { return m()->hfield_data + ids_.adr; }
  std::size_t FieldBytes() const {
    return sizeof(float) * static_cast<std::size_t>(ids_.nrow) * ids_.ncol;
  }

  // _populate_patches: each patch's type drawn (at most 2 hilly), then the
  // relief in one patch in 20% of fields.
  void PopulatePatches() {
    int generated[3] = {0, 0, 0};
    for (int i = 0; i < kPatches; ++i) {
      for (int j = 0; j < kPatches; ++j) {
        int type = static_cast<int>(rng_.Choice(3));
        while (type == kHilly && generated[kHilly] >= 2) {
          type = static_cast<int>(rng_.Choice(3));
        }
        generated[type] += 1;
        FillPatch(i, j, type);
      }
    }
    if (rng_.NextDouble() < 0.2) {
      const int i = static_cast<int>(rng_.Integers(0, kPatches));
      const int j = static_cast<int>(rng_.Integers(0, kPatches));
      FillPatch(i, j, kRelief);
    }
  }

  // flatten_agent_patch: the patch under the start position made flat.
  void FlattenAgentPatch() {
    const int i = MapCell(qpos_[0], kRealSize, ids_.nrow) / ids_.patch;
    const int j = MapCell(qpos_[1], kRealSize, ids_.ncol) / ids_.patch;
    FillPatch(i, j, kFlat);
  }

  // _fill_patch with _compute_patch_data's values (float64, stored as the
  // model's float32).
  void FillPatch(int i, int j, int type) {
    const int n = ids_.patch;
    patch_.assign(static_cast<std::size_t>(n) * n, 0.0);
    if (type == kRough) {
      RoughPatch();
    } else if (type == kHilly) {
      HillyPatch();
    } else if (type == kRelief) {
      ReliefPatch();
    }
    float* field = Field();
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        field[(i * n + r) * ids_.ncol + j * n + c] =
            static_cast<float>(patch_[r * n + c]);
      }
    }
  }

  // _compute_rough_terrain: uniform noise in [-1, 1), normalised to
  // [0, 1], times a scale drawn from rough_range, less 0.02.
  void RoughPatch() {
    for (double& x : patch_) x = rng_.Uniform(-1.0, 1.0);
    const auto [lo, hi] = std::minmax_element(patch_.begin(), patch_.end());
    const double min = *lo, max = *hi;
    const double scalar = rng_.Uniform(rough_[0], rough_[1]);
    for (double& x : patch_) x = (x - min) / (max - min) * scalar - 0.02;
  }

  // _compute_relief_terrain: the relief normalised, flipped upside down,
  // times a scale drawn from relief_range.
  void ReliefPatch() {
    const int n = ids_.patch;
    const double scalar = rng_.Uniform(relief_range_[0], relief_range_[1]);
    const auto [lo, hi] = std::minmax_element(relief_.begin(), relief_.end());
    const double min = *lo, range = *hi - *lo;  // uint8 arithmetic: exact
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const double v = (relief_[(n - 1 - r) * n + c] - min) / range;
        patch_[r * n + c] = v * scalar;
      }
    }
  }

  // _compute_hilly_terrain: sin(linspace(0, 10 pi, n * n) + pi / 2) - 1
  // normalised, times a scale drawn from hills_range, flipped on both axes,
  // turned by 90 degrees in half the patches.
  void HillyPatch() {
    const int n = ids_.patch, count = n * n;
    const double scalar = rng_.Uniform(hills_[0], hills_[1]);
    std::vector<double>& data = hill_;
    data.resize(static_cast<std::size_t>(count));
    const double stop = 10 * kPi;
    const double step = stop / (count - 1);
    for (int k = 0; k < count; ++k) {
      const double y = k == count - 1 ? stop : k * step;
      data[k] = np_.Sin(y + kPi / 2) - 1;
    }
    const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
    const double min = *lo, max = *hi;
    // np.flip(..., [0, 1]): the flat order reversed.
    for (int k = 0; k < count; ++k) {
      patch_[k] = (data[count - 1 - k] - min) / (max - min) * scalar;
    }
    if (rng_.NextDouble() < 0.5) {
      // np.rot90: out[r][c] = in[c][n - 1 - r].
      data.assign(patch_.begin(), patch_.end());
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) patch_[r * n + c] = data[c * n + n - 1 - r];
      }
    }
  }

  // HeightField._measure_height (heightfield.h): view_distance 2.
  void MeasureHeight(double* out) const {
    const HeightMap f{Field(), ids_.nrow, ids_.ncol, kRealSize, kRealSize};
    myosuite::MeasureHeight(np_, d()->qpos, f, 2, out);
  }

  // np.load of myo_relief.npy: a square of the patch's size.
  static std::vector<double> LoadRelief(const Config& config, int patch) {
    NpyArray relief = LoadNpy(config.GetString("relief_npy"));
    if (relief.shape.size() != 2 || relief.shape[0] != patch ||
        relief.shape[1] != patch) {
      throw std::invalid_argument(
          "option 'relief_npy': a " + std::to_string(patch) + " x " +
          std::to_string(patch) +
          " array (a patch of the model's height field) expected");
    }
    return relief.values;
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    auto id = [&](mjtObj type, const char* name) {
      return ModelId(api, m, type, name, "chase tag");
    };
    const char* grf[4] = {"r_foot", "r_toes", "l_foot", "l_toes"};
    for (int i = 0; i < 4; ++i) {
      ids.grf_adr[i] = m->sensor_adr[id(mjOBJ_SENSOR, grf[i])];
    }
    ids.pelvis = id(mjOBJ_BODY, "pelvis");
    ids.root = id(mjOBJ_BODY, "root");
    ids.talus_l = id(mjOBJ_BODY, "talus_l");
    ids.talus_r = id(mjOBJ_BODY, "talus_r");
    ids.head = id(mjOBJ_SITE, "head");
    ids.indicator = id(mjOBJ_SITE, "opponent_indicator");
    ids.terrain = id(mjOBJ_GEOM, "terrain");
    const int hfield = id(mjOBJ_HFIELD, "terrain");
    ids.nrow = m->hfield_nrow[hfield];
    ids.ncol = m->hfield_ncol[hfield];
    ids.adr = m->hfield_adr[hfield];
    ids.patch = ids.nrow / kPatches;
    if (m->nq < 7 + kJoints || m->nv < 6 + kJoints || m->nmocap < 1 ||
        m->nkey < 4 || ids.nrow != ids.ncol || ids.patch < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the chase tag task needs a free root and 28 "
          "joints, the opponent's mocap body, 4 keyframes and a square height "
          "field 'terrain'");
    }
    const std::string& terrain = config.GetString("terrain");
    if (terrain != "FLAT" && terrain != "random") {
      throw std::invalid_argument(
          "option 'terrain' must be 'FLAT' or 'random' (myosuite's "
          "ChaseTagEnvV0), got '" +
          terrain + "'");
    }
    ids.hfield_on = terrain != "FLAT";
    const std::string& reset = config.GetString("reset_type");
    if (reset != "none" && reset != "init" && reset != "random") {
      throw std::invalid_argument(
          "option 'reset_type' must be 'none', 'init' or 'random' (myosuite's "
          "ChaseTagEnvV0), got '" +
          reset + "'");
    }
    const std::string& task = config.GetString("task_choice");
    if (task != "CHASE" && task != "EVADE" && task != "random") {
      throw std::invalid_argument(
          "option 'task_choice' must be 'CHASE', 'EVADE' or 'random' "
          "(myosuite's ChaseTagEnvV0), got '" +
          task + "'");
    }
    auto range = [&](const char* name) {
      const NumberList& v = config.GetNumberList(name);
      if (v.size() != 2) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "': (low, high) expected");
      }
      return v;
    };
    // assert_settings, and Generator.uniform's checks.
    const NumberList& chase = range("chase_vel_range");
    if (!(chase[0] >= 0 && chase[1] > 0 && chase[0] <= chase[1])) {
      throw std::invalid_argument(
          "option 'chase_vel_range': 0 <= low <= high and high > 0 expected "
          "(myosuite asserts it)");
    }
    CheckUniform("chase_vel_range", chase[0], chase[1]);
    const bool repeller = config.GetBool("repeller_opponent");
    for (const char* name : {"random_vel_range", "repeller_vel_range"}) {
      const NumberList& v = range(name);
      if (!(v[0] <= v[1]) &&
          (repeller || std::string(name) == "random_vel_range")) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "': low <= high expected (myosuite "
                                    "asserts it)");
      }
    }
    for (const char* name : {"hills_range", "rough_range", "relief_range"}) {
      const NumberList& v = range(name);
      if (ids.hfield_on) CheckUniform(name, v[0], v[1]);
    }
    const NumberList& p = config.GetNumberList("opponent_probabilities");
    const std::size_t want = repeller ? 4 : 3;
    if (p.size() != want) {
      throw std::invalid_argument(
          std::string("option 'opponent_probabilities': ") +
          (repeller ? "4 numbers (static_stationary, stationary, random, "
                      "repeller) with repeller_opponent"
                    : "3 numbers (static_stationary, stationary, random)") +
          " expected (myosuite asserts it)");
    }
    for (double x : p) {
      if (!(0 <= x && x <= 1)) {
        throw std::invalid_argument(
            "option 'opponent_probabilities': each must be in [0, 1] "
            "(myosuite asserts it)");
      }
    }
    if (!repeller && !(p[0] + p[1] + p[2] >= 1)) {
      throw std::invalid_argument(
          "option 'opponent_probabilities': they must sum to at least 1 "
          "(myosuite leaves the opponent without a policy past their sum)");
    }
    const double spawn = config.GetFloat("min_spawn_distance");
    if (!(spawn <= 5)) {
      throw std::invalid_argument(
          "option 'min_spawn_distance' must be at most 5 m (the opponent is "
          "drawn in [-5, 5]^2 until it is that far from the agent: myosuite "
          "loops for ever, or nearly, past it)");
    }
    for (const char* name : {"win_distance", "min_height", "max_rot",
                             "target_x_vel", "target_y_vel"}) {
      config.GetFloat(name, -kInf, kInf);
    }
    return ids;
  }

  static constexpr int kObstacles = 101;     // the pelvis and 4 x 25 walls
  static constexpr double kInfluence = 3.5;  // DIST_INFLUENCE
  static constexpr double kEta = 20.0;       // ETA

  const NumpyBlas& blas_;
  NumpyFft fft_;
  Ids ids_;
  bool reset_random_ = false, reset_init_ = false, task_random_ = false;
  int32_t task_fixed_ = kChase;
  double win_distance_ = 0.5, min_spawn_ = 2.0;
  bool repeller_ = false;
  double hills_[2] = {0, 0}, rough_[2] = {0, 0}, relief_range_[2] = {0, 0};
  double chase_vel_[2] = {1, 1}, random_vel_[2] = {1, 1};
  double repeller_vel_[2] = {1, 1};
  double probabilities_[4] = {0.1, 0.45, 0.45, 0.0};
  std::vector<double> relief_, patch_, hill_;
  int32_t task_ = kChase;
  pink::ColoredNoiseProcess noise_;
  int32_t policy_ = kStationary;
  double opponent_vel_[2] = {0.0, 0.0};
  double chase_velocity_ = 1.0;
  double opponent_dt_ = 0.01;  // the opponent's dt until the setup is done
  bool started_ = false;
  bool lost_time_ = false;  // a lost CHASE episode: the obs dict's time is 20
  std::vector<double> qpos_, qvel_;
};

}  // namespace myosuite
}  // namespace envpool_lite
