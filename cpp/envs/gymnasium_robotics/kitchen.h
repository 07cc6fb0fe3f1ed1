// Franka Kitchen: gymnasium-robotics 1.4.2's envs/franka_kitchen
// (kitchen_env.py's KitchenEnv around franka_env.py's FrankaRobot, a
// gymnasium MujocoEnv with frame_skip 40): a Franka arm in a kitchen, its
// action a joint velocity in [-1, 1] (x 2) integrated from the last noisy
// observation of the joints, the tasks the kitchen's objects reaching their
// goals (within 0.3), the reward the number of tasks completed this step.
//
// The observation is the reference's nested dict flattened: one array per
// key, "achieved_goal/<task>" and "desired_goal/<task>" for each task of
// tasks_to_complete (sorted, as gymnasium's Dict sorts them), then
// "observation" (59 values). The info fields tasks_to_complete,
// step_task_completions and episode_task_completions, lists of task names in
// the reference, are bool arrays over all 7 tasks in KitchenTasks()'s order
// (OBS_ELEMENT_GOALS'): true where the task is in the list. The pool returns
// the "a/b" keys nested, as the reference's dict (spec.nest_keys).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/gymnasium_robotics/robot_env.h"
#include "refkit/gymnasium/mujoco_env.h"

namespace envpool_lite {
namespace gymnasium_robotics {

// One task of OBS_ELEMENT_INDICES / OBS_ELEMENT_GOALS.
struct KitchenTask {
  const char* name;
  std::vector<int> indices;  // into qpos
  std::vector<double> goal;
};

inline const std::vector<KitchenTask>& KitchenTasks() {
  static const std::vector<KitchenTask> tasks = {
      {"bottom burner", {11, 12}, {-0.88, -0.01}},
      {"top burner", {15, 16}, {-0.92, -0.01}},
      {"light switch", {17, 18}, {-0.69, -0.05}},
      {"slide cabinet", {19}, {0.37}},
      {"hinge cabinet", {20, 21}, {0.0, 1.45}},
      {"microwave", {22}, {-0.75}},
      {"kettle",
       {23, 24, 25, 26, 27, 28, 29},
       {-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06}}};
  return tasks;
}

// The selected tasks (indices into KitchenTasks()), without duplicates, in
// the order of the observation's keys (sorted by name); an unknown name is
// the reference's ValueError.
inline std::vector<int> KitchenSelectedTasks(const Config& config) {
  const auto& all = KitchenTasks();
  std::vector<std::pair<std::string, int>> named;
  for (const std::string& t : config.GetStringList("tasks_to_complete")) {
    int found = -1;
    for (int i = 0; i < static_cast<int>(all.size()); ++i) {
      if (t == all[i].name) found = i;
    }
    if (found < 0) {
      std::string known;
      for (const auto& k : all)
        known += std::string(known.empty() ? "" : ", ") + "'" + k.name + "'";
      throw std::invalid_argument("option 'tasks_to_complete': the task '" + t +
                                  "' cannot be found in the list of "
                                  "possible goals: " +
                                  known);
    }
    if (std::find_if(named.begin(), named.end(), [&](const auto& p) {
          return p.second == found;
        }) == named.end()) {
      named.emplace_back(t, found);
    }
  }
  // The reference accepts no task at all (empty achieved_goal and
  // desired_goal dicts, terminated at the first step); a flat observation
  // cannot hold an empty dict, so that is refused here.
  if (named.empty()) {
    throw std::invalid_argument(
        "option 'tasks_to_complete' must name at least one task");
  }
  std::sort(named.begin(), named.end());
  std::vector<int> out;
  for (const auto& p : named) out.push_back(p.second);
  return out;
}

// franka_config.xml's qpos<i> entries: pos_bound, vel_bound,
// pos_noise_amp[0], vel_noise_amp[0] (utils.read_config_from_node).
struct FrankaSpecs {
  std::vector<double> pos_lo, pos_hi, vel_lo, vel_hi, pos_noise, vel_noise;
};

inline std::vector<double> FrankaAttribute(const std::string& xml, int i,
                                           const std::string& attr,
                                           const std::string& path) {
  const std::string tag = "<qpos" + std::to_string(i);
  std::size_t at = 0;
  while ((at = xml.find(tag, at)) != std::string::npos) {
    const char next = xml[at + tag.size()];
    if (next == ' ' || next == '\t' || next == '\n' || next == '/') break;
    at += tag.size();
  }
  const std::size_t end = at == std::string::npos ? at : xml.find('>', at);
  if (end == std::string::npos) {
    throw std::runtime_error("Kitchen: " + path + " has no entry qpos" +
                             std::to_string(i));
  }
  const std::string element = xml.substr(at, end - at);
  std::size_t a = element.find(" " + attr + "=");
  if (a == std::string::npos) a = element.find("\t" + attr + "=");
  if (a == std::string::npos) {
    throw std::runtime_error("Kitchen: " + path + ": qpos" + std::to_string(i) +
                             " has no " + attr);
  }
  a += attr.size() + 2;
  const char quote = element[a];
  const std::size_t close = element.find(quote, a + 1);
  std::istringstream values(element.substr(a + 1, close - a - 1));
  std::vector<double> out;
  std::string word;
  while (values >> word) out.push_back(std::strtod(word.c_str(), nullptr));
  return out;
}

inline FrankaSpecs ReadFrankaSpecs(const std::string& path, int nv) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("Kitchen: cannot read " + path);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string xml = buf.str();
  // drop the comments
  for (std::size_t c; (c = xml.find("<!--")) != std::string::npos;) {
    const std::size_t e = xml.find("-->", c);
    xml.erase(c, e == std::string::npos ? std::string::npos : e + 3 - c);
  }
  FrankaSpecs s;
  for (int i = 0; i < nv; ++i) {
    const auto pos = FrankaAttribute(xml, i, "pos_bound", path);
    const auto vel = FrankaAttribute(xml, i, "vel_bound", path);
    const auto pn = FrankaAttribute(xml, i, "pos_noise_amp", path);
    const auto vn = FrankaAttribute(xml, i, "vel_noise_amp", path);
    if (pos.size() != 2 || vel.size() != 2 || pn.empty() || vn.empty()) {
      throw std::runtime_error("Kitchen: bad entry qpos" + std::to_string(i) +
                               " in " + path);
    }
    s.pos_lo.push_back(pos[0]);
    s.pos_hi.push_back(pos[1]);
    s.vel_lo.push_back(vel[0]);
    s.vel_hi.push_back(vel[1]);
    s.pos_noise.push_back(pn[0]);
    s.vel_noise.push_back(vn[0]);
  }
  return s;
}

// FrankaRobot's config file: ../franka_assets/franka_config.xml next to the
// kitchen model's folder (kitchen_franka/kitchen_assets/...).
inline std::string FrankaConfigPath(const std::string& model_path) {
  std::string dir = model_path.substr(0, model_path.find_last_of('/'));
  dir = dir.substr(0, dir.find_last_of('/'));
  return dir + "/franka_assets/franka_config.xml";
}

class KitchenEnv : public mujoco::MujocoEnv {
 public:
  static constexpr int kFrameSkip = 40;
  static constexpr int kRobotDofs = 9;
  static constexpr int kObsSize = 59;

  static Config DefaultConfig() {
    StringList all;
    for (const auto& t : KitchenTasks()) all.emplace_back(t.name);
    Config c{{"max_episode_steps", int64_t{280}},
             {"tasks_to_complete", all},
             {"terminate_on_tasks_completed", true},
             {"remove_task_when_completed", true},
             {"object_noise_ratio", 0.0005},
             {"robot_noise_ratio", 0.01}};
    AddInternalOptions(&c);
    c.Set("mujoco_model",
          std::string("kitchen_franka/kitchen_assets/kitchen_env_model.xml"));
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    const std::vector<int> tasks = KitchenSelectedTasks(config);
    config.GetFloat("object_noise_ratio");
    config.GetFloat("robot_noise_ratio");
    EnvSpec spec;
    for (const char* part : {"achieved_goal/", "desired_goal/"}) {
      for (int t : tasks) {
        const KitchenTask& task = KitchenTasks()[t];
        spec.obs_dict.push_back(
            MakeBox<double>(part + std::string(task.name),
                            {static_cast<int64_t>(task.goal.size())}, {}, {}));
      }
    }
    spec.obs_dict.push_back(MakeBox<double>("observation", {kObsSize}, {}, {}));
    spec.action = MakeBox<double>("action", {kRobotDofs}, {-1.0}, {1.0});
    const int64_t n = static_cast<int64_t>(KitchenTasks().size());
    spec.info = {MakeBox<bool>("tasks_to_complete", {n}, {}, {}),
                 MakeBox<bool>("step_task_completions", {n}, {}, {}),
                 MakeBox<bool>("episode_task_completions", {n}, {}, {})};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  KitchenEnv(const Config& config, uint64_t seed)
      : MujocoEnv(config, seed, kFrameSkip),
        tasks_(KitchenSelectedTasks(config)),
        terminate_on_tasks_completed_(
            config.GetBool("terminate_on_tasks_completed")),
        remove_task_when_completed_(
            config.GetBool("remove_task_when_completed")),
        object_noise_ratio_(config.GetFloat("object_noise_ratio")),
        robot_noise_ratio_(config.GetFloat("robot_noise_ratio")) {
    const mjModel* m = model_.get();
    if (m->nq != 30 || m->nv != 29 || m->nu != kRobotDofs) {
      throw std::runtime_error("Kitchen: unexpected model sizes");
    }
    specs_ = ReadFrankaSpecs(FrankaConfigPath(config.GetString("mujoco_model")),
                             m->nv);
    // robot_get_obs: the joints whose names start with "robot", in id order.
    for (int j = 0; j < m->njnt; ++j) {
      const char* name = api_.id2name(m, mjOBJ_JOINT, j);
      if (name != nullptr && std::string(name).rfind("robot", 0) == 0) {
        robot_joints_.push_back(j);
      }
    }
    if (robot_joints_.size() != kRobotDofs) {
      throw std::runtime_error("Kitchen: the model has no 9 robot joints");
    }
    // KitchenEnv.__init__: robot_env.init_qpos.
    init_qpos_ = {
        0.148388023,     -1.76848573,     1.84390296,      -2.4768576,
        0.260252026,     0.712533105,     1.59515394,      0.0479267505,
        0.0371350919,    -0.00026627985,  -5.18043486e-05, 3.1287722e-05,
        -4.51199853e-05, -3.90842156e-06, -4.22629655e-05, 6.28065475e-05,
        4.04984708e-05,  0.000462730939,  -0.000226906415, -0.000465501369,
        -0.00644129196,  -0.00177048263,  0.00108009684,   -0.26939744,
        0.350383255,     1.61944683,      1.00618764,      0.0040639512,
        -0.00662095997,  -0.000268278933};
    // FrankaRobot.__init__: init_qvel = data.qvel (the same array, zeros
    // after mj_resetData).
    init_qvel_.assign(m->nv, 0.0);
  }

  void Reset() override {
    // KitchenEnv.reset: episode_task_completions cleared; robot_env.reset
    // (mj_resetData, reset_model: set_state(init_qpos, init_qvel), its
    // _get_obs); then KitchenEnv._get_obs; tasks_to_complete = the goals.
    ResetData();
    SetState(init_qpos_, init_qvel_);
    RobotObs();
    ObjectObs();
    std::fill(std::begin(remaining_), std::end(remaining_), false);
    std::fill(std::begin(step_done_), std::end(step_done_), false);
    std::fill(std::begin(episode_done_), std::end(episode_done_), false);
    for (int t : tasks_) remaining_[t] = true;
  }

  StepResult Step(const void* action) override {
    const double* a = static_cast<const double*>(action);
    // FrankaRobot.step: clip, act_mid + action * act_rng, then
    // _ctrl_velocity_limits (from the last noisy qpos) and
    // _ctrl_position_limits.
    for (int i = 0; i < kRobotDofs; ++i) {
      const double c = 0.0 + mujoco::Clip(a[i], -1.0, 1.0) * 2.0;
      const double vel = mujoco::Clip(c, specs_.vel_lo[i], specs_.vel_hi[i]);
      const double pos = last_robot_qpos_[i] + vel * dt_;
      data_->ctrl[i] = mujoco::Clip(pos, specs_.pos_lo[i], specs_.pos_hi[i]);
    }
    for (int i = 0; i < frame_skip_; ++i) api_.step(model_.get(), data_.get());
    api_.rne_post_constraint(model_.get(), data_.get());
    RobotObs();
    ObjectObs();
    // compute_reward over the remaining tasks.
    int completed = 0;
    std::fill(std::begin(step_done_), std::end(step_done_), false);
    for (int t : tasks_) {
      if (!remaining_[t]) continue;
      const KitchenTask& task = KitchenTasks()[t];
      double diff[7];
      const int n = static_cast<int>(task.goal.size());
      for (int k = 0; k < n; ++k) {
        diff[k] = data_->qpos[task.indices[k]] - task.goal[k];
      }
      if (Norm(diff, n) < 0.3) {  // BONUS_THRESH
        step_done_[t] = true;
        ++completed;
      }
    }
    int episode_count = 0;
    for (int t : tasks_) {
      if (step_done_[t]) {
        if (remove_task_when_completed_) remaining_[t] = false;
        episode_done_[t] = true;
      }
      episode_count += episode_done_[t] ? 1 : 0;
    }
    StepResult r;
    r.reward = static_cast<double>(completed);
    r.terminated = terminate_on_tasks_completed_ &&
                   episode_count == static_cast<int>(tasks_.size());
    return r;
  }

  void WriteObs(const Row& row) override {
    int key = 0;
    for (int t : tasks_) {
      const KitchenTask& task = KitchenTasks()[t];
      double* out = row.Obs<double>(key++);
      for (std::size_t k = 0; k < task.indices.size(); ++k) {
        out[k] = data_->qpos[task.indices[k]];
      }
    }
    for (int t : tasks_) {
      const KitchenTask& task = KitchenTasks()[t];
      std::copy(task.goal.begin(), task.goal.end(), row.Obs<double>(key++));
    }
    std::copy(obs_, obs_ + kObsSize, row.Obs<double>(key));
    const int n = static_cast<int>(KitchenTasks().size());
    std::copy(remaining_, remaining_ + n, row.Info<bool>(0));
    std::copy(step_done_, step_done_ + n, row.Info<bool>(1));
    std::copy(episode_done_, episode_done_ + n, row.Info<bool>(2));
  }

  // The last (noisy) observation, the robot's noisy qpos the next step
  // reads, and the tasks' completions.
  ENVPOOL_LITE_STATE_AFTER(mujoco::MujocoEnv, obs_, last_robot_qpos_,
                           remaining_, step_done_, episode_done_)

 protected:
  void WriteObservation(double* obs) const override {
    std::copy(obs_, obs_ + kObsSize, obs);
  }

 private:
  // FrankaRobot._get_obs: the robot joints' qpos and qvel, each plus
  // robot_noise_ratio * noise_amp[:9] * uniform(-1, 1, size=9) (qpos's 9
  // draws, then qvel's); the noisy qpos is _last_robot_qpos.
  void RobotObs() {
    const mjModel* m = model_.get();
    for (int i = 0; i < kRobotDofs; ++i) {
      const double q = data_->qpos[m->jnt_qposadr[robot_joints_[i]]];
      obs_[i] = q + robot_noise_ratio_ * specs_.pos_noise[i] *
                        rng_.Uniform(-1.0, 1.0);
      last_robot_qpos_[i] = obs_[i];
    }
    for (int i = 0; i < kRobotDofs; ++i) {
      const double v = data_->qvel[m->jnt_dofadr[robot_joints_[i]]];
      obs_[kRobotDofs + i] = v + robot_noise_ratio_ * specs_.vel_noise[i] *
                                     rng_.Uniform(-1.0, 1.0);
    }
  }

  // KitchenEnv._get_obs: qpos[9:] plus object_noise_ratio *
  // pos_noise_amp[8:] * uniform(-1, 1, size=21), then qvel[9:] plus
  // object_noise_ratio * vel_noise_amp[9:] * uniform(-1, 1, size=20).
  void ObjectObs() {
    const int nq = model_->nq, nv = model_->nv;
    int k = 2 * kRobotDofs;
    for (int i = kRobotDofs; i < nq; ++i) {
      obs_[k++] = data_->qpos[i] + object_noise_ratio_ *
                                       specs_.pos_noise[i - 1] *
                                       rng_.Uniform(-1.0, 1.0);
    }
    for (int i = kRobotDofs; i < nv; ++i) {
      obs_[k++] = data_->qvel[i] + object_noise_ratio_ * specs_.vel_noise[i] *
                                       rng_.Uniform(-1.0, 1.0);
    }
  }

  std::vector<int> tasks_;
  bool terminate_on_tasks_completed_, remove_task_when_completed_;
  double object_noise_ratio_, robot_noise_ratio_;
  FrankaSpecs specs_;
  std::vector<int> robot_joints_;
  double obs_[kObsSize] = {};
  double last_robot_qpos_[kRobotDofs] = {};
  bool remaining_[7] = {}, step_done_[7] = {}, episode_done_[7] = {};
};

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
