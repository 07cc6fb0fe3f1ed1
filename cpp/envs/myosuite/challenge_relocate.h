// MyoChallenge 2023's object relocation (envs/myo/myochallenge/relocate_v0.py,
// RelocateEnvV0): the arm and hand carry an object to a target position
// and orientation. At every reset the target's position and orientation
// are drawn (target_xyz_range, target_rxryrz_range), and where the options
// give them the object's position, then each of its geoms' shape, size,
// position, orientation, colour and friction, and its mass; the arm starts
// at the model's keyframe (1 where obj_xyz_range is given, else 0), offset
// by qpos_noise_range times each joint's range.
//
// Where the env's data has contacts after the reset, myosuite resets again
// (RelocateEnvV0.reset calls itself, drawing everything anew) but returns
// the first attempt's observation: so does this (the obs dict is the last
// attempt's, as myosuite's is).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeRelocateEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys",
          StringList{"hand_qpos", "hand_qvel", "obj_pos", "goal_pos", "pos_err",
                     "obj_rot", "goal_rot", "rot_err"});
    c.Set("weighted_reward_keys",
          NamedNumbers{{"pos_dist", {100.0}}, {"rot_dist", {1.0}}});
    // {"high": (...), "low": (...)}; empty: myosuite's None.
    c.Set("target_xyz_range", NamedNumbers{});
    c.Set("target_rxryrz_range", NamedNumbers{});
    c.Set("obj_xyz_range", NamedNumbers{});
    c.Set("obj_geom_range", NamedNumbers{});
    c.Set("obj_mass_range", NamedNumbers{});
    c.Set("obj_friction_range", NamedNumbers{});
    // 0: myosuite's None (the same start).
    c.Set("qpos_noise_range", 0.0);
    c.Set("pos_th", 0.025);
    c.Set("rot_th", 0.262);
    c.Set("drop_th", 0.50);
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_qpos", m->nq - 7},
             {"hand_qpos_corrected", m->nq - 6},
             {"hand_qvel", m->nv - 6},
             {"obj_pos", 3},
             {"goal_pos", 3},
             {"palm_pos", 3},
             {"pos_err", 3},
             {"reach_err", 3},
             {"obj_rot", 3},
             {"goal_rot", 3},
             {"rot_err", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"pos_dist"},        {"rot_dist"},      {"act_reg"}, {"sparse"},
             {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeRelocateEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    ids_ = Check(config, api_, m());
    target_xyz_ = RangeOption(config, "target_xyz_range", 3);
    target_rot_ = RangeOption(config, "target_rxryrz_range", 3);
    obj_xyz_ = RangeOption(config, "obj_xyz_range", 3);
    obj_geom_ = RangeOption(config, "obj_geom_range", 3);
    obj_mass_ = RangeOption(config, "obj_mass_range", 1);
    obj_friction_ = RangeOption(config, "obj_friction_range", 3);
    qpos_noise_ = config.GetFloat("qpos_noise_range");
    pos_th_ = config.GetFloat("pos_th", -kInf, kInf);
    rot_th_ = config.GetFloat("rot_th", -kInf, kInf);
    drop_th_ = config.GetFloat("drop_th", -kInf, kInf);
    Setup();
    // init_qpos[:] = key_qpos[0 or 1].
    const int key = obj_xyz_.empty() ? 0 : 1;
    std::copy(m()->key_qpos + key * m()->nq,
              m()->key_qpos + (key + 1) * m()->nq, init_qpos_.begin());
    qpos_.assign(init_qpos_.size(), 0.0);
  }

  StepResult Step(const void* action) override {
    first_obs_used_ = false;
    return MyoEnv::Step(action);
  }

  // RelocateEnvV0.reset, its recursion a loop: attempts until the env's
  // data has no contact; the observation is the first attempt's.
  void Reset() override {
    for (int attempt = 0;; ++attempt) {
      if (attempt >= kMaxAttempts) {
        throw std::runtime_error(
            "MyoSuite relocate: no contact-free start in " +
            std::to_string(kMaxAttempts) +
            " resets (myosuite's RelocateEnvV0.reset would recurse until "
            "RecursionError)");
      }
      ResetOnce();
      if (attempt == 0) {
        first_obs_.clear();
        for (int k : obs_keys_) {
          const double* v = ObsValue(k);
          for (int i = 0; i < KeySize(layout_, k); ++i) {
            first_obs_.push_back(static_cast<float>(v[i]));
          }
        }
      }
      if (d()->ncon <= 0) {
        first_obs_used_ = attempt > 0;
        return;
      }
    }
  }

  void WriteObs(const Row& row) override {
    MyoEnv::WriteObs(row);
    if (first_obs_used_) {
      std::copy(first_obs_.begin(), first_obs_.end(), row.Obs<float>());
    }
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, first_obs_, first_obs_used_)

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 7, Obs("hand_qpos"));
    std::copy(d()->qpos, d()->qpos + nq - 6, Obs("hand_qpos_corrected"));
    double* qvel = Obs("hand_qvel");
    for (int i = 0; i + 6 < nv; ++i) qvel[i] = d()->qvel[i] * dt_;
    double* obj_pos = Obs("obj_pos");
    double* goal_pos = Obs("goal_pos");
    double* palm_pos = Obs("palm_pos");
    double* pos_err = Obs("pos_err");
    double* reach_err = Obs("reach_err");
    const double* x = d()->site_xpos;
    for (int i = 0; i < 3; ++i) {
      obj_pos[i] = x[3 * ids_.object_site + i];
      goal_pos[i] = x[3 * ids_.goal_site + i];
      palm_pos[i] = x[3 * ids_.palm_site + i];
      pos_err[i] = goal_pos[i] - obj_pos[i];
      reach_err[i] = palm_pos[i] - obj_pos[i];
    }
    double* obj_rot = Obs("obj_rot");
    double* goal_rot = Obs("goal_rot");
    double* rot_err = Obs("rot_err");
    Mat2Euler(np_, d()->site_xmat + 9 * ids_.object_site, obj_rot);
    Mat2Euler(np_, d()->site_xmat + 9 * ids_.goal_site, goal_rot);
    for (int i = 0; i < 3; ++i) rot_err[i] = goal_rot[i] - obj_rot[i];
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict, and the success indicator's colour and size it sets.
  void RewardDict() override {
    const double reach_dist =
        std::fabs(Norm(Obs("reach_err"), 3, scratch_.data()));
    const double pos_dist = std::fabs(Norm(Obs("pos_err"), 3, scratch_.data()));
    const double rot_dist = std::fabs(Norm(Obs("rot_err"), 3, scratch_.data()));
    const double act_mag = ActMag();
    const bool drop = reach_dist > drop_th_;
    Rwd("pos_dist") = -1.0 * pos_dist;
    Rwd("rot_dist") = -1.0 * rot_dist;
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("sparse") = -rot_dist - 10.0 * pos_dist;
    const bool solved = pos_dist < pos_th_ && rot_dist < rot_th_ && !drop;
    Rwd("solved") = solved ? 1.0 : 0.0;
    Rwd("done") = drop ? 1.0 : 0.0;
    float* rgba = m()->site_rgba + 4 * ids_.indicator_site;
    rgba[0] = solved ? 0.0f : 2.0f;
    rgba[1] = solved ? 2.0f : 0.0f;
    double* size = m()->site_size + 3 * ids_.indicator_site;
    for (int i = 0; i < 3; ++i) size[i] = solved ? 0.25 : 0.1;
  }

 private:
  static constexpr int kMaxAttempts = 1000;

  struct Ids {
    int palm_site = -1, object_site = -1, goal_site = -1, indicator_site = -1;
    int object_body = -1, goal_body = -1;
  };

  void ResetOnce() {
    double v[4];
    Draw(target_xyz_, m()->body_pos + 3 * ids_.goal_body);
    Draw(target_rot_, v);
    Euler2Quat(np_, v, m()->body_quat + 4 * ids_.goal_body);
    if (!obj_xyz_.empty()) Draw(obj_xyz_, m()->body_pos + 3 * ids_.object_body);
    if (!obj_geom_.empty()) {
      const int b = ids_.object_body;
      static const int kTypes[5] = {2, 3, 4, 5, 6};
      const double* high = obj_geom_.high.data();
      const double rbound = 2.0 * std::max(std::max(high[0], high[1]), high[2]);
      for (int g = 0; g < m()->body_geomnum[b]; ++g) {
        const int gid = g + m()->body_geomadr[b];
        m()->geom_type[gid] = kTypes[rng_.Choice(5)];
        double* size = m()->geom_size + 3 * gid;
        Draw(obj_geom_, size);
        for (int i = 0; i < 3; ++i) m()->geom_aabb[6 * gid + 3 + i] = high[i];
        m()->geom_rbound[gid] = rbound;
        for (int i = 0; i < 3; ++i) {
          m()->geom_pos[3 * gid + i] = rng_.Uniform(-1.0 * size[i], size[i]);
        }
        for (double& e : v) e = 0.0;
        for (int i = 0; i < 3; ++i) v[i] = rng_.Uniform(-kPi / 2, kPi / 2);
        Euler2Quat(np_, v, m()->geom_quat + 4 * gid);
        const double lo[4] = {0.2, 0.2, 0.2, 1.0}, hi[4] = {0.9, 0.9, 0.9, 1.0};
        for (int i = 0; i < 4; ++i) {
          m()->geom_rgba[4 * gid + i] =
              static_cast<float>(rng_.Uniform(lo[i], hi[i]));
        }
        if (!obj_friction_.empty()) {
          Draw(obj_friction_, m()->geom_friction + 3 * gid);
        }
      }
      if (!obj_mass_.empty()) {
        m()->body_mass[b] = rng_.Uniform(obj_mass_.low[0], obj_mass_.high[0]);
      }
      // mujoco.mj_forward(mj_model, mj_data): the env's data.
      api_.forward(m(), d());
    }
    // The start: init_qpos + qpos_noise_range * (joint range), the object's
    // six joints at init_qpos.
    qpos_ = init_qpos_;
    if (qpos_noise_ != 0.0) {
      const int nq = m()->nq;
      for (int j = 0; j < nq; ++j) {
        qpos_[j] = init_qpos_[j] + qpos_noise_ * (m()->jnt_range[2 * j + 1] -
                                                  m()->jnt_range[2 * j]);
      }
      for (int j = nq - 6; j < nq; ++j) qpos_[j] = init_qpos_[j];
    }
    // myosuite's reset computes no rewards: the success indicator keeps
    // the last step's colour and size.
    float* rgba = m()->site_rgba + 4 * ids_.indicator_site;
    double* isize = m()->site_size + 3 * ids_.indicator_site;
    const float kept_rgba[2] = {rgba[0], rgba[1]};
    const double kept_size[3] = {isize[0], isize[1], isize[2]};
    ResetTo(qpos_.data(), init_qvel_.data());
    rgba[0] = kept_rgba[0];
    rgba[1] = kept_rgba[1];
    for (int i = 0; i < 3; ++i) isize[i] = kept_size[i];
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    ids.palm_site = SiteId(api, m, "S_grasp", "mujoco_model");
    ids.object_site = SiteId(api, m, "object_o", "mujoco_model");
    ids.goal_site = SiteId(api, m, "target_o", "mujoco_model");
    ids.indicator_site = SiteId(api, m, "target_ball", "mujoco_model");
    ids.object_body = api.name2id(m, mjOBJ_BODY, "Object");
    ids.goal_body = api.name2id(m, mjOBJ_BODY, "target");
    if (ids.object_body < 0 || ids.goal_body < 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the relocation task needs the bodies "
          "'Object' and 'target'");
    }
    if (m->nq < 7 || m->nv < 6) {
      throw std::invalid_argument(
          "option 'mujoco_model': the relocation task needs the object's six "
          "joints last");
    }
    struct Want {
      const char* name;
      std::size_t n;
      bool required;
    };
    for (const Want& w :
         {Want{"target_xyz_range", 3, true},
          Want{"target_rxryrz_range", 3, true}, Want{"obj_xyz_range", 3, false},
          Want{"obj_geom_range", 3, false}, Want{"obj_mass_range", 1, false},
          Want{"obj_friction_range", 3, false}}) {
      const NamedNumbers& t = config.GetNamedNumbers(w.name);
      if (t.empty()) {
        if (w.required) {
          throw std::invalid_argument(
              std::string("option '") + w.name +
              "' is required (myosuite's RelocateEnvV0 has no default): "
              "{'high': ..., 'low': ...}");
        }
        continue;
      }
      RangeOption(config, w.name, w.n);
    }
    const LowHigh geom = RangeOption(config, "obj_geom_range", 3);
    if (!geom.empty() &&
        !(geom.low[0] >= 0 && geom.low[1] >= 0 && geom.low[2] >= 0)) {
      throw std::invalid_argument(
          "option 'obj_geom_range': sizes must not be negative (myosuite's "
          "uniform(-size, size) then raises ValueError)");
    }
    if (!RangeOption(config, "obj_xyz_range", 3).empty() && m->nkey < 2) {
      throw std::invalid_argument(
          "option 'obj_xyz_range': the model needs a keyframe 1 (myosuite "
          "starts from it)");
    }
    if (m->nkey < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the relocation task starts from the "
          "model's keyframe 0, which this model has not");
    }
    config.GetFloat("qpos_noise_range");
    if (config.GetFloat("qpos_noise_range") != 0.0 && m->njnt != m->nq) {
      throw std::invalid_argument(
          "option 'qpos_noise_range': the model's joints must be one value "
          "each (myosuite adds their ranges to init_qpos, which fails to "
          "broadcast otherwise)");
    }
    for (const char* name : {"pos_th", "rot_th", "drop_th"}) {
      config.GetFloat(name, -kInf, kInf);
    }
    // get_reward_dict's "solved" ((a < th) and (b < th) and (not drop), of
    // (1, 1) arrays in a step) is a bare bool whenever both thresholds are
    // met: np.sum of the weighted terms then fails in myosuite
    // ("inhomogeneous shape") when it is weighted.
    for (const auto& [name, w] :
         config.GetNamedNumbers("weighted_reward_keys")) {
      (void)w;
      if (name != "solved") continue;
      throw std::invalid_argument(
          "option 'weighted_reward_keys': 'solved' cannot be weighted in this "
          "task (myosuite's RelocateEnvV0 fails summing it once it is met: its "
          "shape is "
          "not the other terms')");
    }
    return ids;
  }

  Ids ids_;
  LowHigh target_xyz_, target_rot_, obj_xyz_, obj_geom_, obj_mass_,
      obj_friction_;
  double qpos_noise_ = 0.0;
  double pos_th_ = 0.025, rot_th_ = 0.262, drop_th_ = 0.5;
  std::vector<double> qpos_;
  std::vector<float> first_obs_;
  bool first_obs_used_ = false;
};

}  // namespace myosuite
}  // namespace envpool_lite
