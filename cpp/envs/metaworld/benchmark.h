// Meta-World's benchmarks as pools: metaworld 3.1.1's MT1, MT10, MT25,
// MT50 (make_mt_envs) and ML1, ML10, ML25, ML45 with their train and test
// splits (make_ml_envs_train / make_ml_envs_test), as the vector envs
// gymnasium.make_vec("Meta-World/MT10", seed=s) and the like build them.
//
// A benchmark's vector env has B sub-envs: one per task for MT (B = k, the
// task count; sub-env c runs task c), meta_batch_size for ML (each task's
// meta_batch_size / k sub-envs in a row, sub-env j of a task taking its goals
// j, j + n, j + 2n, ... with n = meta_batch_size / k). A pool of num_envs =
// m * B envs holds m copies: env i is sub-env p = i mod B of the benchmark
// seeded with env i's seed minus p (with the default seeds, s + i, copy r is
// the benchmark seeded s + r * B; a pool of B envs is the benchmark seeded s).
//
// The goals ("tasks") are drawn as _make_tasks draws them: np.random seeded
// with the benchmark's seed (ML1's test split: seed + 1), then every task of
// the split in order, 50 goals each (SawyerEnv::DrawGoals): a task's goals
// depend on the tasks before it. Every sub-env is then env.seed(seed) with
// the benchmark's one seed, as metaworld seeds them all.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "envs/metaworld/sawyer_env.h"
#include "refkit/numpy/blas.h"
#include "refkit/numpy/random_state.h"

namespace envpool_lite {
namespace metaworld {

// A task by metaworld's name: its constants and how to build its env.
struct TaskClass {
  TaskSpec spec;
  std::unique_ptr<SawyerEnv> (*make)(const Config& config, uint64_t seed);
};

// Filled by AddTask (registration.h) as the family registers its tasks.
inline std::map<std::string, TaskClass>& TaskClasses() {
  static std::map<std::string, TaskClass> classes;
  return classes;
}

inline const TaskClass& ClassOf(const std::string& name) {
  auto it = TaskClasses().find(name);
  if (it == TaskClasses().end()) {
    throw std::invalid_argument("option 'env_name': '" + name +
                                "' is not one of metaworld's 50 v3 tasks "
                                "(e.g. 'reach-v3')");
  }
  return it->second;
}

// What a benchmark id is: its tasks (metaworld's env_dict order) and kind.
struct BenchmarkDef {
  std::vector<std::string> tasks;  // empty: MT1 / ML1, the env_name option
  bool meta_learning = false;      // ML: goals hidden, pseudo-random goals
  bool test_split = false;         // ML's test tasks (ML1: goals of seed + 1)
  // Meta-World/goal_observable, goal_hidden: env_dict's GOAL_OBSERVABLE and
  // GOAL_HIDDEN envs, one goal drawn at construction (np.random seeded
  // with the seed, one reset's two draws) and kept.
  bool one_goal = false;
  bool goal_hidden = false;
};

class BenchmarkEnv : public Env {
 public:
  // Every option of a benchmark id; `def` fixes which apply (MakeSpec).
  static Config BenchmarkConfig(const BenchmarkDef& def) {
    Config c{{"max_episode_steps", int64_t{500}},
             {"reward_function_version", std::string("v2")},
             {"terminate_on_success", def.test_split},
             {"mujoco_lib", std::string()},
             {"mujoco_assets", std::string()},
             {"numpy_blas", std::string()},
             {"numpy_loops", NamedNumbers{}}};
    SawyerEnv::AddRenderOptions(&c);
    if (def.tasks.empty()) c.Set("env_name", std::string());
    if (def.meta_learning) {
      c.Set("meta_batch_size", int64_t{20});
      c.Set("total_tasks_per_cls", int64_t{0});
      c.Set("sample_tasks_on_reset", false);
    } else if (!def.one_goal) {
      c.Set("use_one_hot", false);
    }
    return c;
  }

  // The benchmark's tasks and sub-env layout, validated.
  struct Layout {
    std::vector<std::string> tasks;
    int block = 0;           // B: sub-envs of one benchmark vector env
    int tasks_per_env = 1;   // ML: meta_batch_size / k
    int goals_per_task = 0;  // ML: total_tasks_per_cls (50: all)
    int one_hot = 0;         // MT with use_one_hot: k
  };

  static Layout MakeLayout(const BenchmarkDef& def, const Config& config) {
    Layout l;
    l.tasks = def.tasks;
    if (l.tasks.empty()) {
      const std::string& name = config.GetString("env_name");
      if (name.empty()) {
        throw std::invalid_argument(
            "option 'env_name' is required: the task of this benchmark (one "
            "of metaworld's 50 v3 tasks, e.g. env_name='reach-v3')");
      }
      ClassOf(name);
      l.tasks = {name};
    }
    const int k = static_cast<int>(l.tasks.size());
    l.goals_per_task = kNumGoals;
    if (def.one_goal) {
      l.block = 1;
      return l;
    }
    if (!def.meta_learning) {
      if (def.tasks.empty() && config.GetBool("use_one_hot")) {
        throw std::invalid_argument(
            "option 'use_one_hot' of Meta-World/MT1: a one-hot of one task "
            "(metaworld's own MT1 fails on it: 'Need to pass env_id through "
            "constructor'); use MT10 or MT50 for task ids in the observation");
      }
      l.block = k;
      l.one_hot = config.GetBool("use_one_hot") ? k : 0;
      return l;
    }
    const int64_t mbs = config.GetInt("meta_batch_size");
    if (mbs < 1 || mbs % k != 0) {
      throw std::invalid_argument(
          "option 'meta_batch_size' must be a positive multiple of the "
          "benchmark's " +
          std::to_string(k) +
          " task(s) (metaworld: 'meta_batch_size must be "
          "divisible by envs_per_task'), got " +
          std::to_string(mbs));
    }
    const int64_t total = config.GetInt("total_tasks_per_cls");
    if (total < 0 || total > kNumGoals) {
      throw std::invalid_argument(
          "option 'total_tasks_per_cls' must be in [1, 50] (0: all 50 goals, "
          "metaworld's None), got " +
          std::to_string(total));
    }
    l.block = static_cast<int>(mbs);
    l.tasks_per_env = static_cast<int>(mbs / k);
    l.goals_per_task = total == 0 ? kNumGoals : static_cast<int>(total);
    // _make_ml_envs_inner: every sub-env of a task gets the same number of
    // goals (tasks[j::n] for j < n), else metaworld's assert fails.
    if (l.tasks_per_env > l.goals_per_task ||
        l.goals_per_task % l.tasks_per_env != 0) {
      throw std::invalid_argument(
          "the " + std::to_string(l.goals_per_task) +
          " goals of each task (total_tasks_per_cls) do not divide evenly "
          "among its meta_batch_size / " +
          std::to_string(k) + " = " + std::to_string(l.tasks_per_env) +
          " sub-envs (metaworld fails the same assert 'Invalid division of "
          "subtasks'): choose total_tasks_per_cls as a multiple of " +
          std::to_string(l.tasks_per_env) + ", e.g. " +
          std::to_string(kNumGoals / l.tasks_per_env * l.tasks_per_env));
    }
    return l;
  }

  static EnvSpec BenchmarkSpec(const BenchmarkDef& def, const Config& config) {
    const Layout l = MakeLayout(def, config);
    // One task's spec (every task's action, info and limits are the same),
    // with the observation's goal bounds spanning the benchmark's tasks.
    EnvSpec spec = SawyerEnv::BaseSpec(config, ClassOf(l.tasks[0]).spec);
    std::vector<double> low, high;
    for (std::size_t t = 0; t < l.tasks.size(); ++t) {
      std::vector<double> lo, hi;
      SawyerEnv::ObsBounds(ClassOf(l.tasks[t]).spec, Hidden(def), &lo, &hi);
      if (t == 0) {
        low = lo;
        high = hi;
      }
      for (std::size_t i = 0; i < lo.size(); ++i) {
        low[i] = std::min(low[i], lo[i]);
        high[i] = std::max(high[i], hi[i]);
      }
    }
    low.insert(low.end(), l.one_hot, 0.0);
    high.insert(high.end(), l.one_hot, 1.0);
    spec.obs = MakeBox<double>(
        "obs", {SawyerEnv::kObsSize + static_cast<int64_t>(l.one_hot)}, low,
        high);
    return spec;
  }

  BenchmarkEnv(const BenchmarkDef& def, const Config& config, uint64_t seed,
               EnvIndex env_id)
      : def_(def),
        layout_(MakeLayout(def, config)),
        config_(config),
        blas_(NumpyBlas::Load(config.GetString("numpy_blas"))) {
    home_position_ = env_id.value % layout_.block;
    position_ = home_position_;
    task_ = TaskOf(position_);
    env_ = MakeTaskEnv(task_, seed);
    sample_on_reset_ =
        def.meta_learning && config.GetBool("sample_tasks_on_reset");
    Seed(seed);
  }

  void Seed(uint64_t seed) override {
    // An env that a state made another sub-env (LoadState) is again the one
    // its id makes it.
    if (position_ != home_position_) {
      position_ = home_position_;
      if (TaskOf(position_) != task_) {
        task_ = TaskOf(position_);
        env_ = MakeTaskEnv(task_, seed);
      }
    }
    if (seed < static_cast<uint64_t>(position_)) {
      throw std::invalid_argument(
          "seed " + std::to_string(seed) + " of env at position " +
          std::to_string(position_) +
          " in its benchmark copy: the copy's seed is the env's seed minus "
          "its position, which would be negative");
    }
    const uint64_t benchmark_seed = seed - static_cast<uint64_t>(position_);
    TaskSet set;
    set.rand_vecs = Goals(benchmark_seed);
    set.pseudorandom = def_.meta_learning;
    set.sample_on_reset = !def_.meta_learning || sample_on_reset_;
    set.partially_observable = Hidden(def_);
    env_->UseTaskSet(benchmark_seed, std::move(set));
  }

  void Reset() override { env_->Reset(); }
  StepResult Step(const void* action) override { return env_->Step(action); }
  void Render(uint8_t* rgb) override { env_->Render(rgb); }
  void WriteObs(const Row& row) override {
    env_->WriteObs(row);
    if (layout_.one_hot > 0) {
      double* hot = row.Obs<double>() + SawyerEnv::kObsSize;
      std::fill(hot, hot + layout_.one_hot, 0.0);
      hot[task_] = 1.0;  // OneHotWrapper: the task's index in the benchmark
    }
  }

  // get_state / set_state: which sub-env of its benchmark this env is (its
  // position and task), then its task env's state. A state loaded into an
  // env at another position makes it that sub-env: its task env is rebuilt
  // for the saved task where that differs.
  void SaveState(StateWriter& out) const override {
    out(position_, task_);
    env_->SaveState(out);
  }
  void LoadState(StateReader& in) override {
    int position = 0, task = 0;
    in(position, task);
    if (position < 0 || position >= layout_.block || task != TaskOf(position)) {
      throw StateError("the Meta-World sub-env does not fit this benchmark");
    }
    if (task != task_) {
      task_ = task;
      env_ = MakeTaskEnv(task_, 0);  // its seeds and goals come with the state
    }
    position_ = position;
    env_->LoadState(in);
  }

 private:
  // The task of the sub-env at `position`.
  int TaskOf(int position) const {
    return def_.meta_learning ? position / layout_.tasks_per_env : position;
  }

  // The env of the benchmark's task `task` (its model under mujoco_assets).
  std::unique_ptr<SawyerEnv> MakeTaskEnv(int task, uint64_t seed) const {
    const TaskClass& cls = ClassOf(layout_.tasks[task]);
    Config own = config_;
    own.Set("mujoco_model",
            config_.GetString("mujoco_assets") + "/" + cls.spec.model);
    return cls.make(own, seed);
  }

  static bool Hidden(const BenchmarkDef& def) {
    return def.meta_learning || def.goal_hidden;
  }

  // _make_tasks over the split's tasks up to this env's, from np.random
  // seeded as the benchmark seeds it; this env's goals among its task's.
  std::vector<std::vector<double>> Goals(uint64_t benchmark_seed) const {
    const uint64_t seed =
        def_.test_split && def_.tasks.empty() && def_.meta_learning
            ? benchmark_seed + 1  // ML1's test tasks
            : benchmark_seed;
    if (seed > std::numeric_limits<uint32_t>::max()) {
      throw std::invalid_argument("seed " + std::to_string(seed) +
                                  " out of np.random.seed's range [0, 2**32)");
    }
    NumpyRandomState random(static_cast<uint32_t>(seed));
    if (def_.one_goal) {  // the constructor's reset(): reset_model twice
      const TaskSpec& spec = ClassOf(layout_.tasks[0]).spec;
      SawyerEnv::DrawRandVec(spec, blas_, &random);
      return {SawyerEnv::DrawRandVec(spec, blas_, &random)};
    }
    std::vector<std::vector<double>> goals;
    for (int t = 0; t <= task_; ++t) {
      goals =
          SawyerEnv::DrawGoals(ClassOf(layout_.tasks[t]).spec, blas_, &random);
    }
    if (!def_.meta_learning) return goals;
    // _make_ml_envs_inner: tasks[:total_tasks_per_cls][j::tasks_per_env].
    const int j = position_ % layout_.tasks_per_env;
    std::vector<std::vector<double>> mine;
    for (int g = j; g < layout_.goals_per_task; g += layout_.tasks_per_env) {
      mine.push_back(goals[static_cast<std::size_t>(g)]);
    }
    return mine;
  }

  BenchmarkDef def_;
  Layout layout_;
  Config config_;  // the options, for the task envs
  const NumpyBlas& blas_;
  int home_position_ = 0;  // the sub-env the env's id makes it
  int position_ = 0;       // p: the sub-env of its benchmark copy
  int task_ = 0;           // the index of its task in the benchmark
  bool sample_on_reset_ = false;
  std::unique_ptr<SawyerEnv> env_;
};

// One registered benchmark id: BenchmarkEnv with its definition.
template <const BenchmarkDef& (*Def)()>
class Benchmark : public BenchmarkEnv {
 public:
  static Config DefaultConfig() { return BenchmarkConfig(Def()); }
  static EnvSpec MakeSpec(const Config& config) {
    return BenchmarkSpec(Def(), config);
  }
  Benchmark(const Config& config, uint64_t seed, EnvIndex env_id)
      : BenchmarkEnv(Def(), config, seed, env_id) {}
};

}  // namespace metaworld
}  // namespace envpool_lite
