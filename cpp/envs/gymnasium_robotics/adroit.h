// Adroit: gymnasium-robotics 1.4.2's envs/adroit_hand (adroit_door.py,
// adroit_hammer.py, adroit_pen.py, adroit_relocate.py): a 24-DoF Shadow hand
// on an arm, each task a gymnasium MujocoEnv (frame_skip 5) with its own
// reset_model, _get_obs and step. The action in [-1, 1] is mapped onto the
// actuators' ctrlrange (act_mean + a * act_rng); the dense reward is the one
// 1.4.2's code computes (its warning about v1.2.1's change notwithstanding).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/gymnasium_robotics/robot_env.h"
#include "refkit/gymnasium/mujoco_env.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace gymnasium_robotics {

enum class AdroitKind { kDoor, kHammer, kPen, kRelocate };

// reward_type.lower() == "dense" / "sparse", else the reference's ValueError.
inline bool AdroitIsDense(const Config& config) {
  std::string t = config.GetString("reward_type");
  for (char& c : t) c = static_cast<char>(std::tolower(c));
  if (t != "dense" && t != "sparse") {
    throw std::invalid_argument(
        "option 'reward_type' must be 'dense' or 'sparse', got '" +
        config.GetString("reward_type") + "'");
  }
  return t == "dense";
}

template <AdroitKind K>
class AdroitEnv : public mujoco::MujocoEnv {
 public:
  static constexpr int kFrameSkip = 5;

  static const char* Model() {
    switch (K) {
      case AdroitKind::kDoor:
        return "adroit_hand/adroit_door.xml";
      case AdroitKind::kHammer:
        return "adroit_hand/adroit_hammer.xml";
      case AdroitKind::kPen:
        return "adroit_hand/adroit_pen.xml";
      case AdroitKind::kRelocate:
      default:
        return "adroit_hand/adroit_relocate.xml";
    }
  }
  // observation_space's shape, as each task declares it.
  static int64_t ObsSize() {
    switch (K) {
      case AdroitKind::kDoor:
        return 39;
      case AdroitKind::kHammer:
        return 46;
      case AdroitKind::kPen:
        return 45;
      case AdroitKind::kRelocate:
      default:
        return 39;
    }
  }

  static Config DefaultConfig() {
    Config c{{"max_episode_steps", int64_t{200}},
             {"reward_type", std::string("dense")}};
    AddInternalOptions(&c);
    c.Set("mujoco_model", std::string(Model()));
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    AdroitIsDense(config);
    const mujoco::ModelSizes s = mujoco::ReadModelSizes(config);
    EnvSpec spec;
    spec.obs = MakeBox<double>("obs", {ObsSize()}, {}, {});
    // spaces.Box(low=-1.0, high=1.0, dtype=np.float32, shape=(nu,))
    spec.action = MakeBox<float>("action", {s.nu}, {-1.0}, {1.0});
    // info["success"]: np.bool_ (door, hammer, pen) or bool (relocate).
    spec.info = {MakeScalar<bool>("success")};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  AdroitEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed, kFrameSkip),
        np_(config.GetNamedNumbers("numpy_loops")),
        dense_(AdroitIsDense(config)) {
    mjModel* m = model_.get();
    // __init__: the wrist's and fingers' position gains and biases.
    auto set_gains = [&](const char* first, const char* last, double gain) {
      for (int i = Id(mjOBJ_ACTUATOR, first); i <= Id(mjOBJ_ACTUATOR, last);
           ++i) {
        double* g = m->actuator_gainprm + mjNGAIN * i;
        double* b = m->actuator_biasprm + mjNBIAS * i;
        g[0] = gain, g[1] = 0.0, g[2] = 0.0;
        b[0] = 0.0, b[1] = -gain, b[2] = 0.0;
      }
    };
    set_gains("A_WRJ1", "A_WRJ0", 10.0);
    set_gains("A_FFJ3", "A_THJ0", 1.0);
    // act_mean = np.mean(ctrlrange, axis=1); act_rng = 0.5 * (hi - lo)
    for (int i = 0; i < m->nu; ++i) {
      const double lo = m->actuator_ctrlrange[2 * i];
      const double hi = m->actuator_ctrlrange[2 * i + 1];
      act_mean_.push_back((lo + hi) / 2.0);
      act_rng_.push_back(0.5 * (hi - lo));
    }
    grasp_site_ = Id(mjOBJ_SITE, "S_grasp");
    switch (K) {
      case AdroitKind::kDoor:
        door_hinge_addr_ = m->jnt_dofadr[Id(mjOBJ_JOINT, "door_hinge")];
        handle_site_ = Id(mjOBJ_SITE, "S_handle");
        door_body_ = Id(mjOBJ_BODY, "frame");
        break;
      case AdroitKind::kHammer:
        target_site_ = Id(mjOBJ_SITE, "S_target");
        obj_body_ = Id(mjOBJ_BODY, "Object");
        tool_site_ = Id(mjOBJ_SITE, "tool");
        goal_site_ = Id(mjOBJ_SITE, "nail_goal");
        target_body_ = Id(mjOBJ_BODY, "nail_board");
        nail_sensor_ = Id(mjOBJ_SENSOR, "S_nail");
        break;
      case AdroitKind::kPen:
        target_body_ = Id(mjOBJ_BODY, "target");
        obj_body_ = Id(mjOBJ_BODY, "Object");
        eps_ball_site_ = Id(mjOBJ_SITE, "eps_ball");
        obj_t_site_ = Id(mjOBJ_SITE, "object_top");
        obj_b_site_ = Id(mjOBJ_SITE, "object_bottom");
        tar_t_site_ = Id(mjOBJ_SITE, "target_top");
        tar_b_site_ = Id(mjOBJ_SITE, "target_bottom");
        break;
      case AdroitKind::kRelocate:
        target_site_ = Id(mjOBJ_SITE, "target");
        obj_body_ = Id(mjOBJ_BODY, "Object");
        break;
    }
    ctrl_.resize(m->nu);
  }

  void Reset() override {
    // MujocoEnv.reset: mj_resetData, then reset_model.
    ResetData();
    ResetModel();
    success_ = false;  // reset's info is {}: the field reads False
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    // a = np.clip(a, -1.0, 1.0) (float32); act_mean + a * act_rng (float64)
    for (int i = 0; i < model_->nu; ++i) {
      const float c = std::min(std::max(a[i], -1.0f), 1.0f);
      ctrl_[i] = act_mean_[i] + static_cast<double>(c) * act_rng_[i];
    }
    // do_simulation(a, frame_skip): ctrl, mj_step x frame_skip,
    // mj_rnePostConstraint.
    std::copy(ctrl_.begin(), ctrl_.end(), data_->ctrl);
    for (int i = 0; i < frame_skip_; ++i) api_.step(model_.get(), data_.get());
    api_.rne_post_constraint(model_.get(), data_.get());
    StepResult r;
    switch (K) {
      case AdroitKind::kDoor:
        r.reward = DoorReward();
        break;
      case AdroitKind::kHammer:
        r.reward = HammerReward();
        break;
      case AdroitKind::kPen:
        r.reward = PenReward();
        break;
      case AdroitKind::kRelocate:
        r.reward = RelocateReward();
        break;
    }
    return r;
  }

  void WriteObs(const Row& row) override {
    WriteObservation(row.Obs<double>());
    *row.Info<bool>(0) = success_;
  }

  // The episode's pen lengths (Pen) and the last step's success; the
  // base saves the model, whose targets a reset moves.
  ENVPOOL_LITE_STATE_AFTER(mujoco::MujocoEnv, pen_length_, tar_length_,
                           success_)

 protected:
  void WriteObservation(double* obs) const override {
    const double* qpos = data_->qpos;
    const double* qvel = data_->qvel;
    const int nq = model_->nq, nv = model_->nv;
    int k = 0;
    auto add = [&](const double* p, int n) {
      for (int i = 0; i < n; ++i) obs[k++] = p[i];
    };
    auto add_diff = [&](const double* p, const double* q) {
      for (int i = 0; i < 3; ++i) obs[k++] = p[i] - q[i];
    };
    switch (K) {
      case AdroitKind::kDoor: {
        // qpos[1:-2], [latch_pos], door_pos, palm_pos, handle_pos,
        // palm_pos - handle_pos, [door_open]
        const double door_pos = qpos[door_hinge_addr_];
        const double* handle = Site(handle_site_);
        const double* palm = Site(grasp_site_);
        add(qpos + 1, nq - 3);
        obs[k++] = qpos[nq - 1];
        obs[k++] = door_pos;
        add(palm, 3);
        add(handle, 3);
        add_diff(palm, handle);
        obs[k++] = door_pos > 1.0 ? 1.0 : -1.0;
        break;
      }
      case AdroitKind::kHammer: {
        // qp[:-6], clip(qv, -1, 1)[-6:], palm_pos, obj_pos, obj_rot,
        // target_pos, [clip(sensordata[S_nail's id], -1, 1)]
        add(qpos, nq - 6);
        for (int i = nv - 6; i < nv; ++i) {
          obs[k++] = mujoco::Clip(qvel[i], -1.0, 1.0);
        }
        add(Site(grasp_site_), 3);
        add(data_->xpos + 3 * obj_body_, 3);
        Quat2Euler(np_, data_->xquat + 4 * obj_body_, obs + k);
        k += 3;
        add(Site(target_site_), 3);
        obs[k++] = mujoco::Clip(data_->sensordata[nail_sensor_], -1.0, 1.0);
        break;
      }
      case AdroitKind::kPen: {
        // qpos[:-6], obj_pos, obj_vel, obj_orien, desired_orien,
        // obj_pos - desired_pos, obj_orien - desired_orien
        double obj_orien[3], desired_orien[3];
        Orientations(obj_orien, desired_orien);
        const double* obj_pos = data_->xpos + 3 * obj_body_;
        add(qpos, nq - 6);
        add(obj_pos, 3);
        add(qvel + nv - 6, 6);
        add(obj_orien, 3);
        add(desired_orien, 3);
        add_diff(obj_pos, Site(eps_ball_site_));
        add_diff(obj_orien, desired_orien);
        break;
      }
      case AdroitKind::kRelocate: {
        // qpos[:-6], palm_pos - obj_pos, palm_pos - target_pos,
        // obj_pos - target_pos
        const double* obj_pos = data_->xpos + 3 * obj_body_;
        const double* palm = Site(grasp_site_);
        const double* target = Site(target_site_);
        add(qpos, nq - 6);
        add_diff(palm, obj_pos);
        add_diff(palm, target);
        add_diff(obj_pos, target);
        break;
      }
    }
  }

 private:
  int Id(mjtObj type, const char* name) const {
    const int id = api_.name2id(model_.get(), type, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("Adroit: the model has no '") +
                                  name + "'");
    }
    return id;
  }
  const double* Site(int id) const { return data_->site_xpos + 3 * id; }

  // np.linalg.norm(p - q) of 3-vectors: sqrt of the BLAS ddot.
  double NormDiff(const double* p, const double* q) const {
    const double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return Norm(d, 3);
  }

  // reset_model, then set_state(init_qpos, init_qvel) (mj_forward).
  void ResetModel() {
    mjModel* m = model_.get();
    switch (K) {
      case AdroitKind::kDoor: {
        double* pos = m->body_pos + 3 * door_body_;
        pos[0] = rng_.Uniform(-0.3, -0.2);
        pos[1] = rng_.Uniform(0.25, 0.35);
        pos[2] = rng_.Uniform(0.252, 0.35);
        SetState(init_qpos_, init_qvel_);
        break;
      }
      case AdroitKind::kHammer:
        m->body_pos[3 * target_body_ + 2] = rng_.Uniform(0.1, 0.25);
        SetState(init_qpos_, init_qvel_);
        break;
      case AdroitKind::kPen: {
        double euler[3] = {0.0, 0.0, 0.0};
        euler[0] = rng_.Uniform(-1.0, 1.0);
        euler[1] = rng_.Uniform(-1.0, 1.0);
        Euler2Quat(np_, euler, m->body_quat + 4 * target_body_);
        SetState(init_qpos_, init_qvel_);
        pen_length_ = NormDiff(Site(obj_t_site_), Site(obj_b_site_));
        tar_length_ = NormDiff(Site(tar_t_site_), Site(tar_b_site_));
        break;
      }
      case AdroitKind::kRelocate: {
        double* pos = m->body_pos + 3 * obj_body_;
        pos[0] = rng_.Uniform(-0.15, 0.15);
        pos[1] = rng_.Uniform(-0.15, 0.3);
        double* site = m->site_pos + 3 * target_site_;
        site[0] = rng_.Uniform(-0.2, 0.2);
        site[1] = rng_.Uniform(-0.2, 0.2);
        site[2] = rng_.Uniform(0.15, 0.35);
        SetState(init_qpos_, init_qvel_);
        break;
      }
    }
  }

  // adroit_door.py's step.
  double DoorReward() {
    const double goal_distance = data_->qpos[door_hinge_addr_];
    success_ = goal_distance >= 1.35;
    if (!dense_) return success_ ? 10.0 : -0.1;
    double reward = 0.1 * NormDiff(Site(grasp_site_), Site(handle_site_));
    reward += -0.1 * (goal_distance - 1.57) * (goal_distance - 1.57);
    reward += -1e-5 * mujoco::SumOfSquares(data_->qvel, model_->nv);
    if (goal_distance > 0.2) reward += 2;
    if (goal_distance > 1.0) reward += 8;
    if (goal_distance > 1.35) reward += 10;
    return reward;
  }

  // adroit_hammer.py's step.
  double HammerReward() {
    const double* hamm_pos = data_->xpos + 3 * obj_body_;
    const double* palm_pos = Site(grasp_site_);
    const double* head_pos = Site(tool_site_);
    const double* nail_pos = Site(target_site_);
    const double* goal_pos = Site(goal_site_);
    const double goal_distance = NormDiff(nail_pos, goal_pos);
    success_ = goal_distance < 0.01;
    if (!dense_) return success_ ? 10.0 : -0.1;
    double reward = 0.1 * NormDiff(palm_pos, hamm_pos);
    reward -= NormDiff(head_pos, nail_pos);
    reward -= 10 * NormDiff(nail_pos, goal_pos);
    reward -= 1e-2 * Norm(data_->qvel, model_->nv);
    if (hamm_pos[2] > 0.04 && head_pos[2] > 0.04) reward += 2;
    if (goal_distance < 0.020) reward += 25;
    if (goal_distance < 0.010) reward += 75;
    return reward;
  }

  // adroit_pen.py's step.
  double PenReward() {
    const double* obj_pos = data_->xpos + 3 * obj_body_;
    double obj_orien[3], desired_orien[3];
    Orientations(obj_orien, desired_orien);
    const double goal_distance = NormDiff(obj_pos, Site(eps_ball_site_));
    // np.dot(obj_orien, desired_orien): the BLAS ddot
    const double orien_similarity = blas_.Dot(obj_orien, desired_orien, 3);
    success_ = goal_distance < 0.075 && orien_similarity > 0.95;
    if (!dense_) return success_ ? 10.0 : -0.1;
    double reward = -goal_distance + orien_similarity;
    if (goal_distance < 0.075 && orien_similarity > 0.9) reward += 10;
    if (goal_distance < 0.075 && orien_similarity > 0.95) reward += 50;
    if (obj_pos[2] < 0.075) reward -= 5;
    return reward;
  }

  // adroit_relocate.py's step.
  double RelocateReward() {
    const double* obj_pos = data_->xpos + 3 * obj_body_;
    const double* palm_pos = Site(grasp_site_);
    const double* target_pos = Site(target_site_);
    const double goal_distance = NormDiff(obj_pos, target_pos);
    success_ = goal_distance < 0.1;
    if (!dense_) return success_ ? 10.0 : -0.1;
    double reward = 0.1 * NormDiff(palm_pos, obj_pos);
    if (obj_pos[2] > 0.04) {
      reward += 1.0;
      reward += -0.5 * NormDiff(palm_pos, target_pos);
      reward += -0.5 * NormDiff(obj_pos, target_pos);
    }
    if (goal_distance < 0.1) reward += 10.0;
    if (goal_distance < 0.05) reward += 20.0;
    return reward;
  }

  // Pen: (top - bottom) / length of the pen and of the target.
  void Orientations(double* obj_orien, double* desired_orien) const {
    const double* ot = Site(obj_t_site_);
    const double* ob = Site(obj_b_site_);
    const double* tt = Site(tar_t_site_);
    const double* tb = Site(tar_b_site_);
    for (int i = 0; i < 3; ++i) {
      obj_orien[i] = (ot[i] - ob[i]) / pen_length_;
      desired_orien[i] = (tt[i] - tb[i]) / tar_length_;
    }
  }

  NumpyMath np_;
  bool dense_;
  std::vector<double> act_mean_, act_rng_, ctrl_;
  int grasp_site_ = -1, handle_site_ = -1, target_site_ = -1, tool_site_ = -1;
  int goal_site_ = -1, eps_ball_site_ = -1, obj_t_site_ = -1, obj_b_site_ = -1;
  int tar_t_site_ = -1, tar_b_site_ = -1;
  int door_body_ = -1, obj_body_ = -1, target_body_ = -1, nail_sensor_ = -1;
  int door_hinge_addr_ = 0;
  double pen_length_ = 1.0, tar_length_ = 1.0;
  bool success_ = false;
};

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
