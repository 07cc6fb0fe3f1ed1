// stick-push-v3 and stick-pull-v3: metaworld 3.1.1's
// envs/sawyer_stick_push_v3.py and sawyer_stick_pull_v3.py
// (SawyerStick{Push,Pull}EnvV3): grasp a stick (free joint, qpos[9:16]) and
// push a thermos (two slide joints, qpos[16:18]) to a goal, or hook its
// handle and pull it. Observation: the stick and the thermos' insertion site
// (plus 0.09 in y when pushing), its quaternion zeros.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_lite {
namespace metaworld {

template <bool kPull>
class StickEnv : public SawyerEnv {
 public:
  static TaskSpec Task() {
    TaskSpec t;
    t.model = "sawyer_xyz/sawyer_stick_obj.xml";
    t.hand_high = {0.5, 1, 0.5};
    if (kPull) {
      t.hand_low = {-0.5, 0.35, 0.05};
      t.reset_low = {-0.1, 0.55, 0.000, 0.35, 0.45, 0.0199};
      t.reset_high = {0.0, 0.65, 0.001, 0.45, 0.55, 0.0201};
      t.goal_low = {0.35, 0.45, 0.0199};
      t.goal_high = {0.45, 0.55, 0.0201};
    } else {
      t.hand_low = {-0.5, 0.40, 0.05};
      t.reset_low = {-0.08, 0.58, 0.000, 0.399, 0.55, 0.1319};
      t.reset_high = {-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321};
      t.goal_low = {0.399, 0.55, 0.1319};
      t.goal_high = {0.401, 0.6, 0.1321};
    }
    t.apart = 0.1;
    return t;
  }
  static Config DefaultConfig() { return BaseConfig(Task().model); }
  static EnvSpec MakeSpec(const Config& config) {
    return BaseSpec(config, Task());
  }

  StickEnv(const Config& config, uint64_t seed)
      : SawyerEnv(config, seed, Task()),
        stick_(Id(mjOBJ_BODY, "stick")),
        object_(Id(mjOBJ_BODY, "object")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        insertion_(Id(mjOBJ_SITE, "insertion")),
        stick_end_(Id(mjOBJ_SITE, "stick_end")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {
    hand_init_pos_ = {0.0, 0.6, 0.2};
    Init(seed);
  }

 protected:
  void ResetModel() override {
    ResetHand();
    const std::vector<double>& v = StateRandVec();
    if (XyDistance(v) < 0.1) {
      throw std::runtime_error("stick-v3: a task's stick is too near its goal");
    }
    stick_init_pos_ = {v[0], v[1], 0.02};
    if (kPull) {
      target_pos_ = {v[3], v[4], 0.02};
    } else {
      target_pos_ = {v[3], v[4], SitePos(insertion_)[2]};
    }
    // _set_stick_xyz: qpos[9:12], qvel[9:15] = 0.
    SetObjXyz(stick_init_pos_);
    // _set_obj_xyz: qpos[16:18] = obj_init_qpos, qvel[16:18] = 0 (the
    // model has 17 dofs: qvel[16] only).
    std::vector<double> qpos(d()->qpos, d()->qpos + m()->nq);
    std::vector<double> qvel(d()->qvel, d()->qvel + m()->nv);
    qpos[16] = 0.0;
    qpos[17] = kPull ? 0.09 : 0.0;
    for (int i = 16; i < std::min(18, m()->nv); ++i) qvel[i] = 0;
    SetState(qpos, qvel);
    obj_init_pos_ = BodyCom(object_);
    std::copy(target_pos_.begin(), target_pos_.end(),
              m()->site_pos + 3 * goal_site_);
    stick_height_ = BodyCom(stick_)[2];
    height_target_ = stick_height_ + 0.04;
    const double place[3] = {obj_init_pos_[0] - stick_init_pos_[0],
                             obj_init_pos_[1] - stick_init_pos_[1],
                             height_target_ - stick_init_pos_[2]};
    max_place_dist_ = Norm(place, 3) + height_target_;
    const double push[2] = {obj_init_pos_[0] - target_pos_[0],
                            obj_init_pos_[1] - target_pos_[1]};
    max_push_dist_ = Norm(push, 2);  // maxPushDist / maxPullDist
  }

  void ObjectsPosQuat(std::vector<double>* out) override {
    const Vec3 stick = BodyCom(stick_);
    out->insert(out->end(), stick.begin(), stick.end());
    const std::array<double, 4> q = MatrixToQuat(d()->xmat + 9 * stick_);
    out->insert(out->end(), q.begin(), q.end());
    const Vec3 ins = SitePos(insertion_);
    if (kPull) {
      out->insert(out->end(), ins.begin(), ins.end());
    } else {
      out->push_back(ins[0] + 0.0);
      out->push_back(ins[1] + 0.09);
      out->push_back(ins[2] + 0.0);
    }
    out->insert(out->end(), 4, 0.0);
  }

  double EvaluateState(const double* obs, const float* action,
                       Info* info) override {
    return kPull ? EvaluatePull(obs, action, info)
                 : EvaluatePush(obs, action, info);
  }

 private:
  double EvaluatePush(const double* obs, const float* action, Info* info) {
    const Vec3 stick_obs = {obs[4], obs[5], obs[6]};
    const Vec3 container = {obs[11], obs[12], obs[13]};
    PyFloat reward, object_grasped;
    double tcp_to_obj, tcp_open, container_to_target, stick_in_place;
    if (v2_) {
      constexpr double kTargetRadius = 0.12;
      const Vec3 tcp = TcpCenter();
      const Vec3 stick = {obs[4] + 0.015, obs[5] + 0.0, obs[6] + 0.0};
      const double tcp_opened = obs[3];
      const double tcp_to_stick = Norm3(stick, tcp);
      const double stick_to_target = Norm3(stick, target_pos_);
      const double stick_margin =
          Norm3(stick_init_pos_, target_pos_) - kTargetRadius;
      stick_in_place = Tolerance(np_, stick_to_target, 0, kTargetRadius,
                                 stick_margin, Sigmoid::kLongTail);
      container_to_target = Norm3(container, target_pos_);
      const double container_margin =
          Norm3(obj_init_pos_, target_pos_) - kTargetRadius;
      const double container_in_place =
          Tolerance(np_, container_to_target, 0, kTargetRadius,
                    container_margin, Sigmoid::kLongTail);
      // The override reads stick_init_pos where the base reads obj_init_pos.
      const Vec3 saved = obj_init_pos_;
      obj_init_pos_ = stick_init_pos_;
      object_grasped = GripperCagingRewardPy(action, stick, 0.04, 0.05, 0.01,
                                             0.01, 1.0, true);
      obj_init_pos_ = saved;
      reward = object_grasped;
      if (tcp_to_stick < 0.02 && tcp_opened > 0 &&
          stick[2] - 0.01 > stick_init_pos_[2]) {
        object_grasped = PyFloat(1.0);
        reward = PyFloat(2.0 + 5.0 * stick_in_place + 3.0 * container_in_place);
        if (container_to_target <= kTargetRadius) reward = PyFloat(10.0);
      }
      tcp_to_obj = tcp_to_stick;
      tcp_open = tcp_opened;
    } else {
      const Vec3 stick_pos = stick_obs;
      const Vec3 obj_pos = {obs[6], obs[7], obs[8]};  // obs[6:9]
      const Vec3 finger = TcpCenter();
      const double push[2] = {obj_pos[0] - target_pos_[0],
                              obj_pos[1] - target_pos_[1]};
      const double push_dist = Norm(push, 2);
      const double place_dist = Norm3(obj_pos, stick_pos);
      const double reach_dist = Norm3(stick_pos, finger);
      const double r = V1Reward(action, stick_pos, push_dist, place_dist,
                                reach_dist, 0.001, 0.0001);
      reward = PyFloat(r);
      object_grasped = PyFloat(0.0);
      tcp_to_obj = 0.0;
      tcp_open = 0.0;
      container_to_target = push_dist;
      stick_in_place = 0.0;
    }
    const double diff[3] = {container[0] - target_pos_[0],
                            container[1] - target_pos_[1],
                            container[2] - target_pos_[2]};
    const double success = Norm(diff, 3) <= 0.12 ? 1.0 : 0.0;
    const double grasp_success =
        TouchingObject(obj_geom_) && tcp_open > 0 &&
                stick_obs[2] - 0.01 > stick_init_pos_[2]
            ? 1.0
            : 0.0;
    info->success = grasp_success != 0.0 ? success : grasp_success;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = stick_in_place;
    info->obj_to_target = container_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

  double EvaluatePull(const double* obs, const float* action, Info* info) {
    const Vec3 stick = {obs[4], obs[5], obs[6]};
    const Vec3 handle = {obs[11], obs[12], obs[13]};
    const Vec3 end_of_stick = SitePos(stick_end_);
    PyFloat reward, object_grasped;
    double tcp_to_obj, tcp_open, handle_to_target, stick_in_place;
    if (v2_) {
      constexpr double kTargetRadius = 0.05;
      const Vec3 tcp = TcpCenter();
      const Vec3 container = {obs[11] + 0.05, obs[12] + 0.0, obs[13] + 0.0};
      const Vec3 container_init = {obj_init_pos_[0] + 0.05,
                                   obj_init_pos_[1] + 0.0,
                                   obj_init_pos_[2] + 0.0};
      const double tcp_opened = obs[3];
      const double tcp_to_stick = Norm3(stick, tcp);
      handle_to_target = Norm3(handle, target_pos_);
      // np.linalg.norm((a - b) * [1.0, 1.0, 2.0])
      const double sc[3] = {(stick[0] - container[0]) * 1.0,
                            (stick[1] - container[1]) * 1.0,
                            (stick[2] - container[2]) * 2.0};
      const double stick_to_container = Norm(sc, 3);
      const double sci[3] = {(stick_init_pos_[0] - container_init[0]) * 1.0,
                             (stick_init_pos_[1] - container_init[1]) * 1.0,
                             (stick_init_pos_[2] - container_init[2]) * 2.0};
      const double stick_margin = Norm(sci, 3);
      stick_in_place = Tolerance(np_, stick_to_container, 0, kTargetRadius,
                                 stick_margin, Sigmoid::kLongTail);
      const double stick_to_target = Norm3(stick, target_pos_);
      const double stick_margin_2 = Norm3(stick_init_pos_, target_pos_);
      const double stick_in_place_2 =
          Tolerance(np_, stick_to_target, 0, kTargetRadius, stick_margin_2,
                    Sigmoid::kLongTail);
      const double container_to_target = Norm3(container, target_pos_);
      const double container_margin = Norm3(obj_init_pos_, target_pos_);
      const double container_in_place =
          Tolerance(np_, container_to_target, 0, kTargetRadius,
                    container_margin, Sigmoid::kLongTail);
      object_grasped = GripperCagingRewardPy(action, stick, 0.014, 0.05, 0.01,
                                             0.01, 1.0, true);
      const bool grasp_success = tcp_to_stick < 0.02 && tcp_opened > 0 &&
                                 stick[2] - 0.01 > stick_init_pos_[2];
      if (grasp_success) object_grasped = PyFloat(1.0);
      const PyFloat in_place_and_grasped =
          HamacherProduct(object_grasped, PyFloat(stick_in_place));
      reward = in_place_and_grasped;
      if (grasp_success) {
        reward =
            PyFloat(1.0) + in_place_and_grasped + PyFloat(5.0 * stick_in_place);
        if (StickIsInserted(handle, end_of_stick)) {
          reward = PyFloat(1.0) + in_place_and_grasped + PyFloat(5.0) +
                   PyFloat(2.0 * stick_in_place_2) +
                   PyFloat(1.0 * container_in_place);
          if (handle_to_target <= 0.12) reward = PyFloat(10.0);
        }
      }
      tcp_to_obj = tcp_to_stick;
      tcp_open = tcp_opened;
    } else {
      const Vec3 stick_pos = stick;
      const Vec3 obj_pos = {obs[6], obs[7], obs[8]};  // obs[6:9]
      const Vec3 finger = TcpCenter();
      const double pull[2] = {obj_pos[0] - target_pos_[0],
                              obj_pos[1] - target_pos_[1]};
      const double pull_dist = Norm(pull, 2);
      const double place_dist = Norm3(stick_pos, obj_pos);
      const double reach_dist = Norm3(stick_pos, finger);
      const double r = V1Reward(action, stick_pos, pull_dist, place_dist,
                                reach_dist, 0.01, 0.001);
      reward = PyFloat(r);
      object_grasped = PyFloat(0.0);
      tcp_to_obj = 0.0;
      tcp_open = 0.0;
      handle_to_target = pull_dist;
      stick_in_place = 0.0;
    }
    const double diff[3] = {handle[0] - target_pos_[0],
                            handle[1] - target_pos_[1],
                            handle[2] - target_pos_[2]};
    info->success =
        Norm(diff, 3) <= 0.12 && StickIsInserted(handle, end_of_stick) ? 1.0
                                                                       : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = TouchingObject(obj_geom_) && tcp_open > 0 &&
                                  stick[2] - 0.02 > obj_init_pos_[2]
                              ? 1.0
                              : 0.0;
    info->grasp_reward = object_grasped.v;
    info->in_place_reward = stick_in_place;
    info->obj_to_target = handle_to_target;
    info->unscaled_reward = reward.v;
    return reward.v;
  }

  // v1's reward (both tasks): reach, pick, then place and push/pull (c5, c6:
  // the exp divisors of the push/pull term).
  double V1Reward(const float* action, const Vec3& stick_pos, double dist,
                  double place_dist, double reach_dist, double c5,
                  double c6) const {
    double reach_rew = -reach_dist;
    if (reach_dist < 0.05) {
      // max(action[-1], 0) / 50: a float32 (or 0).
      const float a = action[3];
      const float grip = 0 > a ? 0.0f : a / 50.0f;
      reach_rew = -reach_dist + static_cast<double>(grip);
    }
    const double tolerance = 0.01;
    const bool pick_completed = stick_pos[2] >= (height_target_ - tolerance);
    const bool obj_dropped = (stick_pos[2] < (stick_height_ + 0.005)) &&
                             (dist > 0.02) && (reach_dist > 0.02);
    const double h_scale = 100;
    double pick_rew = 0;
    if (pick_completed && !obj_dropped) {
      pick_rew = h_scale * height_target_;
    } else if (reach_dist < 0.1 && stick_pos[2] > (stick_height_ + 0.005)) {
      pick_rew = h_scale * std::min(height_target_, stick_pos[2]);
    }
    double push_rew = 0;
    if (pick_completed && reach_dist < 0.1 && !obj_dropped) {
      const double p2 = ScalarSquare(place_dist);
      push_rew = 1000 * (max_place_dist_ - place_dist) +
                 1000 * (np_.Exp(-p2 / 0.01) + np_.Exp(-p2 / 0.001));
      if (place_dist < 0.05) {
        const double d2 = ScalarSquare(dist);
        push_rew += 1000 * (max_push_dist_ - dist) +
                    2000 * (np_.Exp(-d2 / c5) + np_.Exp(-d2 / c6));
      }
      push_rew = std::max(push_rew, 0.0);
    }
    return reach_rew + pick_rew + push_rew;
  }

  static bool StickIsInserted(const Vec3& handle, const Vec3& end_of_stick) {
    return end_of_stick[0] >= handle[0] &&
           std::abs(end_of_stick[1] - handle[1]) <= 0.040 &&
           std::abs(end_of_stick[2] - handle[2]) <= 0.060;
  }

  // np.linalg.norm(goal_pos[:2] - goal_pos[-3:-1])
  double XyDistance(const std::vector<double>& v) const {
    const double diff[2] = {v[0] - v[3], v[1] - v[4]};
    return Norm(diff, 2);
  }

  // get_state / set_state: what reset_model sets, after the base's.
  ENVPOOL_LITE_STATE_AFTER(SawyerEnv, stick_init_pos_, stick_height_,
                           height_target_, max_place_dist_, max_push_dist_)

  int stick_, object_, obj_geom_, insertion_, stick_end_, goal_site_;
  Vec3 stick_init_pos_{};
  double stick_height_ = 0, height_target_ = 0, max_place_dist_ = 0,
         max_push_dist_ = 0;
};

using StickPushEnv = StickEnv<false>;
using StickPullEnv = StickEnv<true>;

}  // namespace metaworld
}  // namespace envpool_lite
