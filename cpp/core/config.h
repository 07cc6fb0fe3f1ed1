// Config: an env's options by name (bool, int, float or string), with the
// defaults each env declares and the values a user passed to make().
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>

namespace envpool_lite {

using OptionValue = std::variant<bool, int64_t, double, std::string>;

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
  int64_t GetInt(const std::string& name) const {
    const OptionValue& v = Raw(name);
    if (auto* i = std::get_if<int64_t>(&v)) return *i;
    if (auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    if (auto* d = std::get_if<double>(&v)) {
      if (static_cast<double>(static_cast<int64_t>(*d)) == *d) {
        return static_cast<int64_t>(*d);
      }
    }
    throw std::invalid_argument("option '" + name + "' must be an int");
  }
  double GetFloat(const std::string& name) const {
    const OptionValue& v = Raw(name);
    if (auto* d = std::get_if<double>(&v)) return *d;
    if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
    throw std::invalid_argument("option '" + name + "' must be a float");
  }
  const std::string& GetString(const std::string& name) const {
    const OptionValue& v = Raw(name);
    if (auto* s = std::get_if<std::string>(&v)) return *s;
    throw std::invalid_argument("option '" + name + "' must be a string");
  }

 private:
  std::map<std::string, OptionValue> values_;
};

}  // namespace envpool_lite
