// MyoSuite's leg tasks (envs/myo/myobase/walk_v0.py) on the myolegs model:
//  - LegReachEnv (its ReachEnvV0, `myoLegStandRandom-v0`): keep the pelvis
//    at a target drawn around where it starts, from a start pose drawn in
//    joint_random_range around the model's first keyframe;
//  - WalkEnv (WalkEnvV0, `myoLegWalk-v0`): walk at target_y_vel (and
//    target_x_vel) with a cyclic hip gait, upright and above min_height;
//  - TerrainEnv (TerrainEnvV0, `myoLeg{Rough,Hilly,Stair}TerrainWalk-v0`):
//    the same over a height field drawn at every reset.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"
#include "envs/myosuite/reach.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/generator_normal.h"

namespace envpool_lite {
namespace myosuite {

inline int NamedId(const Api& api, const mjModel* m, int type, const char* name,
                   const char* what) {
  const int id = api.name2id(m, type, name);
  if (id < 0) {
    throw std::invalid_argument(std::string("the model has no ") + what + " '" +
                                name + "' (myosuite's leg tasks need it)");
  }
  return id;
}

// walk_v0.ReachEnvV0: reach_v0's ReachEnvV0 (its observation, sites and
// ranges) with its own start (the first keyframe, joints drawn in
// joint_random_range), targets around where the sites start, and rewards.
class LegReachEnv : public ReachEnv {
 public:
  static Config DefaultConfig() {
    Config c = ReachEnv::DefaultConfig();
    c.Set("weighted_reward_keys", NamedNumbers{{"reach", {1.0}},
                                               {"bonus", {4.0}},
                                               {"penalty", {50.0}},
                                               {"act_reg", {1.0}}});
    c.Set("joint_random_range", NumberList{0.0, 0.0});
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    const NumberList& r = config.GetNumberList("joint_random_range");
    if (r.size() != 2) {
      throw std::invalid_argument(
          "option 'joint_random_range': (low, high) needed");
    }
    return ReachEnv::MakeSpec(config);
  }

  LegReachEnv(const Config& config, uint64_t seed) : ReachEnv(config, seed) {
    if (m()->nkey < 1) throw std::invalid_argument("the model has no keyframe");
    const NumberList& r = config.GetNumberList("joint_random_range");
    joint_low_ = r[0];
    joint_high_ = r[1];
    // init_qpos, init_qvel: the first keyframe; the skin (geom group 1)
    // transparent; the terrain moved away.
    std::copy(m()->key_qpos, m()->key_qpos + m()->nq, init_qpos_.begin());
    std::copy(m()->key_qvel, m()->key_qvel + m()->nv, init_qvel_.begin());
    for (int g = 0; g < m()->ngeom; ++g) {
      if (m()->geom_group[g] == 1) m()->geom_rgba[4 * g + 3] = 0;
    }
    const int terrain = api_.name2id(m(), mjOBJ_GEOM, "terrain");
    if (terrain >= 0) {
      m()->geom_rgba[4 * terrain + 3] = 0.0f;
      m()->geom_pos[3 * terrain] = 0;
      m()->geom_pos[3 * terrain + 1] = 0;
      m()->geom_pos[3 * terrain + 2] = -10;
    }
    qpos_.assign(static_cast<std::size_t>(m()->nq), 0.0);
    draws_.assign(static_cast<std::size_t>(m()->nq), 0.0);
  }

  void Reset() override {
    const bool random_joints = joint_high_ - joint_low_ > 0;  // np.ptp > 0
    if (random_joints) {
      GenerateQpos();
      std::copy(qpos_.begin(), qpos_.end(), d()->qpos);
    }
    api_.forward(m(), d());
    // generate_targets: each target around where its site is now.
    for (std::size_t s = 0; s < ranges_.size(); ++s) {
      double* pos = m()->site_pos + 3 * target_sids_[s];
      const double* at = d()->site_xpos + 3 * tip_sids_[s];
      const double base[3] = {at[0], at[1], at[2]};
      for (int i = 0; i < 3; ++i) {
        pos[i] = base[i] + rng_.Uniform(ranges_[s][i], ranges_[s][3 + i]);
      }
    }
    api_.forward(m(), d());
    api_.forward(m(), d());  // sync_sims of the env's data onto itself
    if (random_joints) {
      GenerateQpos();
      ResetTo(qpos_.data(), init_qvel_.data());
    } else {
      ResetToInit();
    }
  }

 protected:
  void RewardDict() override {
    const int n = 3 * static_cast<int>(tip_sids_.size());
    const double reach_dist = Norm(Obs("reach_err"), n, scratch_.data());
    const double vel_dist =
        Norm(Obs("qvel"), static_cast<int>(m()->nv), scratch_.data());
    const double act_mag = ActMag();
    const double sites = static_cast<double>(tip_sids_.size());
    const double far_th = d()->time > 2 * dt_
                              ? far_th_ * sites
                              : std::numeric_limits<double>::infinity();
    const double near_th = sites * 0.050;
    Rwd("reach") = 10.0 - 1.0 * reach_dist - 10.0 * vel_dist;
    Rwd("bonus") = 1.0 * static_cast<double>(reach_dist < 2 * near_th) +
                   1.0 * static_cast<double>(reach_dist < near_th);
    Rwd("act_reg") = -100.0 * act_mag;
    Rwd("penalty") = -1.0 * static_cast<double>(reach_dist > far_th);
    Rwd("sparse") = -1.0 * reach_dist;
    Rwd("solved") = reach_dist < near_th ? 1.0 : 0.0;
    Rwd("done") = reach_dist > far_th ? 1.0 : 0.0;
  }

 private:
  // generate_qpos: init_qpos plus a uniform draw for every position, kept
  // at the joints' first positions, clipped to their ranges.
  void GenerateQpos() {
    const int nq = m()->nq;
    for (int i = 0; i < nq; ++i) {
      draws_[i] = rng_.Uniform(joint_low_, joint_high_);
    }
    std::copy(init_qpos_.begin(), init_qpos_.end(), qpos_.begin());
    for (int j = 0; j < m()->njnt; ++j) {
      const int a = m()->jnt_qposadr[j];
      qpos_[a] += draws_[a];
    }
    for (int j = 0; j < m()->njnt; ++j) {
      const int a = m()->jnt_qposadr[j];
      qpos_[a] = std::min(std::max(qpos_[a], m()->jnt_range[2 * j]),
                          m()->jnt_range[2 * j + 1]);
    }
  }

  double joint_low_ = 0.0, joint_high_ = 0.0;
  std::vector<double> qpos_, draws_;
};

// walk_v0.WalkEnvV0.
class WalkEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("max_episode_steps", int64_t{1000});
    c.Set(
        "obs_keys",
        StringList{"qpos_without_xy", "qvel", "com_vel", "torso_angle",
                   "feet_heights", "height", "feet_rel_positions", "phase_var",
                   "muscle_length", "muscle_velocity", "muscle_force"});
    c.Set("weighted_reward_keys", NamedNumbers{{"vel_reward", {5.0}},
                                               {"done", {-100.0}},
                                               {"cyclic_hip", {-10.0}},
                                               {"ref_rot", {10.0}},
                                               {"joint_angle_rew", {5.0}}});
    c.Set("min_height", 0.8);
    c.Set("max_rot", 0.8);
    c.Set("hip_period", int64_t{100});
    c.Set("reset_type", std::string("init"));
    c.Set("target_x_vel", 0.0);
    c.Set("target_y_vel", 1.2);
    c.Set("target_rot", NumberList{});  // None: the first keyframe's
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"t", 1},
             {"qpos_without_xy", m->nq - 2},
             {"qvel", m->nv},
             {"com_vel", 2},
             {"torso_angle", 4},
             {"feet_heights", 2},
             {"height", 1},
             {"feet_rel_positions", 6},
             {"phase_var", 1},
             {"muscle_length", m->nu},
             {"muscle_velocity", m->nu},
             {"muscle_force", m->nu}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"vel_reward"},      {"cyclic_hip"},    {"ref_rot"},
             {"joint_angle_rew"}, {"act_mag"},       {"sparse"},
             {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    CheckWalk(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  WalkEnv(const Config& config, uint64_t seed, bool terrain = false)
      : MyoEnv(config, seed, &MakeLayout),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))) {
    CheckWalk(config, api_, m());
    min_height_ = config.GetFloat("min_height");
    max_rot_ = config.GetFloat("max_rot");
    hip_period_ = config.GetInt("hip_period");
    const std::string& reset = config.GetString("reset_type");
    reset_random_ = reset == "random";
    reset_init_ = reset == "init";
    target_x_vel_ = config.GetFloat("target_x_vel");
    target_y_vel_ = config.GetFloat("target_y_vel");
    target_rot_ = config.GetNumberList("target_rot");
    talus_l_ = NamedId(api_, m(), mjOBJ_BODY, "talus_l", "body");
    talus_r_ = NamedId(api_, m(), mjOBJ_BODY, "talus_r", "body");
    pelvis_ = NamedId(api_, m(), mjOBJ_BODY, "pelvis", "body");
    torso_ = NamedId(api_, m(), mjOBJ_BODY, "torso", "body");
    terrain_ = NamedId(api_, m(), mjOBJ_GEOM, "terrain", "geom");
    const char* hips[] = {"hip_adduction_l", "hip_adduction_r",
                          "hip_rotation_l", "hip_rotation_r"};
    for (const char* name : hips) {
      hip_angles_.push_back(
          m()->jnt_qposadr[NamedId(api_, m(), mjOBJ_JOINT, name, "joint")]);
    }
    hip_flexion_l_ = m()->jnt_qposadr[NamedId(api_, m(), mjOBJ_JOINT,
                                              "hip_flexion_l", "joint")];
    hip_flexion_r_ = m()->jnt_qposadr[NamedId(api_, m(), mjOBJ_JOINT,
                                              "hip_flexion_r", "joint")];
    body_sums_.assign(static_cast<std::size_t>(6), 0.0);
    Setup();
    // init_qpos: the first keyframe; init_qvel: zeros.
    std::copy(m()->key_qpos, m()->key_qpos + m()->nq, init_qpos_.begin());
    std::fill(init_qvel_.begin(), init_qvel_.end(), 0.0);
    if (!terrain) {
      // The height field moved away, unseen.
      m()->geom_rgba[4 * terrain_ + 3] = 0.0f;
      m()->geom_pos[3 * terrain_] = 0;
      m()->geom_pos[3 * terrain_ + 1] = 0;
      m()->geom_pos[3 * terrain_ + 2] = -10;
    }
    qpos_.assign(static_cast<std::size_t>(m()->nq), 0.0);
    qvel_.assign(static_cast<std::size_t>(m()->nv), 0.0);
  }

  StepResult Step(const void* action) override {
    StepResult r = MyoEnv::Step(action);
    ++steps_;
    return r;
  }

  void Reset() override {
    steps_ = 0;
    PrepareReset();
    api_.forward(m(), d());  // sync_sims of the env's data onto itself
    ResetTo(qpos_.data(), qvel_.data());
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, steps_)

 protected:
  // The start pose of reset_type: keyframe 2 ("init"), keyframe 2 or 3
  // with noise ("random"), else keyframe 0.
  void PrepareReset() {
    const int nq = m()->nq, nv = m()->nv;
    int key = reset_init_ ? 2 : 0;
    if (reset_random_) {
      key = rng_.NextDouble() < 0.5 ? 2 : 3;  // np_random.uniform()
    }
    std::copy(m()->key_qpos + key * nq, m()->key_qpos + (key + 1) * nq,
              qpos_.begin());
    std::copy(m()->key_qvel + key * nv, m()->key_qvel + (key + 1) * nv,
              qvel_.begin());
    if (reset_random_) {
      // Noise on every position but the height. (The reference keeps
      // `rot_state = qpos[3:7]`, a view of qpos, which the noise then
      // changes too: the rotation is noised as well.)
      const double height = qpos_[2];
      for (int i = 0; i < nq; ++i) qpos_[i] = qpos_[i] + Normal(&rng_, 0, 0.02);
      qpos_[2] = height;
    }
  }

  void ObsDict() override {
    const mjData* dd = d();
    Obs("t")[0] = dd->time;
    std::copy(dd->qpos + 2, dd->qpos + m()->nq, Obs("qpos_without_xy"));
    double* qvel = Obs("qvel");
    for (int i = 0; i < m()->nv; ++i) qvel[i] = dd->qvel[i] * dt_;
    double vel[2];
    ComVelocity(vel);
    Obs("com_vel")[0] = vel[0];
    Obs("com_vel")[1] = vel[1];
    std::copy(dd->xquat + 4 * torso_, dd->xquat + 4 * torso_ + 4,
              Obs("torso_angle"));
    Obs("feet_heights")[0] = dd->xpos[3 * talus_l_ + 2];
    Obs("feet_heights")[1] = dd->xpos[3 * talus_r_ + 2];
    Obs("height")[0] = Height();
    double* rel = Obs("feet_rel_positions");
    for (int i = 0; i < 3; ++i) {
      rel[i] = dd->xpos[3 * talus_l_ + i] - dd->xpos[3 * pelvis_ + i];
      rel[3 + i] = dd->xpos[3 * talus_r_ + i] - dd->xpos[3 * pelvis_ + i];
    }
    Obs("phase_var")[0] = PhaseVar();
    MuscleObs(dd, m()->nu, Obs("muscle_length"), Obs("muscle_velocity"),
              Obs("muscle_force"));
    if (m()->na > 0) std::copy(dd->act, dd->act + m()->na, Obs("act"));
  }

  void RewardDict() override {
    double vel[2];
    ComVelocity(vel);
    // np.exp(-np.square(target - v)) of np.float64 scalars.
    const double dy = target_y_vel_ - vel[1];
    const double dx = target_x_vel_ - vel[0];
    const double vel_reward = np_.Exp(-(dy * dy)) + np_.Exp(-(dx * dx));
    Rwd("vel_reward") = vel_reward;
    Rwd("cyclic_hip") = CyclicHip();
    Rwd("ref_rot") = RefRotation();
    Rwd("joint_angle_rew") = JointAngleReward();
    Rwd("act_mag") = ActMag();
    Rwd("sparse") = vel_reward;
    Rwd("solved") = vel_reward >= 1.0 ? 1.0 : 0.0;
    Rwd("done") = Done() ? 1.0 : 0.0;
  }

  virtual bool Done() { return Height() < min_height_ || RotCondition(); }

  // (steps / hip_period) % 1 of Python numbers.
  double PhaseVar() const {
    const double q =
        static_cast<double>(steps_) / static_cast<double>(hip_period_);
    return FloorModOne(q);
  }
  static double FloorModOne(double a) {
    double r = std::fmod(a, 1.0);
    if (r != 0 && r < 0) r += 1.0;
    if (r == 0) r = 0.0;
    return r;
  }

  // _get_com_velocity: sum(mass * -cvel, axis 0) / sum(mass), [3:5]; the
  // rows added in order (numpy's reduction over the first axis).
  void ComVelocity(double out[2]) {
    const int nb = m()->nbody;
    std::fill(body_sums_.begin(), body_sums_.end(), 0.0);
    for (int b = 0; b < nb; ++b) {
      for (int j = 0; j < 6; ++j) {
        const double term = m()->body_mass[b] * -d()->cvel[6 * b + j];
        body_sums_[j] = b == 0 ? term : body_sums_[j] + term;
      }
    }
    const double mass = PairwiseSum(m()->body_mass, nb);
    out[0] = body_sums_[3] / mass;
    out[1] = body_sums_[4] / mass;
  }

  // _get_com()[2]: sum(mass * xipos, axis 0) / sum(mass).
  double Height() {
    const int nb = m()->nbody;
    double z = 0.0;
    for (int b = 0; b < nb; ++b) {
      const double term = m()->body_mass[b] * d()->xipos[3 * b + 2];
      z = b == 0 ? term : z + term;
    }
    return z / PairwiseSum(m()->body_mass, nb);
  }

  // _get_rot_condition: |(quat2mat(qpos[3:7]) @ [1, 0, 0])[0]| > max_rot
  // (the product with [1, 0, 0] is m00 + m01 * 0 + m02 * 0: m00).
  bool RotCondition() {
    double mat[9];
    Quat2Mat(d()->qpos + 3, mat);
    return std::abs(mat[0]) > max_rot_;
  }

  // _get_cyclic_rew: |des_angles (float32) - hip flexions|.
  double CyclicHip() {
    constexpr double kPi = 3.141592653589793;
    const double phase = PhaseVar();
    const float des0 = static_cast<float>(0.8 * np_.Cos(phase * 2 * kPi + kPi));
    const float des1 = static_cast<float>(0.8 * np_.Cos(phase * 2 * kPi));
    double diff[2] = {static_cast<double>(des0) - d()->qpos[hip_flexion_l_],
                      static_cast<double>(des1) - d()->qpos[hip_flexion_r_]};
    return std::sqrt(blas_.Dot(diff, diff, 2));
  }

  // _get_ref_rotation_rew: exp(-|5 (qpos[3:7] - target_rot)|).
  double RefRotation() {
    double diff[4];
    for (int i = 0; i < 4; ++i) {
      const double t = target_rot_.empty() ? init_qpos_[3 + i] : target_rot_[i];
      diff[i] = 5.0 * (d()->qpos[3 + i] - t);
    }
    return np_.Exp(-std::sqrt(blas_.Dot(diff, diff, 4)));
  }

  // _get_joint_angle_rew: exp(-5 mean|hip adduction and rotation angles|).
  double JointAngleReward() {
    double a[4];
    for (int i = 0; i < 4; ++i) a[i] = std::abs(d()->qpos[hip_angles_[i]]);
    const double mag = PairwiseSum(a, 4) / 4;
    return np_.Exp(-5 * mag);
  }

  static void CheckWalk(const Config& config, const Api& api,
                        const mjModel* m) {
    const std::string& reset = config.GetString("reset_type");
    if (reset != "init" && reset != "random" && reset != "none") {
      throw std::invalid_argument(
          "option 'reset_type' must be 'init', 'random' or 'none', got '" +
          reset + "'");
    }
    if (config.GetInt("hip_period") < 1) {
      throw std::invalid_argument("option 'hip_period' must be at least 1");
    }
    const NumberList& rot = config.GetNumberList("target_rot");
    if (!rot.empty() && rot.size() != 4) {
      throw std::invalid_argument(
          "option 'target_rot': a quaternion (4 numbers), or () for the "
          "first keyframe's");
    }
    if (m->nkey < 4) {
      throw std::invalid_argument("the model has fewer than 4 keyframes");
    }
    (void)api;
  }

  const NumpyBlas& blas_;
  double min_height_ = 0.8, max_rot_ = 0.8;
  int64_t hip_period_ = 100;
  bool reset_random_ = false, reset_init_ = true;
  double target_x_vel_ = 0.0, target_y_vel_ = 1.2;
  NumberList target_rot_;
  int talus_l_ = -1, talus_r_ = -1, pelvis_ = -1, torso_ = -1, terrain_ = -1;
  std::vector<int> hip_angles_;
  int hip_flexion_l_ = -1, hip_flexion_r_ = -1;
  std::vector<double> body_sums_;
  std::vector<double> qpos_, qvel_;
  int64_t steps_ = 0;
};

// walk_v0.TerrainEnvV0: WalkEnvV0 over a height field ("rough", "hilly",
// "stairs"; variant "fixed" keeps the hills' and stairs' scale), drawn at
// every reset; done also when the knees are down.
class TerrainEnv : public WalkEnv {
 public:
  static Config DefaultConfig() {
    Config c = WalkEnv::DefaultConfig();
    c.Set("terrain", std::string("rough"));
    c.Set("variant", std::string());
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    Terrain(config);
    return WalkEnv::MakeSpec(config);
  }

  TerrainEnv(const Config& config, uint64_t seed)
      : WalkEnv(config, seed, true),
        terrain_kind_(Terrain(config)),
        fixed_(config.GetString("variant") == "fixed") {
    hfield_ = m()->geom_dataid[terrain_];
    if (hfield_ < 0 ||
        m()->hfield_nrow[hfield_] * m()->hfield_ncol[hfield_] != 10000) {
      throw std::invalid_argument(
          "the terrain geom must be a 100 x 100 height field");
    }
    field_.assign(10000, 0.0);
  }

  void Reset() override {
    steps_ = 0;
    DrawTerrain();
    StoreTerrain();
    m()->geom_rgba[4 * terrain_ + 3] = 1.0f;
    m()->geom_pos[3 * terrain_] = 0;
    m()->geom_pos[3 * terrain_ + 1] = 0;
    m()->geom_pos[3 * terrain_ + 2] = 0;
    m()->geom_contype[terrain_] = 1;
    m()->geom_conaffinity[terrain_] = 1;
    PrepareReset();
    api_.forward(m(), d());  // sync_sims of the env's data onto itself
    ResetTo(qpos_.data(), qvel_.data());
  }

 protected:
  bool Done() override {
    if (Height() < min_height_ || RotCondition()) return true;
    // _get_knee_condition: the body's centre of mass near the feet.
    const double feet =
        (d()->xpos[3 * talus_l_ + 2] + d()->xpos[3 * talus_r_ + 2]) / 2;
    return Height() - feet < 0.61;
  }

 private:
  enum class Kind { kRough, kHilly, kStairs, kNone };

  static Kind Terrain(const Config& config) {
    const std::string& t = config.GetString("terrain");
    if (t == "rough") return Kind::kRough;
    if (t == "hilly") return Kind::kHilly;
    if (t == "stairs") return Kind::kStairs;
    throw std::invalid_argument(
        "option 'terrain' must be 'rough', 'hilly' or 'stairs', got '" + t +
        "'");
  }

  // The height field TerrainEnvV0.reset draws, as float64 (stored as the
  // model's float32).
  void DrawTerrain() {
    constexpr double kPi = 3.141592653589793;
    if (terrain_kind_ == Kind::kRough) {
      for (int i = 0; i < 10000; ++i) field_[i] = rng_.Uniform(-0.5, 0.5);
      const double lo = *std::min_element(field_.begin(), field_.end());
      const double hi = *std::max_element(field_.begin(), field_.end());
      for (int i = 0; i < 10000; ++i) {
        field_[i] = (field_[i] - lo) / (hi - lo) * 0.08 - 0.02;
      }
    } else if (terrain_kind_ == Kind::kHilly) {
      const double scalar = fixed_ ? 0.63 : rng_.Uniform(0.53, 0.73);
      // -2 for 3000 points, then -2 + 0.5 (sin(linspace(0, 3 pi, 7000) +
      // pi / 2) - 1); normalised; both axes of the 100 x 100 flipped.
      std::vector<double>& c = combined_;
      c.assign(10000, -2.0);
      const int n = 7000;
      const double step = (3 * kPi - 0.0) / (n - 1);
      for (int i = 0; i < n; ++i) {
        double x = static_cast<double>(i) * step + 0.0;
        if (i == n - 1) x = 3 * kPi;
        c[3000 + i] = -2 + 0.5 * (np_.Sin(x + kPi / 2) - 1);
      }
      const double lo = *std::min_element(c.begin(), c.end());
      const double hi = *std::max_element(c.begin(), c.end());
      for (int i = 0; i < 10000; ++i) {
        field_[9999 - i] = (c[i] - lo) / (hi - lo) * scalar;
      }
    } else {
      const double scalar = fixed_ ? 2.5 : rng_.Uniform(1.5, 3.5);
      // 52 rows at -2, then 12 stairs of 4 rows, each 0.1 higher;
      // normalised by the top; both axes flipped.
      const int num_stairs = 12;
      const double stair_height = 0.1;
      std::vector<double>& c = combined_;
      c.assign(10000, -2.0);
      for (int j = 0; j < num_stairs; ++j) {
        const double v = -2 + stair_height * j;
        for (int k = 0; k < 400; ++k) c[5200 + 400 * j + k] = v;
      }
      const double top = 2 + stair_height * num_stairs;
      for (int i = 0; i < 10000; ++i) {
        field_[9999 - i] = (c[i] + 2) / top * scalar;
      }
    }
  }

  // The height field is left out of the model's saved arrays (refkit's
  // state.h: no other env changes one): saved here, put back on load.
  void SaveState(StateWriter& out) const override {
    WalkEnv::SaveState(out);
    out(field_);
  }
  void LoadState(StateReader& in) override {
    WalkEnv::LoadState(in);
    in(field_);
    StoreTerrain();
  }

  void StoreTerrain() {
    float* h = m()->hfield_data + m()->hfield_adr[hfield_];
    for (int i = 0; i < 10000; ++i) h[i] = static_cast<float>(field_[i]);
  }

  Kind terrain_kind_;
  bool fixed_ = false;
  int hfield_ = -1;
  std::vector<double> field_, combined_;
};

}  // namespace myosuite
}  // namespace envpool_lite
