// PointMaze and AntMaze: gymnasium-robotics 1.4.2's envs/maze/ (maze_v4.py's
// Maze and MazeEnv for PointMaze-v3 and AntMaze-v4/v5, maze.py's for
// AntMaze-v3; point_maze.py with point.py's PointEnv; ant_maze_v3/v4/v5.py
// on gymnasium's Ant-v4/v5, refkit/gymnasium/ant.h here).
//
// The maze's model is the agent's MJCF with a box geom per wall cell and the
// "target" site, as Maze.make_maze writes it: make() (Python,
// families/_gr_maze.py) runs gymnasium-robotics' own make_maze and passes the
// file's path as "mujoco_model". The map itself comes as "maze_map", one
// string per row, a character per cell: '1' wall, '0' empty, 'g' goal, 'r'
// reset, 'c' both; the cells' positions and the goal and reset lists are
// computed here as make_maze computes them.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "envs/gymnasium_robotics/robot_env.h"
#include "refkit/gymnasium/ant.h"

namespace envpool_lite {
namespace gymnasium_robotics {

using XY = std::array<double, 2>;

// Which MazeEnv a task runs: maze_v4.py's (PointMaze-v3, AntMaze-v4/v5) or
// maze.py's (AntMaze-v3: no reset_target, no fallback to the empty cells
// for a missing goal or reset kind, the reset distance unscaled, and a goal
// reached is replaced inside compute_terminated).
enum class MazeVersion { kV3, kV4 };

// Maze.make_maze's goal and reset locations (cell centres in the
// simulation's x, y).
struct MazeLayout {
  std::vector<XY> goals, resets;
};

// Maze.make_maze on a map of rows of cell characters; throws
// std::invalid_argument naming maze_map where the reference would fail or
// never return: a ragged or empty map, an unknown cell, no goal or reset
// location (an AssertionError at reset), and, for maze_v4's reset loop, a
// single reset location that is also a goal location (generate_reset_pos
// then rejects it forever).
inline MazeLayout MakeMazeLayout(const StringList& rows, double scaling,
                                 MazeVersion version) {
  const auto fail = [](const std::string& why) {
    throw std::invalid_argument("option 'maze_map' " + why);
  };
  if (rows.empty() || rows[0].empty()) fail("must have at least one cell");
  const std::size_t length = rows.size(), width = rows[0].size();
  // Maze.__init__: map_width / 2 * maze_size_scaling (Python's true
  // division, then the product).
  const double x_center = static_cast<double>(width) / 2.0 * scaling;
  const double y_center = static_cast<double>(length) / 2.0 * scaling;
  MazeLayout out;
  std::vector<XY> combined, empty;
  for (std::size_t i = 0; i < length; ++i) {
    if (rows[i].size() != width) {
      fail("must be rectangular: row " + std::to_string(i) + " has " +
           std::to_string(rows[i].size()) + " cells, row 0 has " +
           std::to_string(width));
    }
    for (std::size_t j = 0; j < width; ++j) {
      const XY xy = {(static_cast<double>(j) + 0.5) * scaling - x_center,
                     y_center - (static_cast<double>(i) + 0.5) * scaling};
      switch (rows[i][j]) {
        case '1':
          break;
        case 'r':
          out.resets.push_back(xy);
          break;
        case 'g':
          out.goals.push_back(xy);
          break;
        case 'c':
          combined.push_back(xy);
          break;
        case '0':
          empty.push_back(xy);
          break;
        default:
          fail(std::string("has an unknown cell '") + rows[i][j] + "' at (" +
               std::to_string(i) + ", " + std::to_string(j) +
               "): cells are 1, 0, 'g', 'r' or 'c'");
      }
    }
  }
  if (out.goals.empty() && out.resets.empty() && combined.empty()) {
    combined = empty;
  } else if (version == MazeVersion::kV4 && out.resets.empty() &&
             combined.empty()) {
    out.resets = empty;
  } else if (version == MazeVersion::kV4 && out.goals.empty() &&
             combined.empty()) {
    out.goals = empty;
  }
  out.goals.insert(out.goals.end(), combined.begin(), combined.end());
  out.resets.insert(out.resets.end(), combined.begin(), combined.end());
  if (out.goals.empty()) {
    fail("has no goal location (a 'g' or 'c' cell, or an empty one)");
  }
  if (out.resets.empty()) {
    fail(version == MazeVersion::kV3
             ? "has no reset location (an 'r' or 'c' cell; AntMaze-v3 takes "
               "no empty cell for one)"
             : "has no reset location (an 'r' or 'c' cell, or an empty one)");
  }
  if (version == MazeVersion::kV4 && out.resets.size() == 1) {
    for (const XY& g : out.goals) {
      if (g == out.resets[0]) {
        fail(
            "has a single reset location that is also a goal location: the "
            "reset position must lie away from the goal");
      }
    }
  }
  return out;
}

// MazeEnv's goal logic, on its own generator (the maze env's np_random; the
// agent's MujocoEnv has another).
class MazeTask {
 public:
  static constexpr double kGoalRadius = 0.45;

  MazeTask(const Config& config, MazeVersion version, double scaling,
           double height, uint64_t seed)
      : version_(version),
        layout_(
            MakeMazeLayout(config.GetStringList("maze_map"), scaling, version)),
        scaling_(scaling),
        site_z_(height / 2.0 * scaling),
        dense_(IsDense(config)),
        continuing_(config.GetBool("continuing_task")),
        reset_target_(version == MazeVersion::kV4 &&
                      config.GetBool("reset_target")),
        rng_(seed) {}

  void Seed(uint64_t seed) { rng_.Seed(seed); }

  // Its part of an env's state: the generator and the goal (the target
  // site it moves is in the model, which the env's state holds).
  ENVPOOL_LITE_STATE_FIELDS(rng_, goal_)

  // The "target" site, which update_target_site_pos moves to the goal.
  void SetTargetSite(double* site_pos) { site_pos_ = site_pos; }

  // MazeEnv.reset without options: the goal, then the reset position (both
  // with noise); returns the reset position.
  template <typename NormFn>
  XY Reset(const NormFn& norm) {
    goal_ = AddNoise(GenerateTargetGoal());
    XY reset = goal_;
    // generate_reset_pos: while np.linalg.norm(reset_pos - goal) <= 0.5
    // (* maze_size_scaling in maze_v4)
    const double limit = version_ == MazeVersion::kV4 ? 0.5 * scaling_ : 0.5;
    while (Distance(norm, reset) <= limit) {
      reset = layout_.resets[Index(layout_.resets.size())];
    }
    UpdateTargetSite();
    reset = AddNoise(reset);
    UpdateTargetSite();
    return reset;
  }

  // compute_reward(achieved_goal, goal): the norm over the last axis (a sum
  // of squares), then np.exp(-d) or (d <= 0.45) as float64.
  double Reward(const NumpyMath& np, const double* achieved) const {
    const double d = GoalDistance(achieved, goal_.data(), 2);
    return dense_ ? np.Exp(-d) : (d <= kGoalRadius ? 1.0 : 0.0);
  }

  // bool(np.linalg.norm(achieved_goal - goal) <= 0.45): compute_terminated
  // (when not continuing), info["success"], update_goal.
  template <typename NormFn>
  bool Reached(const NormFn& norm, const double* achieved) const {
    return Distance(norm, {achieved[0], achieved[1]}) <= kGoalRadius;
  }

  bool Continuing() const { return continuing_; }

  // maze_v4's update_goal: a continuing task with reset_target replaces a
  // reached goal until the new one is out of reach.
  template <typename NormFn>
  void UpdateGoal(const NormFn& norm, const double* achieved) {
    if (continuing_ && reset_target_ && Reached(norm, achieved) &&
        layout_.goals.size() > 1) {
      while (Reached(norm, achieved)) {
        goal_ = AddNoise(GenerateTargetGoal());
      }
      UpdateTargetSite();
    }
  }

  // maze.py's compute_terminated (AntMaze-v3): a continuing task replaces
  // a reached goal once (no loop), and never terminates.
  template <typename NormFn>
  bool TerminatedV3(const NormFn& norm, const double* achieved) {
    if (!continuing_) return Reached(norm, achieved);
    if (Reached(norm, achieved) && layout_.goals.size() > 1) {
      goal_ = AddNoise(GenerateTargetGoal());
      UpdateTargetSite();
    }
    return false;
  }

  const XY& Goal() const { return goal_; }

 private:
  // generate_target_goal: np_random.integers(low=0, high=len(goals)).
  XY GenerateTargetGoal() { return layout_.goals[Index(layout_.goals.size())]; }

  std::size_t Index(std::size_t n) {
    return static_cast<std::size_t>(rng_.Integers(0, static_cast<int64_t>(n)));
  }

  // add_xy_position_noise: uniform(-0.25, 0.25) * maze_size_scaling for x,
  // then for y, each added to its coordinate.
  XY AddNoise(XY xy) {
    const double noise_x = rng_.Uniform(-kNoiseRange, kNoiseRange) * scaling_;
    const double noise_y = rng_.Uniform(-kNoiseRange, kNoiseRange) * scaling_;
    xy[0] += noise_x;
    xy[1] += noise_y;
    return xy;
  }

  // np.linalg.norm(xy - goal), no axis: the BLAS's ddot.
  template <typename NormFn>
  double Distance(const NormFn& norm, const XY& xy) const {
    const double diff[2] = {xy[0] - goal_[0], xy[1] - goal_[1]};
    return norm(diff);
  }

  // update_target_site_pos: model.site_pos[target] = np.append(goal,
  // maze_height / 2 * maze_size_scaling).
  void UpdateTargetSite() {
    if (site_pos_ == nullptr) return;
    site_pos_[0] = goal_[0];
    site_pos_[1] = goal_[1];
    site_pos_[2] = site_z_;
  }

  static constexpr double kNoiseRange = 0.25;  // position_noise_range
  MazeVersion version_;
  MazeLayout layout_;
  double scaling_, site_z_;
  bool dense_, continuing_, reset_target_;
  NumpyRandom rng_;
  XY goal_{};
  double* site_pos_ = nullptr;
};

// The options every maze task has (reset_target: maze_v4's only).
inline void AddMazeOptions(Config* c, const StringList& maze_map,
                           int64_t max_episode_steps, bool reset_target) {
  c->Set("max_episode_steps", max_episode_steps);
  c->Set("maze_map", maze_map);
  c->Set("reward_type", std::string("sparse"));
  c->Set("continuing_task", true);
  if (reset_target) c->Set("reset_target", false);
}

// What the renderer draws from (RobotEnv::RenderState's layout: the
// kinematics, qpos, qvel, ctrl (no mocap bodies here), then the goal).
inline std::vector<double> MazeRenderState(const mjModel* m, const mjData* d,
                                           const XY& goal) {
  std::vector<double> out = mujoco::RenderStateOf(m, d, /*full=*/true);
  out.insert(out.end(), goal.begin(), goal.end());
  return out;
}

// point_maze.py's PointMazeEnv (maze_v4's MazeEnv) on point.py's PointEnv:
// a force-actuated ball (slide joints ball_x, ball_y), frame_skip 1,
// maze_size_scaling 1, maze_height 0.4.
class PointMazeEnv : public Env {
 public:
  static constexpr double kScaling = 1.0;
  static constexpr double kHeight = 0.4;

  static Config DefaultConfig() {
    Config c;
    AddMazeOptions(&c, {"11111", "10001", "11101", "10001", "11111"},  // U_MAZE
                   300, true);
    AddInternalOptions(&c);
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    IsDense(config);
    config.GetBool("continuing_task");
    config.GetBool("reset_target");
    MakeMazeLayout(config.GetStringList("maze_map"), kScaling,
                   MazeVersion::kV4);
    EnvSpec spec;
    spec.obs_dict = GoalObsSpecs(2, 4);
    // PointEnv's action_space: the motors' ctrlrange as float32.
    spec.action = MakeBox<float>("action", {2}, {-1.0}, {1.0});
    spec.info = {MakeScalar<bool>("success")};
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  PointMazeEnv(const Config& config, uint64_t seed)
      : sim_(config), maze_(config, MazeVersion::kV4, kScaling, kHeight, seed) {
    const mjModel* m = sim_.m();
    if (m->nq != 2 || m->nv != 2 || m->nu != 2) {
      throw std::runtime_error("PointMaze: the model is not point.xml's ball");
    }
    maze_.SetTargetSite(m->site_pos + 3 * sim_.SiteId("target"));
    // MujocoEnv.__init__: init_qpos / init_qvel, the data as made.
    init_qpos_.assign(sim_.d()->qpos, sim_.d()->qpos + 2);
    init_qvel_.assign(sim_.d()->qvel, sim_.d()->qvel + 2);
  }

  // The maze's np_random; PointEnv's own generator is seeded too but never
  // drawn from (its reset_model adds no noise).
  void Seed(uint64_t seed) override { maze_.Seed(seed); }

  void Reset() override {
    const XY reset = maze_.Reset(norm_);
    // PointMazeEnv.reset: point_env.init_qpos[:2] = reset_pos, then
    // point_env.reset: mj_resetData, set_state(init_qpos, init_qvel).
    init_qpos_[0] = reset[0];
    init_qpos_[1] = reset[1];
    sim_.api().reset_data(sim_.m(), sim_.d());
    SetState(init_qpos_.data(), init_qvel_.data());
    shown_goal_ = maze_.Goal();
    success_ = maze_.Reached(norm_, sim_.d()->qpos);
  }

  StepResult Step(const void* action) override {
    const float* a = static_cast<const float*>(action);
    mjData* d = sim_.d();
    // PointEnv.step: np.clip(action, -1.0, 1.0) (float32), _clip_velocity
    // (np.clip(qvel, -5, 5), set_state), do_simulation: ctrl, one mj_step
    // (its mj_rnePostConstraint only fills cacc/cfrc_*, read by nothing).
    double qvel[2];
    for (int i = 0; i < 2; ++i) qvel[i] = mujoco::Clip(d->qvel[i], -5.0, 5.0);
    double qpos[2] = {d->qpos[0], d->qpos[1]};
    SetState(qpos, qvel);
    for (int i = 0; i < 2; ++i) {
      d->ctrl[i] = static_cast<double>(std::min(std::max(a[i], -1.0f), 1.0f));
    }
    sim_.Step(1);
    // PointMazeEnv.step: achieved_goal = qpos[:2].
    const double* achieved = d->qpos;
    shown_goal_ = maze_.Goal();
    StepResult r;
    r.reward = maze_.Reward(sim_.np(), achieved);
    r.terminated = !maze_.Continuing() && maze_.Reached(norm_, achieved);
    success_ = maze_.Reached(norm_, achieved);
    maze_.UpdateGoal(norm_, achieved);
    return r;
  }

  void WriteObs(const Row& row) override {
    const mjData* d = sim_.d();
    double* achieved = row.Obs<double>(0);
    double* desired = row.Obs<double>(1);
    double* observation = row.Obs<double>(2);
    achieved[0] = d->qpos[0], achieved[1] = d->qpos[1];
    desired[0] = shown_goal_[0], desired[1] = shown_goal_[1];
    observation[0] = d->qpos[0], observation[1] = d->qpos[1];
    observation[2] = d->qvel[0], observation[3] = d->qvel[1];
    *row.Info<bool>(0) = success_;
  }

  std::vector<double> RenderState() const override {
    return MazeRenderState(sim_.m(), sim_.d(), maze_.Goal());
  }

  // The model and data, the maze's, the reset position (in init_qpos) and
  // the last observation's goal and success.
  ENVPOOL_LITE_STATE(sim_, maze_, init_qpos_, shown_goal_, success_)

 private:
  // MujocoEnv.set_state: qpos, qvel, then mj_forward.
  void SetState(const double* qpos, const double* qvel) {
    std::copy(qpos, qpos + 2, sim_.d()->qpos);
    std::copy(qvel, qvel + 2, sim_.d()->qvel);
    sim_.Forward();
  }

  struct Ddot {
    const MujocoSim* sim;
    double operator()(const double* x) const { return sim->Norm(x, 2); }
  };

  MujocoSim sim_;
  MazeTask maze_;
  Ddot norm_{&sim_};
  std::vector<double> init_qpos_, init_qvel_;
  XY shown_goal_{};  // the goal in the last observation
  bool success_ = false;
};

// ant_maze_v{3,4,5}.py's AntMazeEnv on gymnasium's AntEnv (v4's for
// AntMaze-v3/v4, v5's for v5) with exclude_current_positions_from_
// observation=False and reset_noise_scale=0.0; maze_size_scaling 4,
// maze_height 0.5. The Ant's own options pass through (ctrl_cost_weight,
// ...: they change the info fields the Ant reports); the Ant's reward and
// termination are the maze's.
template <int V>
class AntMazeEnv : public AntEnv<V == 5 ? 5 : 4> {
  using Base = AntEnv<V == 5 ? 5 : 4>;
  static constexpr MazeVersion kVersion =
      V == 3 ? MazeVersion::kV3 : MazeVersion::kV4;
  static constexpr bool kSuccess = V >= 4;  // info["success"]

 public:
  static constexpr double kScaling = 4.0;
  static constexpr double kHeight = 0.5;

  static Config DefaultConfig() {
    // The Ant's options but those AntMazeEnv fixes (the reference rejects
    // them as arguments) and xml_file (v5's AntMazeEnv takes one, below).
    Config c;
    const Config ant = Base::DefaultConfig();
    for (const auto& [name, value] : ant.Values()) {
      if (name != "reset_noise_scale" &&
          name != "exclude_current_positions_from_observation" &&
          name != "xml_file") {
        c.Set(name, value);
      }
    }
    AddMazeOptions(&c, {"11111", "10001", "11101", "10001", "11111"}, 700,
                   kVersion == MazeVersion::kV4);
    AddInternalOptions(&c);
    if (V == 5) c.Set("xml_file", std::string());  // "": gymnasium's ant.xml
    return c;
  }

  // The Ant's config: the maze's, plus the options AntMazeEnv fixes.
  static Config AntConfig(const Config& config) {
    Config c = config;
    c.Set("reset_noise_scale", 0.0);
    c.Set("exclude_current_positions_from_observation", false);
    return c;
  }

  static EnvSpec MakeSpec(const Config& config) {
    IsDense(config);
    config.GetBool("continuing_task");
    if (kVersion == MazeVersion::kV4) config.GetBool("reset_target");
    MakeMazeLayout(config.GetStringList("maze_map"), kScaling, kVersion);
    EnvSpec ant = Base::MakeSpec(AntConfig(config));
    EnvSpec spec;
    const int64_t n = ant.obs.shape[0];
    spec.obs_dict = GoalObsSpecs(2, n - 2);
    spec.action = ant.action;
    spec.info = ant.info;
    if (kSuccess) spec.info.push_back(MakeScalar<bool>("success"));
    spec.max_episode_steps = config.GetInt("max_episode_steps");
    spec.reward_float64 = true;
    return spec;
  }

  AntMazeEnv(const Config& config, uint64_t seed)
      : Base(AntConfig(config), seed),
        maze_(config, kVersion, kScaling, kHeight, seed),
        np_(config.GetNamedNumbers("numpy_loops")) {
    const mjModel* m = this->model_.get();
    const mujoco::ModelSizes sizes{m->nq,      m->nv, m->nu, m->nbody,
                                   m->ntendon, {},    {}};
    obs_.resize(
        static_cast<std::size_t>(Base::ObsSize(AntConfig(config), sizes)));
    const int target =
        this->api_.name2id(this->model_.get(), mjOBJ_SITE, "target");
    if (target < 0) throw std::runtime_error("AntMaze: no target site");
    maze_.SetTargetSite(this->model_->site_pos + 3 * target);
  }

  // The maze's np_random and the Ant's (both seeded with the seed, as
  // AntMazeEnv.reset(seed) seeds both).
  void Seed(uint64_t seed) override {
    maze_.Seed(seed);
    Base::Seed(seed);
  }

  void Reset() override {
    const XY reset = maze_.Reset(Ddot{this});
    // AntMazeEnv.reset: ant_env.init_qpos[:2] = reset_pos; ant_env.reset
    // (its reset noise drawn at scale 0 from the Ant's generator).
    this->init_qpos_[0] = reset[0];
    this->init_qpos_[1] = reset[1];
    Base::Reset();
    shown_goal_ = maze_.Goal();
    success_ = maze_.Reached(Ddot{this}, this->data_->qpos);
  }

  StepResult Step(const void* action) override {
    Base::Step(action);  // its info fields; its reward is not the maze's
    // _get_obs: achieved_goal = ant_obs[:2], the torso's x, y.
    const double* achieved = this->data_->qpos;
    shown_goal_ = maze_.Goal();
    StepResult r;
    if (V == 3) {
      // terminated (which may replace the goal), then the reward of the
      // goal it leaves.
      r.terminated = maze_.TerminatedV3(Ddot{this}, achieved);
      r.reward = maze_.Reward(np_, achieved);
      return r;
    }
    r.reward = maze_.Reward(np_, achieved);
    r.terminated = !maze_.Continuing() && maze_.Reached(Ddot{this}, achieved);
    success_ = maze_.Reached(Ddot{this}, achieved);
    maze_.UpdateGoal(Ddot{this}, achieved);
    return r;
  }

  void WriteObs(const Row& row) override {
    this->WriteObservation(obs_.data());
    double* achieved = row.Obs<double>(0);
    double* desired = row.Obs<double>(1);
    double* observation = row.Obs<double>(2);
    achieved[0] = obs_[0], achieved[1] = obs_[1];
    desired[0] = shown_goal_[0], desired[1] = shown_goal_[1];
    std::copy(obs_.begin() + 2, obs_.end(), observation);
    // The Ant's info fields (MujocoEnv::WriteObs's types), then success.
    const auto& specs = this->info_specs_;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const double* v = this->info_.data() + this->info_offset_[i];
      const int k = static_cast<int>(i);
      switch (specs[i].dtype) {
        case DType::kFloat32:
          *row.Info<float>(k) = static_cast<float>(*v);
          break;
        case DType::kInt64:
          *row.Info<int64_t>(k) = static_cast<int64_t>(*v);
          break;
        default:
          *row.Info<double>(k) = *v;
      }
    }
    if (kSuccess) *row.Info<bool>(static_cast<int>(specs.size())) = success_;
  }

  std::vector<double> RenderState() const override {
    return MazeRenderState(this->model_.get(), this->data_.get(), maze_.Goal());
  }

  // The Ant's state (its base's), the maze's, the reset position (in the
  // Ant's init_qpos) and the last observation's goal and success.
  ENVPOOL_LITE_STATE_AFTER(Base, maze_, this->init_qpos_, shown_goal_, success_)

 private:
  // np.linalg.norm of a 2-vector: numpy's ddot.
  struct Ddot {
    const AntMazeEnv* env;
    double operator()(const double* x) const { return env->Norm(x, 2); }
  };

  MazeTask maze_;
  NumpyMath np_;
  std::vector<double> obs_;
  XY shown_goal_{};
  bool success_ = false;
};

}  // namespace gymnasium_robotics
}  // namespace envpool_lite
