// MyoChallenge 2024's OSL run track (envs/myo/myochallenge/run_track_v0.py,
// RunTrack): the left leg's muscles and a right Open Source Leg (OSL, a
// knee and an ankle motor under an impedance state machine) run down a
// track in -y, from start_pos to end_pos, over a height field.
//
// What myosuite 2.12.2 does, and so what this does:
//  - The action: the 54 muscles' commands (all nu = 56 controls' ranges
//    when not normalize_act, the last two ignored). RunTrack.step puts them
//    into a float64 copy of nu controls (so the muscles' sigmoid is
//    float64's) and appends the OSL's: MyoOSLController
//    (assets/leg/myoosl_control.py) moves through early stance, late
//    stance, early swing, late swing on its sensors (the OSL's knee and
//    ankle angles and velocities, the negated y of the r_osl_load sensor,
//    against thresholds in the body weight, np.sum(body_mass) * 9.81), and
//    commands each joint K (target - angle) - B velocity, clipped to its
//    peak torque, divided by the motor's gear, clipped to its control
//    range, then scaled into [-1, 1] when normalize_act (which BaseV0.step
//    then passes on unscaled: the motors get 1 / 2.88 of the torque, as in
//    myosuite). The state machine persists across steps and episodes (each
//    reset sets its state).
//  - Construction, in myosuite's order: the OSL in early stance, WalkEnvV0's
//    and BaseV0's setup (whose step of zero muscle commands runs the OSL,
//    with a pain and a score of -1: startFlag is not set yet), the height
//    field moved away unseen, init_qpos the "stand" keyframe.
//  - A reset: the track (TrackField.sample: cleared; "flat"; "random": one
//    of stairs, hills, rough drawn for the whole track; "random_mixed": one
//    per patch; the rows cut at np.arange(0, nrow, nrow // n), n the
//    difficulties' count or 24, the part after the last cut left flat, the
//    i-th patch of the i-th reversed difficulty), the terrain geom shown at
//    z = 0.005; the start (reset_type
//    "random": keyframe 0, 1 or 2 drawn, x drawn in +-0.8 real_width, y at
//    start_pos + 1, the yaw drawn in [-125, -60] degrees and the speed
//    turned with it; "init": keyframe 0; "osl_init": a row of
//    init_pose_path's gait cycle (init_qpos, which it overwrites, keeps the
//    last episode's pelvis turn, as myosuite's does); "none": keyframe 0),
//    the OSL's state with it; BaseV0's reset; then, but for "init", the
//    root lowered or raised so that the lowest foot site is at 0.005 m and
//    BaseV0's reset again.
//  - The obs dict: terrain (the track type), internal_qpos and
//    internal_qvel (x dt) of 17 joints, grf, socket_force, torso_angle (the
//    pelvis), the 54 muscles' lengths, velocities and forces, act,
//    model_root_pos and model_root_vel (x, y), and hfield: the height
//    field under a 10 x 10 grid around the root, turned with its yaw
//    (HeightField._measure_height, with numpy's int16 cast).
//  - The reward dict: act_reg (np.mean of the squared activations), pain
//    (as soccer's), sparse (-y velocity), solved (past end_pos), done
//    (solved, or out of +-real_width, back past start_pos + 2, or fallen:
//    the head within 0.2 m of the feet or of the ground); a loss sets the
//    info's time to dt * max_time_steps (myosuite's maxTime, from the
//    max_episode_steps kwarg it registers, which gym.make's own does not
//    reach).
//  - The rough track's noise is drawn from numpy's global legacy generator
//    (np.random.uniform), which myosuite never seeds; here a legacy
//    RandomState (MT19937) of the env's seed (its low 32 bits): the
//    reference's np.random.seed(seed) before gym.make (and nothing else
//    draws from it, tests/myosuite/test_myosuite_runtrack.py checks).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/heightfield.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/random_state.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeRunTrackEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("max_episode_steps", int64_t{1000});
    c.Set("obs_keys",
          StringList{"internal_qpos", "internal_qvel", "grf", "torso_angle",
                     "model_root_pos", "model_root_vel", "muscle_length",
                     "muscle_velocity", "muscle_force"});
    c.Set("weighted_reward_keys",
          NamedNumbers{{"sparse", {1.0}}, {"solved", {10.0}}});
    c.Set("reset_type", std::string("init"));
    c.Set("terrain", std::string("random"));
    c.Set("hills_difficulties", NumberList{0.0, 0.0});
    c.Set("rough_difficulties", NumberList{0.0, 0.0});
    c.Set("stairs_difficulties", NumberList{0.0, 0.0});
    c.Set("real_width", 1.0);
    c.Set("real_length", 120.0);
    c.Set("end_pos", -15.0);
    c.Set("start_pos", 14.0);
    // A gait cycle's CSV file (make() reads it into "init_pose_data"):
    // the registered one is the myosuite package's, a user's is relative to
    // the working directory; "" is myosuite's None.
    c.Set("init_pose_path", std::string());
    c.Set("init_pose_data", NamedNumbers{});  // internal
    c.Set("osl_param_set", int64_t{4});
    // RunTrack's own max_episode_steps kwarg: maxTime = dt * it.
    c.Set("max_time_steps", int64_t{36000});
    SetUnusedWalkOptions(&c);
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"terrain", 1},
             {"internal_qpos", kBioJoints},
             {"internal_qvel", kBioJoints},
             {"grf", 2},
             {"socket_force", 3},
             {"torso_angle", 4},
             {"muscle_length", kBioActs},
             {"muscle_velocity", kBioActs},
             {"muscle_force", kBioActs}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.obs.push_back({"model_root_pos", 2});
    l.obs.push_back({"model_root_vel", 2});
    l.obs.push_back({"hfield", 100});
    l.rwd = {{"act_reg"}, {"pain"}, {"sparse"},
             {"solved"},  {"done"}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    EnvSpec spec =
        BaseSpec(config, model.get(), MakeLayout(config, model.get()));
    // RunTrack's action space: the muscles only, when normalize_act.
    if (config.GetBool("normalize_act")) {
      spec.action = MakeBox<float>("action", {model->na}, {-1.0}, {1.0});
    }
    return spec;
  }

  ChallengeRunTrackEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))),
        legacy_(static_cast<uint32_t>(seed)) {
    ids_ = Check(config, api_, m());
    const std::string& reset = config.GetString("reset_type");
    reset_ = reset == "random"     ? ResetType::kRandom
             : reset == "init"     ? ResetType::kInit
             : reset == "osl_init" ? ResetType::kOslInit
                                   : ResetType::kNone;
    const std::string& terrain = config.GetString("terrain");
    terrain_ = terrain == "flat"     ? Terrain::kFlat
               : terrain == "random" ? Terrain::kRandom
                                     : Terrain::kMixed;
    // TrackField: the difficulties reversed (its rows run against the
    // walking direction).
    for (const char* name :
         {"stairs_difficulties", "hills_difficulties", "rough_difficulties"}) {
      const NumberList& d = config.GetNumberList(name);
      difficulties_.emplace_back(d.rbegin(), d.rend());
    }
    real_width_ = config.GetFloat("real_width");
    real_length_ = config.GetFloat("real_length");
    end_pos_ = config.GetFloat("end_pos");
    start_pos_ = config.GetFloat("start_pos");
    init_pose_ = config.GetNamedNumbers("init_pose_data");
    // MyoOSLController(np.sum(body_mass)): its thresholds in the weight.
    body_weight_ = PairwiseSum(m()->body_mass, m()->nbody) * 9.81;
    osl_state_ = kEStance;
    const int nrow = m()->hfield_nrow[ids_.hfield];
    const int ncol = m()->hfield_ncol[ids_.hfield];
    field_.assign(static_cast<std::size_t>(nrow) * ncol, 0.0f);
    std::copy(m()->hfield_data + m()->hfield_adr[ids_.hfield],
              m()->hfield_data + m()->hfield_adr[ids_.hfield] + field_.size(),
              field_.begin());
    qpos_.assign(static_cast<std::size_t>(m()->nq), 0.0);
    qvel_.assign(static_cast<std::size_t>(m()->nv), 0.0);
    Setup();
    // WalkEnvV0._setup: keyframe 0 at rest, the height field moved away
    // unseen; RunTrack: the "stand" keyframe.
    const int nq = m()->nq;
    std::copy(m()->key_qpos + ids_.stand * nq,
              m()->key_qpos + (ids_.stand + 1) * nq, init_qpos_.begin());
    std::fill(init_qvel_.begin(), init_qvel_.end(), 0.0);
    m()->geom_rgba[4 * ids_.terrain + 3] = 0.0f;
    const double away[3] = {0, 0, -10};
    std::copy(away, away + 3, m()->geom_pos + 3 * ids_.terrain);
    started_ = true;
    max_time_ = dt_ * static_cast<double>(config.GetInt("max_time_steps"));
  }

  void Seed(uint64_t seed) override {
    MyoEnv::Seed(seed);
    legacy_.Seed(static_cast<uint32_t>(seed));
  }

  // RunTrack.reset.
  void Reset() override {
    // _maybe_sample_terrain.
    SampleTerrain();
    StoreTerrain();
    m()->geom_rgba[4 * ids_.terrain + 3] = 1.0f;
    const double shown[3] = {0, 0, 0.005};
    std::copy(shown, shown + 3, m()->geom_pos + 3 * ids_.terrain);
    terrain_type_ = track_type_;
    // _get_reset_state.
    const int nq = m()->nq, nv = m()->nv;
    if (reset_ == ResetType::kRandom) {
      RandomizedInitialState();
      RandomizePositionOrientation();
    } else if (reset_ == ResetType::kOslInit) {
      InitializeFromData();
      std::copy(init_qpos_.begin(), init_qpos_.end(), qpos_.begin());
      std::copy(init_qvel_.begin(), init_qvel_.end(), qvel_.begin());
    } else {
      osl_state_ = kEStance;
      std::copy(m()->key_qpos, m()->key_qpos + nq, qpos_.begin());
      std::copy(m()->key_qvel, m()->key_qvel + nv, qvel_.begin());
    }
    api_.forward(m(), d());  // sync_sims of the env's data onto itself
    ResetTo(qpos_.data(), qvel_.data());
    api_.forward(m(), d());
    if (reset_ != ResetType::kInit) {
      AdjustModelHeight();
      api_.forward(m(), d());  // sync_sims
      ResetTo(qpos_.data(), qvel_.data());
      api_.forward(m(), d());
    }
    // The reset's obs dict keeps the time (myosuite computes no rewards at a
    // reset; this family's reward dict there is its own).
    time_clamped_ = false;
  }

  // The height field is left out of the model's saved arrays (refkit's
  // state.h): saved here, put back on load; init_qpos, which "osl_init"
  // changes, too.
  void SaveState(StateWriter& out) const override {
    MyoEnv::SaveState(out);
    out(legacy_, field_, osl_state_, terrain_type_, track_type_, time_clamped_,
        started_, init_qpos_, init_qvel_);
  }
  void LoadState(StateReader& in) override {
    MyoEnv::LoadState(in);
    in(legacy_, field_, osl_state_, terrain_type_, track_type_, time_clamped_,
       started_, init_qpos_, init_qvel_);
    StoreTerrain();
  }

 protected:
  // RunTrack.step: the muscles' commands (float32) into float64 controls,
  // zeros for the OSL's, which PreStep then appends; then BaseV0.step.
  bool TakeAction(const float* action) override {
    std::fill(ctrl_f64_.begin(), ctrl_f64_.end(), 0.0);
    for (int i = 0; i < m()->na; ++i) ctrl_f64_[i] = action[i];
    return false;
  }

  // info["time"] is obs_dict["time"], which a loss sets to maxTime.
  double InfoTime() const override {
    return time_clamped_ ? max_time_ : d()->time;
  }

  void ObsDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    Obs("terrain")[0] = static_cast<double>(terrain_type_);
    double* qpos = Obs("internal_qpos");
    double* qvel = Obs("internal_qvel");
    for (int i = 0; i < kBioJoints; ++i) {
      qpos[i] = dd->qpos[ids_.bio_qpos[i]];
      qvel[i] = dd->qvel[ids_.bio_dof[i]] * dt_;
    }
    Obs("grf")[0] = dd->sensordata[ids_.grf_adr[0]];
    Obs("grf")[1] = dd->sensordata[ids_.grf_adr[1]];
    std::copy(dd->sensordata + ids_.socket_adr,
              dd->sensordata + ids_.socket_adr + 3, Obs("socket_force"));
    std::copy(dd->xquat + 4 * ids_.pelvis, dd->xquat + 4 * ids_.pelvis + 4,
              Obs("torso_angle"));
    double* length = Obs("muscle_length");
    double* velocity = Obs("muscle_velocity");
    double* force = Obs("muscle_force");
    for (int i = 0; i < kBioActs; ++i) {
      const int a = ids_.bio_act[i];
      length[i] = dd->actuator_length[a];
      velocity[i] = std::min(std::max(dd->actuator_velocity[a], -100.0), 100.0);
      force[i] =
          std::min(std::max(dd->actuator_force[a] / 1000, -100.0), 100.0);
    }
    if (mm->na > 0) std::copy(dd->act, dd->act + mm->na, Obs("act"));
    std::copy(dd->qpos, dd->qpos + 2, Obs("model_root_pos"));
    std::copy(dd->qvel, dd->qvel + 2, Obs("model_root_vel"));
    MeasureHeight(Obs("hfield"));
  }

  // _append_osl_actions: the OSL's commands into the float64 controls.
  void PreStep() override {
    const mjData* dd = d();
    Sensors s;
    s.knee_angle = dd->qpos[ids_.knee_qpos];
    s.knee_vel = dd->qvel[ids_.knee_dof];
    s.ankle_angle = dd->qpos[ids_.ankle_qpos];
    s.ankle_vel = dd->qvel[ids_.ankle_dof];
    s.load = -1 * dd->sensordata[ids_.osl_load_adr + 1];
    if (Transition(s)) osl_state_ = (osl_state_ + 1) % 4;
    const Gains g = GainsOf(osl_state_);
    const double torque[2] = {Torque(g.knee_k, g.knee_b, g.knee_target,
                                     s.knee_angle, s.knee_vel, kKneePeak),
                              Torque(g.ankle_k, g.ankle_b, g.ankle_target,
                                     s.ankle_angle, s.ankle_vel, kAnklePeak)};
    for (int j = 0; j < 2; ++j) {
      const int id = ids_.osl_act[j];
      const double lo = m()->actuator_ctrlrange[2 * id];
      const double hi = m()->actuator_ctrlrange[2 * id + 1];
      double c = torque[j] / m()->actuator_gear[6 * id];
      c = std::min(std::max(c, lo), hi);
      if (normalize_act_) {
        const double mean = (lo + hi) / 2.0;
        const double range = (hi - lo) / 2.0;
        c = (c - mean) / range;
      }
      ctrl_f64_[id] = c;
    }
  }

  void RewardDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    double act_mag = 0.0;  // np.mean(np.square(act))
    if (mm->na > 0) {
      double* s = scratch_.data();
      for (int i = 0; i < mm->na; ++i) s[i] = dd->act[i] * dd->act[i];
      act_mag = PairwiseSum(s, mm->na) / static_cast<double>(mm->na);
    }
    const double score = started_ ? -dd->qvel[1] : -1.0;
    const bool win = dd->qpos[1] < end_pos_;
    const bool lose = Lose();
    time_clamped_ = lose;
    Rwd("act_reg") = act_mag;
    Rwd("pain") =
        started_ ? JointLimitPain(ids_.pain_dof) : -1;  // -1 before startFlag
    Rwd("sparse") = score;
    Rwd("solved") = win ? 1.0 : 0.0;
    Rwd("done") = lose || win ? 1.0 : 0.0;
  }

 private:
  static constexpr int kBioJoints = 17;
  static constexpr int kBioActs = 54;
  static constexpr double kKneePeak = 142.272, kAnklePeak = 168.192;
  enum class ResetType { kRandom, kInit, kOslInit, kNone };
  enum class Terrain { kFlat, kRandom, kMixed };
  // TrackTypes.
  enum Track : int32_t { kFlat = 0, kHilly = 1, kRough = 2, kStairs = 3 };
  static constexpr int32_t kMixed = 4;
  // The OSL's states, in the order of their transitions.
  enum OslState : int32_t {
    kEStance = 0,
    kLStance = 1,
    kESwing = 2,
    kLSwing = 3
  };

  // np.deg2rad(x): x * (pi / 180).
  static constexpr double Deg(double x) { return x * (kPi / 180.0); }

  struct Gains {
    double knee_k, knee_b, knee_target, ankle_k, ankle_b, ankle_target;
  };
  // MyoOSLController.initDefaults' gains, per state.
  static Gains GainsOf(int32_t state) {
    switch (state) {
      case kEStance:
        return {99.372, 3.180, Deg(5), 19.874, 0.0, Deg(-2)};
      case kLStance:
        return {99.372, 1.272, Deg(8), 79.498, 0.063, Deg(-20)};
      case kESwing:
        return {39.749, 0.063, Deg(60), 7.949, 0.0, Deg(25)};
      default:
        return {15.899, 3.816, Deg(5), 7.949, 0.0, Deg(15)};
    }
  }

  struct Sensors {
    double knee_angle, knee_vel, ankle_angle, ankle_vel, load;
  };

  // State.check_transition: the state's thresholds, in their order.
  bool Transition(const Sensors& s) const {
    switch (osl_state_) {
      case kEStance:
        return s.load > 0.25 * body_weight_ || s.ankle_angle > Deg(6);
      case kLStance:
        return s.load < 0.15 * body_weight_;
      case kESwing:
        return s.knee_angle > Deg(50) || s.knee_vel < Deg(3);
      default:
        return s.load > 0.4 * body_weight_ || s.knee_angle < Deg(30);
    }
  }

  // _get_joint_torque: np.clip(K (theta - angle) - B vel, -peak, peak).
  static double Torque(double k, double b, double theta, double angle,
                       double vel, double peak) {
    const double t = k * (theta - angle) - b * vel;
    return std::min(std::max(t, -peak), peak);
  }

  // RunTrack.biological_jnt and biological_act, in their order.
  static constexpr const char* kBioJointNames[kBioJoints] = {
      "hip_adduction_l",
      "hip_flexion_l",
      "hip_rotation_l",
      "hip_adduction_r",
      "hip_flexion_r",
      "hip_rotation_r",
      "knee_angle_l",
      "knee_angle_l_beta_rotation1",
      "knee_angle_l_beta_translation1",
      "knee_angle_l_beta_translation2",
      "knee_angle_l_rotation2",
      "knee_angle_l_rotation3",
      "knee_angle_l_translation1",
      "knee_angle_l_translation2",
      "mtp_angle_l",
      "ankle_angle_l",
      "subtalar_angle_l"};
  static constexpr const char* kBioActNames[kBioActs] = {
      "addbrev_l",    "addbrev_r",    "addlong_l",   "addlong_r",
      "addmagDist_l", "addmagIsch_l", "addmagMid_l", "addmagProx_l",
      "bflh_l",       "bfsh_l",       "edl_l",       "ehl_l",
      "fdl_l",        "fhl_l",        "gaslat_l",    "gasmed_l",
      "glmax1_l",     "glmax1_r",     "glmax2_l",    "glmax2_r",
      "glmax3_l",     "glmax3_r",     "glmed1_l",    "glmed1_r",
      "glmed2_l",     "glmed2_r",     "glmed3_l",    "glmed3_r",
      "glmin1_l",     "glmin1_r",     "glmin2_l",    "glmin2_r",
      "glmin3_l",     "glmin3_r",     "grac_l",      "iliacus_l",
      "iliacus_r",    "perbrev_l",    "perlong_l",   "piri_l",
      "piri_r",       "psoas_l",      "psoas_r",     "recfem_l",
      "sart_l",       "semimem_l",    "semiten_l",   "soleus_l",
      "tfl_l",        "tibant_l",     "tibpost_l",   "vasint_l",
      "vaslat_l",     "vasmed_l"};
  // RunTrack.pain_jnt.
  static constexpr const char* kPainJoints[12] = {
      "hip_adduction_l", "hip_adduction_r",        "hip_flexion_l",
      "hip_flexion_r",   "hip_rotation_l",         "hip_rotation_r",
      "knee_angle_l",    "knee_angle_l_rotation2", "knee_angle_l_rotation3",
      "mtp_angle_l",     "ankle_angle_l",          "subtalar_angle_l"};
  // initializeFromData: the gait cycle's columns that are not joints.
  static constexpr const char* kNotJoints[12] = {
      "pelvis_euler_roll", "pelvis_euler_pitch", "pelvis_euler_yaw",
      "l_foot_relative_X", "l_foot_relative_Y",  "l_foot_relative_Z",
      "r_foot_relative_X", "r_foot_relative_Y",  "r_foot_relative_Z",
      "pelvis_vel_X",      "pelvis_vel_Y",       "pelvis_vel_Z"};
  // generate_init_lookup: the rows' OSL states (rows 0-47, 48-98, 99-182,
  // 183-246).
  static constexpr int kInitRows = 247;

  struct Ids {
    std::vector<int> bio_qpos, bio_dof, bio_act, pain_dof;
    int grf_adr[2] = {0, 0};
    int socket_adr = 0, osl_load_adr = 0;
    int knee_qpos = 0, knee_dof = 0, ankle_qpos = 0, ankle_dof = 0;
    int osl_act[2] = {0, 0};
    int pelvis = -1, talus_l = -1, osl_foot = -1, head = -1;
    int feet_sites[4] = {0, 0, 0, 0};
    int terrain = -1, hfield = -1, stand = -1;
    // init_pose_data's joint columns: (column, qpos address).
    std::vector<std::pair<int, int>> pose_joints;
    int pose_euler[3] = {-1, -1, -1}, pose_vel[3] = {-1, -1, -1};
  };

  static bool IsNotJoint(const std::string& name) {
    for (const char* n : kNotJoints) {
      if (name == n) return true;
    }
    return false;
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    auto id = [&](mjtObj type, const char* name) {
      return ModelId(api, m, type, name, "run track");
    };
    for (const char* name : kBioJointNames) {
      const int j = id(mjOBJ_JOINT, name);
      ids.bio_qpos.push_back(m->jnt_qposadr[j]);
      ids.bio_dof.push_back(m->jnt_dofadr[j]);
    }
    for (const char* name : kBioActNames) {
      ids.bio_act.push_back(id(mjOBJ_ACTUATOR, name));
    }
    for (const char* name : kPainJoints) {
      ids.pain_dof.push_back(m->jnt_dofadr[id(mjOBJ_JOINT, name)]);
    }
    ids.grf_adr[0] = m->sensor_adr[id(mjOBJ_SENSOR, "l_foot")];
    ids.grf_adr[1] = m->sensor_adr[id(mjOBJ_SENSOR, "l_toes")];
    const int socket = id(mjOBJ_SENSOR, "r_socket_load");
    const int load = id(mjOBJ_SENSOR, "r_osl_load");
    ids.socket_adr = m->sensor_adr[socket];
    ids.osl_load_adr = m->sensor_adr[load];
    const int knee = id(mjOBJ_JOINT, "osl_knee_angle_r");
    const int ankle = id(mjOBJ_JOINT, "osl_ankle_angle_r");
    ids.knee_qpos = m->jnt_qposadr[knee];
    ids.knee_dof = m->jnt_dofadr[knee];
    ids.ankle_qpos = m->jnt_qposadr[ankle];
    ids.ankle_dof = m->jnt_dofadr[ankle];
    ids.osl_act[0] = id(mjOBJ_ACTUATOR, "osl_knee_torque_actuator");
    ids.osl_act[1] = id(mjOBJ_ACTUATOR, "osl_ankle_torque_actuator");
    ids.pelvis = id(mjOBJ_BODY, "pelvis");
    ids.talus_l = id(mjOBJ_BODY, "talus_l");
    ids.osl_foot = id(mjOBJ_BODY, "osl_foot_assembly");
    ids.head = id(mjOBJ_SITE, "head");
    const char* feet[4] = {"r_heel_btm", "r_toe_btm", "l_heel_btm",
                           "l_toe_btm"};
    for (int i = 0; i < 4; ++i) ids.feet_sites[i] = id(mjOBJ_SITE, feet[i]);
    ids.terrain = id(mjOBJ_GEOM, "terrain");
    ids.hfield = m->geom_dataid[ids.terrain];
    ids.stand = id(mjOBJ_KEY, "stand");
    const int root = id(mjOBJ_JOINT, "root");
    if (m->jnt_type[root] != mjJNT_FREE || m->jnt_qposadr[root] != 0 ||
        m->geom_type[ids.terrain] != mjGEOM_HFIELD || m->nkey < 3 ||
        m->sensor_dim[socket] != 3 || m->sensor_dim[load] < 2 ||
        m->na > m->nu || m->na != kBioActs) {
      throw std::invalid_argument(
          "option 'mujoco_model': the run track task needs a free joint "
          "'root' first, a height field 'terrain', three keyframes, the "
          "3-axis sensors r_socket_load and r_osl_load and 54 muscles first");
    }
    // The options myosuite meets at its first reset, or fails on.
    const std::string& reset = config.GetString("reset_type");
    if (reset != "random" && reset != "init" && reset != "osl_init" &&
        reset != "none") {
      throw std::invalid_argument(
          "option 'reset_type' must be 'random', 'init', 'osl_init' or 'none' "
          "(myosuite's RunTrack), got '" +
          reset + "'");
    }
    const std::string& terrain = config.GetString("terrain");
    if (terrain != "flat" && terrain != "random" && terrain != "random_mixed") {
      throw std::invalid_argument(
          "option 'terrain' must be 'flat', 'random' or 'random_mixed' "
          "(myosuite's TrackField raises ValueError: Invalid reset type), got "
          "'" +
          terrain + "'");
    }
    const int64_t nrow = m->hfield_nrow[ids.hfield];
    const char* lists[3] = {"stairs_difficulties", "hills_difficulties",
                            "rough_difficulties"};
    for (int k = 0; k < 3; ++k) {
      const char* name = lists[k];
      const NumberList& d = config.GetNumberList(name);
      for (double x : d) {
        if (!std::isfinite(x)) {
          throw std::invalid_argument(std::string("option '") + name +
                                      "': its difficulties must be finite");
        }
      }
      if (terrain == "flat") continue;
      // The patches: np.arange(0, nrow, nrow // n) less one, the i-th
      // taking the i-th difficulty of the reversed list.
      const int64_t n =
          terrain == "random" ? static_cast<int64_t>(d.size()) : 24;
      if (n < 1 || n > nrow) {
        throw std::invalid_argument(
            std::string("option '") + name + "': 1 to " + std::to_string(nrow) +
            " difficulties needed (myosuite's TrackField divides the " +
            std::to_string(nrow) + " rows by their count)");
      }
      const int64_t patches = Patches(nrow, n);
      const int64_t size = static_cast<int64_t>(d.size());
      if (patches > size) {
        throw std::invalid_argument(
            std::string("option '") + name + "': terrain '" + terrain +
            "' makes " + std::to_string(patches) +
            " patches, each taking a difficulty, and there are " +
            std::to_string(size) +
            " (myosuite's TrackField raises IndexError)");
      }
      for (int64_t i = 0; k == 2 && i < patches; ++i) {
        if (d[size - 1 - i] < 0) {
          throw std::invalid_argument(
              "option 'rough_difficulties' must not be negative (myosuite's "
              "np_random.uniform(0, difficulty) raises ValueError: high - low "
              "< 0)");
        }
      }
    }
    const double width = config.GetFloat("real_width");
    config.GetFloat("real_length");
    config.GetFloat("end_pos");
    config.GetFloat("start_pos");
    if (reset == "random") {
      CheckUniform("real_width", -width * 0.8, width * 0.8);
    }
    if (config.GetInt("osl_param_set") < 1) {
      throw std::invalid_argument(
          "option 'osl_param_set' must be at least 1 (MyoOSLController's "
          "n_sets: its first set is the one in use)");
    }
    config.GetInt("max_time_steps");
    for (const char* name :
         {"min_height", "max_rot", "target_x_vel", "target_y_vel"}) {
      config.GetFloat(name, -kInf, kInf);
    }
    config.GetInt("hip_period", std::numeric_limits<int64_t>::min(),
                  std::numeric_limits<int64_t>::max());
    // The gait cycle (initializeFromData, for "osl_init").
    const NamedNumbers& pose = config.GetNamedNumbers("init_pose_data");
    if (reset == "osl_init") {
      if (pose.empty()) {
        throw std::invalid_argument(
            "option 'reset_type' = 'osl_init' needs 'init_pose_path' (a gait "
            "cycle's CSV file; myosuite fails on None)");
      }
      const std::size_t rows = pose[0].second.size();
      for (const auto& [name, column] : pose) {
        if (column.size() != rows) {
          throw std::invalid_argument(
              "option 'init_pose_path': every column needs a value in every "
              "row");
        }
      }
      if (rows < 1 || rows > static_cast<std::size_t>(kInitRows)) {
        throw std::invalid_argument(
            "option 'init_pose_path': 1 to 247 rows needed (myosuite's "
            "init_lookup names the OSL state of rows 0 to 246), got " +
            std::to_string(rows));
      }
    }
    for (std::size_t c = 0; c < pose.size(); ++c) {
      const std::string& name = pose[c].first;
      const char* euler[3] = {"pelvis_euler_roll", "pelvis_euler_pitch",
                              "pelvis_euler_yaw"};
      const char* vel[3] = {"pelvis_vel_X", "pelvis_vel_Y", "pelvis_vel_Z"};
      for (int i = 0; i < 3; ++i) {
        if (name == euler[i]) ids.pose_euler[i] = static_cast<int>(c);
        if (name == vel[i]) ids.pose_vel[i] = static_cast<int>(c);
      }
      if (IsNotJoint(name)) continue;
      const int j = api.name2id(m, mjOBJ_JOINT, name.c_str());
      if (j < 0) {
        if (reset != "osl_init") continue;
        throw std::invalid_argument(
            "option 'init_pose_path': column '" + name +
            "' is not a joint of the model (myosuite raises KeyError)");
      }
      ids.pose_joints.emplace_back(static_cast<int>(c), m->jnt_qposadr[j]);
    }
    if (reset == "osl_init") {
      for (int i = 0; i < 3; ++i) {
        if (ids.pose_euler[i] < 0 || ids.pose_vel[i] < 0) {
          throw std::invalid_argument(
              "option 'init_pose_path': the columns pelvis_euler_roll, "
              "pelvis_euler_pitch, pelvis_euler_yaw, pelvis_vel_X, "
              "pelvis_vel_Y and pelvis_vel_Z are needed");
        }
      }
    }
    return ids;
  }

  // len(np.arange(0, nrow, nrow // n)) - 1.
  static int64_t Patches(int64_t nrow, int64_t n) {
    const int64_t step = nrow / n;
    return (nrow + step - 1) / step - 1;
  }

  // TrackField.sample: cleared, then filled (_fill_terrain).
  void SampleTerrain() {
    std::fill(field_.begin(), field_.end(), 0.0f);
    if (terrain_ == Terrain::kFlat) {
      track_type_ = kFlat;
      return;
    }
    const int64_t nrow = m()->hfield_nrow[ids_.hfield];
    static constexpr int32_t kTypes[3] = {kStairs, kHilly, kRough};
    if (terrain_ == Terrain::kRandom) {
      const int k = static_cast<int>(rng_.Choice(3));
      track_type_ = kTypes[k];
      const int64_t n = static_cast<int64_t>(difficulties_[k].size());
      const int64_t step = nrow / n;
      const int64_t patches = Patches(nrow, n);
      for (int64_t i = 0; i < patches; ++i) {
        Patch(k, static_cast<int>(i * step), static_cast<int>((i + 1) * step),
              static_cast<int>(i));
      }
    } else {
      track_type_ = kMixed;
      const int64_t step = nrow / 24;
      const int64_t patches = Patches(nrow, 24);
      for (int64_t i = 0; i < patches; ++i) {
        const int k = static_cast<int>(rng_.Choice(3));
        Patch(k, static_cast<int>(i * step), static_cast<int>((i + 1) * step),
              static_cast<int>(i));
      }
    }
  }

  // _compute_stairs_track, _compute_hilly_track, _compute_rough_track of
  // the rows [start, end) with the i-th (reversed) difficulty; float64
  // values stored as the model's float32.
  void Patch(int k, int start, int end, int i) {
    const int ncol = m()->hfield_ncol[ids_.hfield];
    const int length = end - start;
    const double difficulty = difficulties_[k][i];
    float* rows = field_.data() + static_cast<std::size_t>(start) * ncol;
    const int n = length * ncol;
    if (k == 0) {
      // Three stairs up and three down, each int(length / 6) rows.
      const int flat = length / 6;
      double height = 0.0;
      for (int j = 0; j < 6; ++j) {
        std::fill(rows + j * flat * ncol, rows + (j + 1) * flat * ncol,
                  static_cast<float>(height));
        height = j < 3 ? height + difficulty : height - difficulty;
      }
    } else if (k == 1) {
      // np.sin(np.linspace(0, pi, n)), normalised, scaled, both axes
      // flipped.
      values_.resize(static_cast<std::size_t>(n));
      const double step = (kPi - 0.0) / (n - 1);
      for (int j = 0; j < n; ++j) {
        double x = static_cast<double>(j) * step + 0.0;
        if (j == n - 1 && n > 1) x = kPi;
        values_[j] = np_.Sin(x);
      }
      const double lo = *std::min_element(values_.begin(), values_.end());
      const double hi = *std::max_element(values_.begin(), values_.end());
      for (int j = 0; j < n; ++j) {
        rows[n - 1 - j] =
            static_cast<float>((values_[j] - lo) / (hi - lo) * difficulty);
      }
    } else {
      // np.random.uniform(-1, 1, (length, ncol)) (the global legacy
      // generator: see above), then np_random.uniform(0, difficulty).
      values_.resize(static_cast<std::size_t>(n));
      for (int j = 0; j < n; ++j) values_[j] = legacy_.Uniform(-1, 1);
      const double scalar = rng_.Uniform(0, difficulty);
      const double lo = *std::min_element(values_.begin(), values_.end());
      const double hi = *std::max_element(values_.begin(), values_.end());
      for (int j = 0; j < n; ++j) {
        rows[j] =
            static_cast<float>((values_[j] - lo) / (hi - lo) * scalar - 0.0);
      }
    }
  }

  void StoreTerrain() {
    std::copy(field_.begin(), field_.end(),
              m()->hfield_data + m()->hfield_adr[ids_.hfield]);
  }

  // HeightField._measure_height (heightfield.h): view_distance 5.
  void MeasureHeight(double* out) {
    const int h = ids_.hfield;
    const HeightMap f{m()->hfield_data + m()->hfield_adr[h],
                      m()->hfield_nrow[h], m()->hfield_ncol[h], real_length_,
                      real_width_};
    myosuite::MeasureHeight(np_, d()->qpos, f, 5, out);
  }

  // quat_math.quat2euler_intrinsic: (roll, pitch, yaw).
  void QuatToEulerIntrinsic(const double* q, double* euler) const {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double sinr_cosp = 2 * (w * x + y * z);
    const double cosr_cosp = 1 - 2 * (x * x + y * y);
    euler[0] = np_.Arctan2(sinr_cosp, cosr_cosp);
    const double sinp = 2 * (w * y - z * x);
    euler[1] =
        std::fabs(sinp) >= 1 ? std::copysign(kPi / 2, sinp) : np_.Arcsin(sinp);
    const double siny_cosp = 2 * (w * z + x * y);
    const double cosy_cosp = 1 - 2 * (y * y + z * z);
    euler[2] = np_.Arctan2(siny_cosp, cosy_cosp);
  }

  // quat_math.intrinsic_euler2quat of (roll, pitch, yaw).
  void IntrinsicEulerToQuat(const double* euler, double* q) const {
    const double hr = euler[0] * 0.5, hp = euler[1] * 0.5, hy = euler[2] * 0.5;
    const double sr = np_.Sin(hr), cr = np_.Cos(hr);
    const double sp = np_.Sin(hp), cp = np_.Cos(hp);
    const double sy = np_.Sin(hy), cy = np_.Cos(hy);
    q[0] = cr * cp * cy + sr * sp * sy;
    q[1] = sr * cp * cy - cr * sp * sy;
    q[2] = cr * sp * cy + sr * cp * sy;
    q[3] = cr * cp * sy - sr * sp * cy;
  }

  // _get_randomized_initial_state: keyframe 0, 1 or 2 (the OSL in early
  // stance for 0 and 2, early swing for 1), x drawn, y at start_pos + 1.
  void RandomizedInitialState() {
    const int nq = m()->nq, nv = m()->nv;
    const int key = static_cast<int>(rng_.Integers(0, 3));
    std::copy(m()->key_qpos + key * nq, m()->key_qpos + (key + 1) * nq,
              qpos_.begin());
    std::copy(m()->key_qvel + key * nv, m()->key_qvel + (key + 1) * nv,
              qvel_.begin());
    osl_state_ = key == 0 || key == 2 ? kEStance : kESwing;
    qpos_[0] = rng_.Uniform(-real_width_ * 0.8, real_width_ * 0.8);
    qpos_[1] = start_pos_ + 1;
  }

  // _randomize_position_orientation: the yaw drawn, the planar speed
  // turned with it.
  void RandomizePositionOrientation() {
    const double orientation = rng_.Uniform(Deg(-125), Deg(-60));
    double euler[3];
    QuatToEulerIntrinsic(qpos_.data() + 3, euler);
    euler[2] = orientation;
    IntrinsicEulerToQuat(euler, qpos_.data() + 3);
    const double speed = blas_.Norm(qvel_.data(), 2);
    qvel_[0] = np_.Cos(orientation) * speed;
    qvel_[1] = np_.Sin(orientation) * speed;
  }

  // initializeFromData: a row of the gait cycle into init_qpos and
  // init_qvel (the velocity turned by the yaw init_qpos had), the OSL's
  // state of that row.
  void InitializeFromData() {
    const int64_t rows = static_cast<int64_t>(init_pose_[0].second.size());
    const int64_t row = rng_.Integers(0, rows);
    auto at = [&](int column) { return init_pose_[column].second[row]; };
    for (const auto& [column, adr] : ids_.pose_joints) {
      init_qpos_[adr] = at(column);
    }
    double facing[4];
    std::copy(init_qpos_.begin() + 3, init_qpos_.begin() + 7, facing);
    const double euler[3] = {at(ids_.pose_euler[0]), at(ids_.pose_euler[1]),
                             at(ids_.pose_euler[2])};
    IntrinsicEulerToQuat(euler, init_qpos_.data() + 3);
    double temp[3];
    QuatToEulerIntrinsic(facing, temp);
    const double x = at(ids_.pose_vel[0]), y = at(ids_.pose_vel[1]);
    const double theta = temp[2];
    std::fill(init_qvel_.begin(), init_qvel_.end(), 0.0);
    init_qvel_[0] = np_.Cos(theta) * x - np_.Sin(theta) * y;
    init_qvel_[1] = np_.Sin(theta) * x + np_.Cos(theta) * y;
    init_qvel_[2] = at(ids_.pose_vel[2]);
    osl_state_ = row < 48    ? kESwing
                 : row < 99  ? kLSwing
                 : row < 183 ? kEStance
                             : kLStance;
  }

  // adjust_model_height: the root moved so that the lowest foot site is at
  // 0.005 m, into qpos_ and qvel_.
  void AdjustModelHeight() {
    const mjData* dd = d();
    std::copy(dd->qpos, dd->qpos + m()->nq, qpos_.begin());
    std::copy(dd->qvel, dd->qvel + m()->nv, qvel_.begin());
    double lowest = 100;
    for (int s : ids_.feet_sites) {
      if (lowest > dd->site_xpos[3 * s + 2]) lowest = dd->site_xpos[3 * s + 2];
    }
    const double diff = 0.005 - lowest;
    qpos_[2] = qpos_[2] + diff;
  }

  // _lose_condition: out of +-real_width, back past start_pos + 2, or
  // fallen (_get_fallen_condition).
  bool Lose() const {
    const mjData* dd = d();
    const double x = dd->qpos[0], y = dd->qpos[1];
    if (x > real_width_ || x < -real_width_) return true;
    if (y > start_pos_ + 2) return true;
    const double head = dd->site_xpos[3 * ids_.head + 2];
    const double feet =
        (dd->xpos[3 * ids_.talus_l + 2] + dd->xpos[3 * ids_.osl_foot + 2]) / 2;
    return head - feet < 0.2 || head < 0.2;
  }

  const NumpyBlas& blas_;
  NumpyRandomState legacy_;
  Ids ids_;
  ResetType reset_ = ResetType::kInit;
  Terrain terrain_ = Terrain::kRandom;
  std::vector<std::vector<double>> difficulties_;  // stairs, hills, rough
  double real_width_ = 1, real_length_ = 120, end_pos_ = -15, start_pos_ = 14;
  double body_weight_ = 0.0, max_time_ = 0.0;
  NamedNumbers init_pose_;
  int32_t osl_state_ = kEStance;
  int32_t terrain_type_ = kFlat, track_type_ = kFlat;
  bool time_clamped_ = false, started_ = false;
  std::vector<float> field_;
  std::vector<double> values_, qpos_, qvel_;
};

}  // namespace myosuite
}  // namespace envpool_lite
