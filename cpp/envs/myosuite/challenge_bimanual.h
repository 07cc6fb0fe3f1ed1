// MyoChallenge 2024's bimanual pass (envs/myo/myochallenge/bimanual_v0.py,
// BimanualEnvV1): the MyoArm picks a box off the start pillar and passes
// it to the MPL prosthetic arm, which puts it on the goal pillar.
//
// What myosuite 2.12.2 does, and so what this does:
//  - Setup: the start and goal pillars (mocap bodies) to their centers; with
//    obj_scale_change, the box's mesh rotated by its geom's orientation and
//    centred on the collision box (scipy's Rotation.apply, a BLAS matrix
//    product: numpy's, refkit/numpy/blas.h), which only the pictures show.
//  - A step: the robotic (non-muscle) actuators' commands mapped from
//    [-1, 1] to their control range in float32, as myosuite writes them
//    into the float32 action's copy, when normalize_act; then BaseV0.step.
//  - A reset: the pillars' positions drawn (center + shift * U(-1, 1)), the
//    box's mass, friction and (from the second reset on) size; mj_forward of
//    the env's data; the arm at keyframe 2. myosuite then writes the box's
//    start position into the env's (observed) data only, which the next
//    step's copy of the robot's state overwrites: the box starts where
//    keyframe 2 puts it, and so it does here.
//  - The obs dict reads the env's data: the touch sensor's largest value
//    so far (never reset), which kinds of bodies touch the box (the arm's
//    body-id range first, then the prosthesis', the pillars, the rest).
//  - The reward dict counts the steps with the goal pillar touching the box
//    (goal_touch, reset at each reset); "done" is the episode past 10 s, the
//    box below 0.3 m (which also sets the info's time to 10.0, as myosuite
//    overwrites obs_dict["time"]), or the last step's rwd_dict solved.
//    myosuite's reset computes no rewards: the last step's rwd_dict, the
//    count and the solved flag carry over a reset, so they do here.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"
#include "refkit/numpy/blas.h"

namespace envpool_lite {
namespace myosuite {

class ChallengeBimanualEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys",
          StringList{"time", "myohand_qpos", "myohand_qvel", "pros_hand_qpos",
                     "pros_hand_qvel", "object_qpos", "object_qvel",
                     "touching_body"});
    c.Set("weighted_reward_keys", NamedNumbers{{"reach_dist", {-0.1}},
                                               {"act", {0.0}},
                                               {"fin_dis", {-0.5}},
                                               {"pass_err", {-1.0}}});
    c.Set("start_center", NumberList{-0.4, -0.25, 1.05});
    c.Set("goal_center", NumberList{0.4, -0.25, 1.05});
    c.Set("start_shifts", NumberList{0.055, 0.055, 0.0});
    c.Set("goal_shifts", NumberList{0.098, 0.098, 0.0});
    c.Set("proximity_th", 0.17);
    // Empty: myosuite's None (no change).
    c.Set("obj_scale_change", NumberList{});
    c.Set("obj_mass_change", NumberList{});
    c.Set("obj_friction_change", NumberList{});
    // Taken, and not used, by myosuite's BimanualEnvV1._setup.
    c.Set("max_force", 1500.0);
    c.Set("task_choice", std::string("fixed"));
    c.Set("start_pos", NumberList{-0.4, -0.25});
    c.Set("goal_pos", NumberList{0.4, -0.25});
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    const Joints j = FindJoints(m);
    Layout l;
    l.obs = {{"qp", m->nq},
             {"qv", m->nv},
             {"myohand_qpos", static_cast<int64_t>(j.myo_qpos.size())},
             {"myohand_qvel", static_cast<int64_t>(j.myo_dof.size())},
             {"pros_hand_qpos", static_cast<int64_t>(j.prosth_qpos.size())},
             {"pros_hand_qvel", static_cast<int64_t>(j.prosth_dof.size())},
             {"object_qpos", 7},
             {"object_qvel", 6},
             {"start_pos", 3},
             {"goal_pos", 3},
             {"elbow_fle", 1},
             {"max_force", 1},
             {"touching_body", 5},
             {"palm_pos", 3},
             {"fin0", 3},
             {"fin1", 3},
             {"fin2", 3},
             {"fin3", 3},
             {"fin4", 3},
             {"Rpalm_pos", 3},
             {"MPL_ori", 3},
             {"MPL_ori_err", 3},
             {"obj_pos", 3},
             {"reach_err", 3},
             {"pass_err", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"reach_dist"},      {"act"},           {"fin_open"},
             {"fin_dis"},         {"lift_bonus"},    {"lift_height"},
             {"pass_err"},        {"sparse"},        {"goal_dist"},
             {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Check(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ChallengeBimanualEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))) {
    ids_ = Check(config, api_, m());
    joints_ = FindJoints(m());
    map_robotic_controls_ = true;  // Bimanual.step
    const NumberList& start_center = config.GetNumberList("start_center");
    const NumberList& goal_center = config.GetNumberList("goal_center");
    const NumberList& start_shifts = config.GetNumberList("start_shifts");
    const NumberList& goal_shifts = config.GetNumberList("goal_shifts");
    for (int i = 0; i < 3; ++i) {
      start_center_[i] = start_center[i];
      goal_center_[i] = goal_center[i];
      start_shifts_[i] = start_shifts[i];
      goal_shifts_[i] = goal_shifts[i];
    }
    proximity_th_ = config.GetFloat("proximity_th", -kInf, kInf);
    // _setup: the start heights of the box and the palm (the env's data).
    init_obj_z_ = d()->site_xpos[3 * ids_.obj_site + 2];
    init_palm_z_ = d()->site_xpos[3 * ids_.palm_site + 2];
    start_pos_ = start_center_;
    goal_pos_ = goal_center_;
    std::copy(start_pos_.begin(), start_pos_.end(),
              m()->body_pos + 3 * ids_.start_body);
    std::copy(goal_pos_.begin(), goal_pos_.end(),
              m()->body_pos + 3 * ids_.goal_body);
    // The randomisation's ranges, about the model's own values.
    const NumberList& mass = config.GetNumberList("obj_mass_change");
    if (!mass.empty()) {
      const double m0 = m()->body_mass[ids_.obj_body];
      mass_low_ = m0 + mass[0];
      mass_high_ = m0 + mass[1];
      has_mass_ = true;
    }
    const NumberList& friction = config.GetNumberList("obj_friction_change");
    if (!friction.empty()) {
      for (int i = 0; i < 3; ++i) {
        const double f0 = m()->geom_friction[3 * ids_.obj_geom + i];
        friction_low_[i] = f0 - friction[i];
        friction_high_[i] = f0 + friction[i];
      }
      has_friction_ = true;
    }
    const NumberList& scale = config.GetNumberList("obj_scale_change");
    if (!scale.empty()) {
      for (int i = 0; i < 3; ++i) scale_change_[i] = scale[i];
      has_scale_ = true;
      CenterBoxMesh();
    }
    Setup();
    last_solved_ = solved_;  // self.rwd_dict: the construction step's
    // init_qpos[:] = key_qpos[2].
    std::copy(m()->key_qpos + 2 * m()->nq, m()->key_qpos + 3 * m()->nq,
              init_qpos_.begin());
  }

  // BimanualEnvV1.reset.
  void Reset() override {
    double r[3];
    for (double& x : r) x = rng_.NextDouble();
    for (int i = 0; i < 3; ++i) {
      start_pos_[i] = start_center_[i] + start_shifts_[i] * (2.0 * r[i] - 1.0);
    }
    for (double& x : r) x = rng_.NextDouble();
    for (int i = 0; i < 3; ++i) {
      goal_pos_[i] = goal_center_[i] + goal_shifts_[i] * (2.0 * r[i] - 1.0);
    }
    std::copy(start_pos_.begin(), start_pos_.end(),
              m()->body_pos + 3 * ids_.start_body);
    std::copy(goal_pos_.begin(), goal_pos_.end(),
              m()->body_pos + 3 * ids_.goal_body);
    goal_touch_ = 0;
    if (has_mass_) {
      m()->body_mass[ids_.obj_body] = rng_.Uniform(mass_low_, mass_high_);
    }
    if (has_friction_) {
      for (int i = 0; i < 3; ++i) {
        m()->geom_friction[3 * ids_.obj_geom + i] =
            rng_.Uniform(friction_low_[i], friction_high_[i]);
      }
    }
    if (has_scale_ && !ignore_first_scale_) {
      double scales[3];
      for (int i = 0; i < 3; ++i) {
        scales[i] = rng_.Uniform(-scale_change_[i], scale_change_[i]) + 1.0;
      }
      for (int i = 0; i < 3; ++i) {
        m()->geom_size[3 * ids_.obj_geom + i] = obj_size0_[i] * scales[i];
      }
    } else {
      ignore_first_scale_ = false;
    }
    // mujoco.mj_forward(mj_model, mj_data): the env's data.
    api_.forward(m(), d());
    std::copy(m()->key_qpos + 2 * m()->nq, m()->key_qpos + 3 * m()->nq,
              init_qpos_.begin());
    // The reset's obs dict (which updates the largest force); its reward
    // dict is this family's own (myosuite computes none at a reset), so
    // what the reward dict counts and keeps is put back.
    const int goal_touch = goal_touch_;
    const bool last_solved = last_solved_;
    ResetTo(init_qpos_.data(), init_qvel_.data());
    goal_touch_ = goal_touch;
    last_solved_ = last_solved;
    time_clamped_ = false;
    // The box's start, written into the env's data only (see above).
    const int adr = m()->jnt_qposadr[joints_.object];
    const double lift[3] = {0.0, 0.0, 0.1};
    for (int i = 0; i < 3; ++i) d()->qpos[adr + i] = start_pos_[i] + lift[i];
    init_obj_z_ = d()->site_xpos[3 * ids_.obj_site + 2];
    init_palm_z_ = d()->site_xpos[3 * ids_.palm_site + 2];
  }

  StepResult Step(const void* action) override {
    StepResult r = MyoEnv::Step(action);
    last_solved_ = solved_;
    return r;
  }

  void WriteObs(const Row& row) override {
    MyoEnv::WriteObs(row);
    // info["time"] is obs_dict["time"], which a dropped box sets to 10.0.
    if (time_clamped_) *row.Info<double>(0) = kMaxTime;
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, start_pos_, goal_pos_, init_obj_z_,
                           init_palm_z_, max_force_, goal_touch_, last_solved_,
                           time_clamped_, ignore_first_scale_)

 protected:
  // get_obs_dict, of the env's data.
  void ObsDict() override {
    const mjModel* mm = m();
    const mjData* dd = d();
    std::copy(dd->qpos, dd->qpos + mm->nq, Obs("qp"));
    std::copy(dd->qvel, dd->qvel + mm->nv, Obs("qv"));
    Gather(dd->qpos, joints_.myo_qpos, Obs("myohand_qpos"));
    Gather(dd->qvel, joints_.myo_dof, Obs("myohand_qvel"));
    Gather(dd->qpos, joints_.prosth_qpos, Obs("pros_hand_qpos"));
    Gather(dd->qvel, joints_.prosth_dof, Obs("pros_hand_qvel"));
    const int qadr = mm->jnt_qposadr[joints_.object];
    const int dadr = mm->jnt_dofadr[joints_.object];
    std::copy(dd->qpos + qadr, dd->qpos + qadr + 7, Obs("object_qpos"));
    std::copy(dd->qvel + dadr, dd->qvel + dadr + 6, Obs("object_qvel"));
    std::copy(start_pos_.begin(), start_pos_.end(), Obs("start_pos"));
    std::copy(goal_pos_.begin(), goal_pos_.end(), Obs("goal_pos"));
    *Obs("elbow_fle") = dd->qpos[mm->jnt_qposadr[joints_.elbow]];
    // The kinds of bodies touching the box, each counted once.
    bool touching[5] = {false, false, false, false, false};
    for (int c = 0; c < dd->ncon; ++c) {
      const int b1 = mm->geom_bodyid[dd->contact[c].geom[0]];
      const int b2 = mm->geom_bodyid[dd->contact[c].geom[1]];
      if (b1 == ids_.obj_body) {
        touching[Label(b2)] = true;
      } else if (b2 == ids_.obj_body) {
        touching[Label(b1)] = true;
      }
    }
    const double current_force = dd->sensordata[0];
    if (current_force > max_force_) max_force_ = current_force;
    *Obs("max_force") = max_force_;
    double* touching_body = Obs("touching_body");
    for (int i = 0; i < 5; ++i) touching_body[i] = touching[i] ? 1.0 : 0.0;
    touching_goal_ = touching[kGoal];
    const double* x = dd->site_xpos;
    auto site = [&](const char* key, int id) {
      std::copy(x + 3 * id, x + 3 * id + 3, Obs(key));
    };
    site("palm_pos", ids_.palm_site);
    site("fin0", ids_.fin[0]);
    site("fin1", ids_.fin[1]);
    site("fin2", ids_.fin[2]);
    site("fin3", ids_.fin[3]);
    site("fin4", ids_.fin[4]);
    double* rpalm = Obs("Rpalm_pos");
    for (int i = 0; i < 3; ++i) {
      rpalm[i] =
          (x[3 * ids_.rpalm1_site + i] + x[3 * ids_.rpalm2_site + i]) / 2;
    }
    double* ori = Obs("MPL_ori");
    Mat2Euler(np_, dd->site_xmat + 9 * ids_.rpalm1_site, ori);
    double* ori_err = Obs("MPL_ori_err");
    const double upright[3] = {kPi, 0.0, kPi};
    for (int i = 0; i < 3; ++i) ori_err[i] = ori[i] - upright[i];
    site("obj_pos", ids_.obj_site);
    const double* palm = Obs("palm_pos");
    const double* obj = Obs("obj_pos");
    double* reach_err = Obs("reach_err");
    double* pass_err = Obs("pass_err");
    for (int i = 0; i < 3; ++i) {
      reach_err[i] = palm[i] - obj[i];
      pass_err[i] = rpalm[i] - obj[i];
    }
    if (mm->na > 0) std::copy(dd->act, dd->act + mm->na, Obs("act"));
  }

  // get_reward_dict.
  void RewardDict() override {
    double* s = scratch_.data();
    const double reach_dist = std::fabs(Norm(Obs("reach_err"), 3, s));
    const double pass_dist = std::fabs(Norm(Obs("pass_err"), 3, s));
    const double* obj = Obs("obj_pos");
    const double* palm = Obs("palm_pos");
    const double goal[3] = {goal_pos_[0], goal_pos_[1], kPillarHeight};
    const double lift[2] = {obj[2] - init_obj_z_, palm[2] - init_palm_z_};
    const double lift_height = Norm(lift, 2, s);
    const double act = ActMag();
    // sum(...) of the five fingers' norms, from Python's 0.
    double fin_open = 0.0, fin_dis = 0.0;
    for (const char* key : {"fin0", "fin1", "fin2", "fin3", "fin4"}) {
      const double* f = Obs(key);
      const double to_palm[3] = {f[0] - palm[0], f[1] - palm[1],
                                 f[2] - palm[2]};
      const double to_obj[3] = {f[0] - obj[0], f[1] - obj[1], f[2] - obj[2]};
      fin_open = fin_open + Norm(to_palm, 3, s);
      fin_dis = fin_dis + Norm(to_obj, 3, s);
    }
    const double elbow = *Obs("elbow_fle") - 1.0;
    const double to_goal[3] = {obj[0] - goal[0], obj[1] - goal[1],
                               obj[2] - goal[2]};
    const double goal_dis = std::fabs(Norm(to_goal, 3, s));
    if (touching_goal_) ++goal_touch_;
    const double lh = lift_height - kTargetZ;
    Rwd("reach_dist") = reach_dist + np_.Log(reach_dist + 1e-6);
    Rwd("act") = act;
    Rwd("fin_open") = np_.Exp(-5 * fin_open);
    Rwd("fin_dis") = fin_dis + np_.Log(fin_dis + 1e-6);
    Rwd("lift_bonus") = 5 * np_.Exp(-10 * (elbow * elbow)) - 5;
    Rwd("lift_height") = 5 * np_.Exp(-10 * (lh * lh)) - 5;
    Rwd("pass_err") = pass_dist + np_.Log(pass_dist + 1e-3);
    Rwd("sparse") = 0.0;
    Rwd("goal_dist") = goal_dis;
    const bool solved =
        goal_dis < proximity_th_ && goal_touch_ >= kTargetGoalTouch;
    Rwd("solved") = solved ? 1.0 : 0.0;
    // _get_done(obj_pos[-1]), with the last step's rwd_dict.
    bool done = false;
    if (d()->time > kMaxTime) {
      done = true;
    } else if (obj[2] < 0.3) {
      time_clamped_ = true;
      done = true;
    } else if (last_solved_) {
      done = true;
    }
    Rwd("done") = done ? 1.0 : 0.0;
  }

 private:
  static constexpr double kMaxTime = 10.0;
  static constexpr double kPillarHeight = 1.09;
  static constexpr double kTargetZ = 0.2;
  static constexpr int kTargetGoalTouch = 10;
  // ObjLabels: the arm's bodies, the prosthesis', the pillars, the rest.
  static constexpr int kMyo = 0, kProsth = 1, kStart = 2, kGoal = 3, kEnv = 4;

  struct Ids {
    int obj_body = -1, start_body = -1, goal_body = -1;
    int obj_site = -1, palm_site = -1, rpalm1_site = -1, rpalm2_site = -1;
    int fin[5] = {-1, -1, -1, -1, -1};
    int obj_geom = -1, obj_mesh = -1;
    int myo_first = 0, myo_last = -1, prosth_first = 0, prosth_last = -1;
  };

  // IdInfo's joints: the arm's and the prosthesis' (one qpos and one dof
  // address per joint, as myosuite concatenates them), the box's free
  // joint and the elbow.
  struct Joints {
    std::vector<int> myo_qpos, myo_dof, prosth_qpos, prosth_dof;
    int object = -1, elbow = -1;
  };

  static bool StartsWith(const char* s, const char* prefix) {
    return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
  }

  static Joints FindJoints(const mjModel* m) {
    Joints j;
    for (int i = 0; i < m->njnt; ++i) {
      const char* name = m->names + m->name_jntadr[i];
      if (std::strcmp(name, "manip_object/freejoint") == 0) j.object = i;
      if (std::strcmp(name, "elbow_flexion") == 0) j.elbow = i;
      if (StartsWith(name, "prosthesis")) {
        j.prosth_qpos.push_back(m->jnt_qposadr[i]);
        j.prosth_dof.push_back(m->jnt_dofadr[i]);
      } else if (std::strcmp(name, "manip_object/freejoint") != 0) {
        j.myo_qpos.push_back(m->jnt_qposadr[i]);
        j.myo_dof.push_back(m->jnt_dofadr[i]);
      }
    }
    if (j.object < 0 || m->jnt_type[j.object] != mjJNT_FREE || j.elbow < 0 ||
        j.myo_qpos.empty() || j.prosth_qpos.empty()) {
      throw std::invalid_argument(
          "option 'mujoco_model': the bimanual task needs the joints "
          "'manip_object/freejoint' (free) and 'elbow_flexion', the arm's "
          "and the prosthesis' ('prosthesis...')");
    }
    return j;
  }

  // body_id_to_label, ranges first, as myosuite checks them.
  int Label(int body) const {
    if (ids_.myo_first <= body && body <= ids_.myo_last) return kMyo;
    if (ids_.prosth_first <= body && body <= ids_.prosth_last) return kProsth;
    if (body == ids_.start_body) return kStart;
    if (body == ids_.goal_body) return kGoal;
    return kEnv;
  }

  // __center_box_mesh: the mesh's vertices and normals rotated by its geom's
  // orientation (Rotation.from_quat(...).apply: the normalised quaternion's
  // matrix, then vectors @ matrix.T), the geom's orientation cleared, the
  // vertices moved by the mesh geom's offset from the box, and the mesh
  // geom put at the box.
  void CenterBoxMesh() {
    mjModel* mm = m();
    const int box = ids_.obj_geom, mesh_geom = ids_.obj_geom - 1;
    for (int i = 0; i < 3; ++i) obj_size0_[i] = mm->geom_size[3 * box + i];
    const int first = mm->mesh_vertadr[ids_.obj_mesh];
    const int count = mm->mesh_vertnum[0];  // myosuite's mesh(0).vertnum
    if (first + count > mm->nmeshvert || first + count > mm->nmeshnormal) {
      throw std::invalid_argument(
          "option 'mujoco_model': the box mesh's vertex range (as myosuite "
          "takes it) passes the model's vertices or normals");
    }
    const double* q = mm->geom_quat + 4 * mesh_geom;  // w, x, y, z
    const double x0 = q[1], y0 = q[2], z0 = q[3], w0 = q[0];
    const double norm = std::sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
    const double x = x0 / norm, y = y0 / norm, z = z0 / norm, w = w0 / norm;
    const double x2 = x * x, y2 = y * y, z2 = z * z, w2 = w * w;
    const double xy = x * y, zw = z * w, xz = x * z, yw = y * w, yz = y * z,
                 xw = x * w;
    // The matrix's transpose, row-major: vectors (rows x 3) . it.
    const double mt[9] = {
        x2 - y2 - z2 + w2, 2 * (xy + zw),      2 * (xz - yw),
        2 * (xy - zw),     -x2 + y2 - z2 + w2, 2 * (yz + xw),
        2 * (xz + yw),     2 * (yz - xw),      -x2 - y2 + z2 + w2};
    std::vector<double> in(3 * static_cast<std::size_t>(count));
    std::vector<double> out(in.size());
    for (float* array : {mm->mesh_vert, mm->mesh_normal}) {
      float* v = array + 3 * first;
      for (std::size_t i = 0; i < in.size(); ++i) in[i] = v[i];
      blas_.MatMat3(in.data(), count, mt, out.data());
      for (std::size_t i = 0; i < in.size(); ++i) {
        v[i] = static_cast<float>(out[i]);
      }
    }
    double* quat = mm->geom_quat + 4 * mesh_geom;
    quat[0] = 1.0, quat[1] = 0.0, quat[2] = 0.0, quat[3] = 0.0;
    double offset[3];
    for (int i = 0; i < 3; ++i) {
      offset[i] = mm->geom_pos[3 * mesh_geom + i] - mm->geom_pos[3 * box + i];
    }
    float* v = mm->mesh_vert + 3 * first;
    for (int k = 0; k < count; ++k) {
      for (int i = 0; i < 3; ++i) {
        v[3 * k + i] = static_cast<float>(v[3 * k + i] + offset[i]);
      }
    }
    for (int i = 0; i < 3; ++i) {
      mm->geom_pos[3 * mesh_geom + i] = mm->geom_pos[3 * box + i];
    }
    ignore_first_scale_ = true;
  }

  static int Body(const Api& api, const mjModel* m, const char* name) {
    const int id = api.name2id(m, mjOBJ_BODY, name);
    if (id < 0) {
      throw std::invalid_argument(
          std::string("option 'mujoco_model': the bimanual task needs the "
                      "body '") +
          name + "'");
    }
    return id;
  }

  static Ids Check(const Config& config, const Api& api, const mjModel* m) {
    Ids ids;
    ids.obj_body = Body(api, m, "manip_object");
    ids.start_body = Body(api, m, "start");
    ids.goal_body = Body(api, m, "goal");
    ids.obj_site = SiteId(api, m, "touch_site", "mujoco_model");
    ids.palm_site = SiteId(api, m, "S_grasp", "mujoco_model");
    const char* fingers[5] = {"THtip", "IFtip", "MFtip", "RFtip", "LFtip"};
    for (int i = 0; i < 5; ++i) {
      ids.fin[i] = SiteId(api, m, fingers[i], "mujoco_model");
    }
    ids.rpalm1_site = SiteId(api, m, "prosthesis/palm_thumb", "mujoco_model");
    ids.rpalm2_site = SiteId(api, m, "prosthesis/palm_pinky", "mujoco_model");
    ids.obj_geom = m->body_geomadr[ids.obj_body] + 1;
    if (m->body_geomnum[ids.obj_body] < 2) {
      throw std::invalid_argument(
          "option 'mujoco_model': the bimanual task's box needs two geoms "
          "(its mesh, then its collision box)");
    }
    for (int i = 0; i < m->nmesh && ids.obj_mesh < 0; ++i) {
      if (std::strstr(m->names + m->name_meshadr[i], "box") != nullptr) {
        ids.obj_mesh = i;
      }
    }
    if (ids.obj_mesh < 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the bimanual task needs a mesh named "
          "'...box...'");
    }
    // IdInfo's body ranges.
    bool myo = false, prosth = false;
    for (int b = 0; b < m->nbody; ++b) {
      const char* name = m->names + m->name_bodyadr[b];
      if (StartsWith(name, "prosthesis/")) {
        ids.prosth_first = prosth ? ids.prosth_first : b;
        ids.prosth_last = b;
        prosth = true;
      }
      if (!StartsWith(name, "prosthesis") && b != ids.start_body &&
          b != ids.goal_body && b != ids.obj_body) {
        ids.myo_first = myo ? ids.myo_first : b;
        ids.myo_last = b;
        myo = true;
      }
    }
    if (!myo || !prosth) {
      throw std::invalid_argument(
          "option 'mujoco_model': the bimanual task needs the arm's bodies "
          "and the prosthesis' ('prosthesis/...')");
    }
    if (m->nkey < 3) {
      throw std::invalid_argument(
          "option 'mujoco_model': the bimanual task starts from the model's "
          "keyframe 2, which this model has not");
    }
    if (m->nsensordata < 1) {
      throw std::invalid_argument(
          "option 'mujoco_model': the bimanual task reads the force of the "
          "model's first sensor, which this model has not");
    }
    FindJoints(m);
    auto three = [&](const char* name) {
      const NumberList& v = config.GetNumberList(name);
      if (v.size() != 3) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "': 3 numbers expected, got " +
                                    std::to_string(v.size()));
      }
      for (double x : v) {
        if (!std::isfinite(x)) {
          throw std::invalid_argument(std::string("option '") + name +
                                      "': finite numbers expected");
        }
      }
      return v;
    };
    for (const char* name :
         {"start_center", "goal_center", "start_shifts", "goal_shifts"}) {
      three(name);
    }
    // The ranges myosuite draws from, about the model's own mass and
    // friction (Generator.uniform's checks).
    auto changes = [&](const char* name, std::size_t n) -> const NumberList& {
      const NumberList& v = config.GetNumberList(name);
      if (!v.empty() && v.size() != n) {
        throw std::invalid_argument(
            std::string("option '") + name + "': " + std::to_string(n) +
            " numbers expected (or none), got " + std::to_string(v.size()));
      }
      return v;
    };
    for (double c : changes("obj_scale_change", 3)) {
      CheckUniform("obj_scale_change", -c, c);
    }
    const NumberList& mass = changes("obj_mass_change", 2);
    if (!mass.empty()) {
      const double m0 = m->body_mass[ids.obj_body];
      CheckUniform("obj_mass_change", m0 + mass[0], m0 + mass[1]);
    }
    const NumberList& friction = changes("obj_friction_change", 3);
    for (std::size_t i = 0; i < friction.size(); ++i) {
      const double f0 = m->geom_friction[3 * ids.obj_geom + i];
      CheckUniform("obj_friction_change", f0 - friction[i], f0 + friction[i]);
    }
    config.GetFloat("proximity_th", -kInf, kInf);
    config.GetFloat("max_force", -kInf, kInf);
    const std::string& choice = config.GetString("task_choice");
    if (choice != "fixed" && choice != "random") {
      throw std::invalid_argument(
          "option 'task_choice' must be 'fixed' or 'random' (myosuite's "
          "BimanualEnvV1 takes, and does not use, it), got '" +
          choice + "'");
    }
    for (const char* name : {"start_pos", "goal_pos"}) {
      if (config.GetNumberList(name).size() != 2) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "': 2 numbers expected (myosuite's "
                                    "BimanualEnvV1 takes, and does not use, "
                                    "it)");
      }
    }
    return ids;
  }

  const NumpyBlas& blas_;
  Ids ids_;
  Joints joints_;
  std::array<double, 3> start_center_{}, goal_center_{}, start_shifts_{},
      goal_shifts_{}, start_pos_{}, goal_pos_{};
  double proximity_th_ = 0.17;
  double mass_low_ = 0.0, mass_high_ = 0.0;
  double friction_low_[3] = {0, 0, 0}, friction_high_[3] = {0, 0, 0};
  double scale_change_[3] = {0, 0, 0}, obj_size0_[3] = {0, 0, 0};
  bool has_mass_ = false, has_friction_ = false, has_scale_ = false;
  double init_obj_z_ = 0.0, init_palm_z_ = 0.0;
  double max_force_ = 0.0;
  int goal_touch_ = 0;
  bool touching_goal_ = false;
  bool last_solved_ = false;
  bool time_clamped_ = false;
  bool ignore_first_scale_ = false;
};

}  // namespace myosuite
}  // namespace envpool_lite
