// Registry: task id -> how to validate options, describe and build the env,
// and the family the task belongs to. Each family lists its tasks in its own
// cpp/envs/<family>/registration.cc (a function Register<Family>(Registry&));
// cpp/envs/registration.cc calls each family's function through AddFamily,
// which stamps the family's name on every task it adds, and holds the one
// registry of every task built (GlobalRegistry(), cpp/envs/registration.h:
// the engine knows no family). Python reads the family of a task
// (_core.task_family) to find the family's module,
// python/envpool_lite/families/<family>.py.
// Registering an env class E needs three static members:
//   static Config DefaultConfig();                 // every option, defaulted
//   static EnvSpec MakeSpec(const Config& config); // validates, throws
//                                                  // std::invalid_argument
//   E(const Config& config, uint64_t seed);        // one env instance
// or, for an env that needs its place in the pool (Meta-World's benchmark
// pools pick each env's task by it):
//   E(const Config& config, uint64_t seed, EnvIndex env_id);
// (a type of its own: an int would also match a constructor whose third
// parameter means something else, such as a bool with a default).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config.h"
#include "env.h"

namespace envpool_lite {

struct EnvDescriptor {
  std::string task_id;
  std::string family;  // "atari", "toy_text", ...: a folder of cpp/envs/
  Config defaults;     // every option the env accepts, with its default
  std::function<EnvSpec(const Config&)> make_spec;
  // env_id: the env's index in the pool (a Ray worker's envs keep their
  // index in the whole pool).
  std::function<std::unique_ptr<Env>(const Config&, uint64_t seed, int env_id)>
      make_env;
};

class Registry {
 public:
  template <typename E>
  void Add(const std::string& task_id, const Config& overrides = {}) {
    Config defaults = E::DefaultConfig();
    for (const auto& [name, value] : overrides.Values()) {
      defaults.Set(name, value);
    }
    if (family_.empty()) {
      throw std::logic_error("Registry::Add(\"" + task_id +
                             "\") outside AddFamily()");
    }
    if (envs_.count(task_id) > 0) {
      throw std::logic_error("task '" + task_id + "' registered twice");
    }
    EnvDescriptor d;
    d.task_id = task_id;
    d.family = family_;
    d.defaults = std::move(defaults);
    d.make_spec = [](const Config& c) { return E::MakeSpec(c); };
    d.make_env = [](const Config& c, uint64_t seed,
                    int env_id) -> std::unique_ptr<Env> {
      if constexpr (std::is_constructible_v<E, const Config&, uint64_t,
                                            EnvIndex>) {
        return std::make_unique<E>(c, seed, EnvIndex{env_id});
      } else {
        (void)env_id;
        return std::make_unique<E>(c, seed);
      }
    };
    envs_[task_id] = std::move(d);
  }

  // Runs a family's registration function; every task it adds belongs to
  // `family`.
  void AddFamily(const std::string& family, void (*register_tasks)(Registry&)) {
    family_ = family;
    register_tasks(*this);
    family_.clear();
  }

  const EnvDescriptor& Get(const std::string& task_id) const {
    auto it = envs_.find(task_id);
    if (it == envs_.end()) {
      throw std::invalid_argument("unknown task '" + task_id + "'");
    }
    return it->second;
  }

  std::vector<std::string> TaskIds() const {
    std::vector<std::string> ids;
    for (const auto& [id, d] : envs_) ids.push_back(id);
    return ids;
  }

 private:
  std::map<std::string, EnvDescriptor> envs_;
  std::string family_;  // the family being registered (AddFamily)
};

}  // namespace envpool_lite
