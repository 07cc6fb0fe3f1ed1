// Config: an env's options by name, with the defaults each env declares and
// the values a user passed to make(). Every option is a typed value: a
// scalar (bool, int, float, string) or a structured one (a list of numbers
// or of strings, a table), never a string the env parses again. The type of
// an option is the type of its default: make() converts what the user
// passes to it, or raises TypeError naming the option.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace envpool_lite {

// Numbers in order: a range such as MuJoCo's healthy_z_range (low, high).
using NumberList = std::vector<double>;
// Strings in order: FrozenLake's desc (its rows), ViZDoom's game_variables.
using StringList = std::vector<std::string>;
// Tables, in the order the user gave them (a Python dict's), with distinct
// keys. Numbers by name: ViZDoom's reward_config {"HEALTH": (pos, neg), ...}.
using NamedNumbers = std::vector<std::pair<std::string, std::vector<double>>>;
// A number by integer key: ViZDoom's selected_weapon_reward_config
// {slot: reward, ...}.
using IntKeyedNumbers = std::vector<std::pair<int64_t, double>>;

using OptionValue = std::variant<bool, int64_t, double, std::string, NumberList,
                                 StringList, NamedNumbers, IntKeyedNumbers>;

// The name of each alternative of OptionValue, in order (Python's
// _core.task_options reports these).
inline const char* OptionTypeName(const OptionValue& v) {
  static const char* const kNames[] = {
      "bool",        "int",         "float",         "str",
      "number_list", "string_list", "named_numbers", "int_keyed_numbers"};
  return kNames[v.index()];
}

class Config {
 public:
  Config() = default;
  Config(std::initializer_list<std::pair<const std::string, OptionValue>> init)
      : values_(init) {}

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  void Set(const std::string& name, OptionValue value) {
    values_[name] = std::move(value);
  }
  const std::map<std::string, OptionValue>& Values() const { return values_; }

  const OptionValue& Raw(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) {
      throw std::invalid_argument("unknown option '" + name + "'");
    }
    return it->second;
  }

  bool GetBool(const std::string& name) const {
    const OptionValue& v = Raw(name);
    if (auto* b = std::get_if<bool>(&v)) return *b;
    if (auto* i = std::get_if<int64_t>(&v)) return *i != 0;
    throw std::invalid_argument("option '" + name + "' must be a bool");
  }
  // Every int option lands in a C++ int somewhere, so it must fit one:
  // 2**32 + 5 must not quietly become 5.
  int64_t GetInt(const std::string& name) const {
    return GetInt(name, std::numeric_limits<int32_t>::min(),
                  std::numeric_limits<int32_t>::max());
  }
  // An int option that must lie in [lo, hi]; the message names it.
  int64_t GetInt(const std::string& name, int64_t lo, int64_t hi) const {
    const OptionValue& v = Raw(name);
    int64_t value = 0;
    if (auto* i = std::get_if<int64_t>(&v)) {
      value = *i;
    } else if (auto* b = std::get_if<bool>(&v)) {
      value = *b ? 1 : 0;
    } else {
      throw std::invalid_argument("option '" + name + "' must be an int");
    }
    if (value < lo || value > hi) {
      throw std::invalid_argument(
          "option '" + name + "' must be in [" + std::to_string(lo) + ", " +
          std::to_string(hi) + "], got " + std::to_string(value));
    }
    return value;
  }
  // A float option: finite (NaN or inf would quietly poison every step).
  double GetFloat(const std::string& name) const {
    return GetFloat(name, -std::numeric_limits<double>::max(),
                    std::numeric_limits<double>::max());
  }
  // A float option that must lie in [lo, hi]; the message names it.
  double GetFloat(const std::string& name, double lo, double hi) const {
    const OptionValue& v = Raw(name);
    double value = 0.0;
    if (auto* d = std::get_if<double>(&v)) {
      value = *d;
    } else if (auto* i = std::get_if<int64_t>(&v)) {
      value = static_cast<double>(*i);
    } else {
      throw std::invalid_argument("option '" + name + "' must be a float");
    }
    if (!(value >= lo && value <= hi)) {  // NaN fails too
      std::ostringstream msg;
      msg << "option '" << name << "' must be ";
      if (lo == -std::numeric_limits<double>::max() &&
          hi == std::numeric_limits<double>::max()) {
        msg << "a finite number";
      } else if (std::isinf(lo) && std::isinf(hi)) {
        msg << "a number (not NaN)";
      } else {
        msg << "in [" << lo << ", " << hi << "]";
      }
      msg << ", got " << value;
      throw std::invalid_argument(msg.str());
    }
    return value;
  }
  // A (low, high) option: two numbers, not NaN (infinities allowed).
  std::pair<double, double> GetFloatPair(const std::string& name) const {
    const OptionValue& v = Raw(name);
    const auto* p = std::get_if<NumberList>(&v);
    if (p == nullptr || p->size() != 2 || std::isnan((*p)[0]) ||
        std::isnan((*p)[1])) {
      throw std::invalid_argument("option '" + name +
                                  "' must be a pair of numbers (low, high)");
    }
    return {(*p)[0], (*p)[1]};
  }
  const std::string& GetString(const std::string& name) const {
    return Get<std::string>(name, "a string");
  }
  const NumberList& GetNumberList(const std::string& name) const {
    return Get<NumberList>(name, "a list of numbers");
  }
  const StringList& GetStringList(const std::string& name) const {
    return Get<StringList>(name, "a list of strings");
  }
  const NamedNumbers& GetNamedNumbers(const std::string& name) const {
    return Get<NamedNumbers>(name, "a table {name: (numbers...)}");
  }
  const IntKeyedNumbers& GetIntKeyedNumbers(const std::string& name) const {
    return Get<IntKeyedNumbers>(name, "a table {int: number}");
  }

 private:
  template <typename T>
  const T& Get(const std::string& name, const char* what) const {
    const OptionValue& v = Raw(name);
    if (auto* p = std::get_if<T>(&v)) return *p;
    throw std::invalid_argument("option '" + name + "' must be " + what);
  }

  std::map<std::string, OptionValue> values_;
};

}  // namespace envpool_lite
