// MyoSuite's pen twirling tasks (envs/myo/myobase/pen_v0.py,
// PenTwirlFixedEnvV0 and PenTwirlRandomEnvV0): the hand, palm up, turns a
// pen to a target orientation while keeping it in a ball. The random
// variant draws at every reset the target's orientation (two Euler angles,
// myosuite's euler2quat).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace myosuite {

// np.einsum('...i,...i', a, b) of two float64 vectors of n values (the
// contraction of myosuite's calculate_cosine, utils/vector_math.py): numpy's
// einsum sums the products in two lanes (its baseline SIMD width for
// float64), four pairs of lanes at a time in reverse order, the rest one
// pair at a time, then adds the lanes, and the output (0) plus that.
// Measured against numpy 2.4's einsum: equal for n = 1 ... 39.
inline double EinsumDot(const double* a, const double* b, int n) {
  double acc0 = 0.0, acc1 = 0.0;
  int i = 0;
  for (; n - i >= 8; i += 8) {
    for (int k = 3; k >= 0; --k) {
      acc0 = a[i + 2 * k] * b[i + 2 * k] + acc0;
      acc1 = a[i + 2 * k + 1] * b[i + 2 * k + 1] + acc1;
    }
  }
  for (; i < n; i += 2) {
    acc0 = a[i] * b[i] + acc0;
    acc1 = (i + 1 < n ? a[i + 1] * b[i + 1] : 0.0) + acc1;
  }
  return 0.0 + (acc0 + acc1);
}

class PenTwirlFixedEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", StringList{"hand_jnt", "obj_pos", "obj_vel", "obj_rot",
                                 "obj_des_rot", "obj_err_pos", "obj_err_rot"});
    c.Set("weighted_reward_keys", NamedNumbers{{"pos_align", {1.0}},
                                               {"rot_align", {1.0}},
                                               {"act_reg", {5.0}},
                                               {"drop", {5.0}},
                                               {"bonus", {10.0}}});
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_jnt", m->nq - 6}, {"obj_pos", 3},    {"obj_des_pos", 3},
             {"obj_vel", 6},          {"obj_rot", 3},    {"obj_des_rot", 3},
             {"obj_err_pos", 3},      {"obj_err_rot", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {
        {"pos_align"}, {"rot_align"}, {"act_reg"},         {"drop"},
        {"bonus"},     {"sparse"},    {"solved", 1, true}, {"done", 1, true},
        {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Ids(api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  PenTwirlFixedEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout) {
    const IdSet ids = Ids(api_, m());
    target_bid_ = ids.target;
    obj_bid_ = ids.object;
    eps_ball_sid_ = ids.eps_ball;
    obj_t_sid_ = ids.obj_t;
    obj_b_sid_ = ids.obj_b;
    tar_t_sid_ = ids.tar_t;
    tar_b_sid_ = ids.tar_b;
    // np.linalg.norm of a 1-d array: sqrt(x.dot(x)), the BLAS's ddot. The
    // pen's sites differ on one axis only (z), so the products' order and
    // any fused multiply-add leave the sum exact: summed in order here.
    pen_length_ = SiteDistance(obj_t_sid_, obj_b_sid_);
    tar_length_ = SiteDistance(tar_t_sid_, tar_b_sid_);
    Setup();
    // init_qpos[:-6] *= 0 (the hand fully open), init_qpos[0] = -1.5 (the
    // palm up).
    for (int i = 0; i + 6 < m()->nq; ++i) init_qpos_[i] *= 0.0;
    init_qpos_[0] = -1.5;
  }

  void Reset() override { ResetToInit(); }

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 6, Obs("hand_jnt"));
    double* obj_pos = Obs("obj_pos");
    double* des_pos = Obs("obj_des_pos");
    double* vel = Obs("obj_vel");
    double* rot = Obs("obj_rot");
    double* des_rot = Obs("obj_des_rot");
    double* err_pos = Obs("obj_err_pos");
    double* err_rot = Obs("obj_err_rot");
    const double* x = d()->site_xpos;
    for (int i = 0; i < 3; ++i) {
      obj_pos[i] = d()->xpos[3 * obj_bid_ + i];
      des_pos[i] = x[3 * eps_ball_sid_ + i];
    }
    for (int i = 0; i < 6; ++i) vel[i] = d()->qvel[nv - 6 + i] * dt_;
    for (int i = 0; i < 3; ++i) {
      rot[i] = (x[3 * obj_t_sid_ + i] - x[3 * obj_b_sid_ + i]) / pen_length_;
      des_rot[i] =
          (x[3 * tar_t_sid_ + i] - x[3 * tar_b_sid_ + i]) / tar_length_;
    }
    for (int i = 0; i < 3; ++i) {
      err_pos[i] = obj_pos[i] - des_pos[i];
      err_rot[i] = rot[i] - des_rot[i];
    }
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict.
  void RewardDict() override {
    const double pos_align = Norm(Obs("obj_err_pos"), 3, scratch_.data());
    const double rot_align = Cosine(Obs("obj_rot"), Obs("obj_des_rot"));
    const bool dropped = pos_align > 0.075;
    const double act_mag = ActMag();
    const double near = static_cast<double>(pos_align < 0.075);
    Rwd("pos_align") = -1.0 * pos_align;
    Rwd("rot_align") = rot_align;
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("drop") = -1.0 * static_cast<double>(dropped);
    Rwd("bonus") = 1.0 * static_cast<double>(rot_align > 0.9) * near +
                   5.0 * static_cast<double>(rot_align > 0.95) * near;
    Rwd("sparse") = -1.0 * pos_align + rot_align;
    Rwd("solved") = (rot_align > 0.95 && !dropped) ? 1.0 : 0.0;
    Rwd("done") = dropped ? 1.0 : 0.0;
  }

  // calculate_cosine of two 3-vectors: the einsum of their products over
  // the product of their norms (1 where that is 0).
  double Cosine(const double* a, const double* b) {
    double norm_product = Norm(a, 3, scratch_.data());
    norm_product = norm_product * Norm(b, 3, scratch_.data());
    if (norm_product == 0.0) norm_product = 1.0;
    return EinsumDot(a, b, 3) / norm_product;
  }

  struct IdSet {
    int target, object, eps_ball, obj_t, obj_b, tar_t, tar_b;
  };

  static IdSet Ids(const Api& api, const mjModel* m) {
    IdSet ids{};
    ids.target = api.name2id(m, mjOBJ_BODY, "target");
    ids.object = api.name2id(m, mjOBJ_BODY, "Object");
    if (ids.target < 0 || ids.object < 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the pen task needs the bodies 'target' and "
          "'Object'");
    }
    SiteId(api, m, "S_grasp", "mujoco_model");
    ids.eps_ball = SiteId(api, m, "eps_ball", "mujoco_model");
    ids.obj_t = SiteId(api, m, "object_top", "mujoco_model");
    ids.obj_b = SiteId(api, m, "object_bottom", "mujoco_model");
    ids.tar_t = SiteId(api, m, "target_top", "mujoco_model");
    ids.tar_b = SiteId(api, m, "target_bottom", "mujoco_model");
    if (m->nq < 6 || m->nv < 6) {
      throw std::invalid_argument(
          "option 'mujoco_model': the pen task needs the pen's six joints "
          "last");
    }
    return ids;
  }

  double SiteDistance(int a, int b) const {
    double diff[3];
    for (int i = 0; i < 3; ++i) {
      diff[i] = m()->site_pos[3 * a + i] - m()->site_pos[3 * b + i];
    }
    double s = 0.0;
    for (double v : diff) s += v * v;
    return std::sqrt(s);
  }

  int target_bid_ = -1, obj_bid_ = -1, eps_ball_sid_ = -1;
  int obj_t_sid_ = -1, obj_b_sid_ = -1, tar_t_sid_ = -1, tar_b_sid_ = -1;
  double pen_length_ = 1.0, tar_length_ = 1.0;
};

class PenTwirlRandomEnv : public PenTwirlFixedEnv {
 public:
  PenTwirlRandomEnv(const Config& config, uint64_t seed)
      : PenTwirlFixedEnv(config, seed) {}

  // PenTwirlRandomEnvV0.reset: the target's orientation (Euler angles x and
  // y drawn in [-1, 1], z = 0) through euler2quat, sync_sims of the env's
  // data onto itself (mj_forward), the reset.
  void Reset() override {
    double euler[3] = {0.0, 0.0, 0.0};
    euler[0] = rng_.Uniform(-1, 1);
    euler[1] = rng_.Uniform(-1, 1);
    Euler2Quat(np_, euler, m()->body_quat + 4 * target_bid_);
    api_.forward(m(), d());
    ResetToInit();
  }
};

}  // namespace myosuite
}  // namespace envpool_lite
