// envpool_lite._core: option conversion: the Python values make() hands
// over (python/envpool_lite/spec.py has checked and normalised them) as the
// typed Config values of the task's defaults, and back.
#include "bindings/options.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "core/registry.h"

namespace envpool_lite {

py::object OptionToPy(const OptionValue& v) {
  if (auto* b = std::get_if<bool>(&v)) return py::bool_(*b);
  if (auto* i = std::get_if<int64_t>(&v)) return py::int_(*i);
  if (auto* d = std::get_if<double>(&v)) return py::float_(*d);
  if (auto* s = std::get_if<std::string>(&v)) return py::str(*s);
  if (auto* t = std::get_if<NumberList>(&v)) return py::tuple(py::cast(*t));
  if (auto* t = std::get_if<StringList>(&v)) return py::tuple(py::cast(*t));
  if (auto* t = std::get_if<NamedNumbers>(&v)) {
    py::dict out;
    for (const auto& [k, numbers] : *t)
      out[py::str(k)] = py::tuple(py::cast(numbers));
    return std::move(out);
  }
  py::dict out;
  for (const auto& [k, number] : std::get<IntKeyedNumbers>(v)) {
    out[py::int_(k)] = py::float_(number);
  }
  return std::move(out);
}

namespace {

[[noreturn]] void BadOption(const std::string& name, const char* what,
                            const py::handle& h) {
  throw py::type_error("option '" + name + "' must be " + what + ", got " +
                       std::string(py::repr(h)));
}

// A Python int or float (not a bool): spec.py hands over plain numbers.
double NumberFromPy(const std::string& name, const char* what,
                    const py::handle& h) {
  if (py::isinstance<py::bool_>(h) ||
      !(py::isinstance<py::float_>(h) || py::isinstance<py::int_>(h))) {
    BadOption(name, what, h);
  }
  return h.cast<double>();
}

std::vector<double> NumbersFromPy(const std::string& name, const char* what,
                                  const py::handle& h) {
  if (py::isinstance<py::str>(h) || !py::isinstance<py::iterable>(h)) {
    BadOption(name, what, h);
  }
  std::vector<double> out;
  for (auto item : h) out.push_back(NumberFromPy(name, what, item));
  return out;
}

// The user's value as the type of the option's default (`like`): make()
// hands over typed values (python/envpool_lite/spec.py has already checked
// and normalised them), so this only converts, and refuses anything else.
OptionValue OptionFromPy(const std::string& name, const py::handle& h,
                         const OptionValue& like) {
  if (std::holds_alternative<bool>(like)) {
    if (!py::isinstance<py::bool_>(h)) BadOption(name, "a bool", h);
    return h.cast<bool>();
  }
  if (std::holds_alternative<int64_t>(like)) {
    if (py::isinstance<py::bool_>(h) || !py::isinstance<py::int_>(h)) {
      BadOption(name, "an int", h);
    }
    try {
      return h.cast<int64_t>();
    } catch (const py::cast_error&) {
      throw py::value_error("option '" + name +
                            "' = " + std::string(py::str(h)) +
                            " does not fit a 64-bit int");
    }
  }
  if (std::holds_alternative<double>(like)) {
    return NumberFromPy(name, "a float", h);
  }
  // (bytes too: a family's internal options carry file contents, e.g.
  // dm_control's model assets.)
  if (std::holds_alternative<std::string>(like)) {
    if (!py::isinstance<py::str>(h) && !py::isinstance<py::bytes>(h)) {
      BadOption(name, "a str", h);
    }
    return h.cast<std::string>();
  }
  if (std::holds_alternative<NumberList>(like)) {
    return NumbersFromPy(name, "a tuple of numbers", h);
  }
  if (std::holds_alternative<StringList>(like)) {
    const char* what = "a list of str";
    if (py::isinstance<py::str>(h) || !py::isinstance<py::iterable>(h)) {
      BadOption(name, what, h);
    }
    StringList out;
    for (auto item : h) {
      if (!py::isinstance<py::str>(item) && !py::isinstance<py::bytes>(item)) {
        BadOption(name, what, h);
      }
      out.push_back(item.cast<std::string>());
    }
    return out;
  }
  if (std::holds_alternative<NamedNumbers>(like)) {
    const char* what = "a dict {str: tuple of numbers}";
    if (!py::isinstance<py::dict>(h)) BadOption(name, what, h);
    NamedNumbers out;
    for (auto [k, v] : h.cast<py::dict>()) {
      if (!py::isinstance<py::str>(k)) BadOption(name, what, h);
      out.emplace_back(k.cast<std::string>(), NumbersFromPy(name, what, v));
    }
    return out;
  }
  const char* what = "a dict {int: number}";
  if (!py::isinstance<py::dict>(h)) BadOption(name, what, h);
  IntKeyedNumbers out;
  for (auto [k, v] : h.cast<py::dict>()) {
    if (py::isinstance<py::bool_>(k) || !py::isinstance<py::int_>(k)) {
      BadOption(name, what, h);
    }
    out.emplace_back(k.cast<int64_t>(), NumberFromPy(name, what, v));
  }
  return out;
}

}  // namespace

Config ConfigFromPy(const EnvDescriptor& d, const py::dict& options) {
  Config config = d.defaults;
  for (auto item : options) {
    std::string name = py::str(item.first);
    if (!config.Has(name)) {
      throw py::type_error("unknown option '" + name + "' for " + d.task_id);
    }
    config.Set(name, OptionFromPy(name, item.second, config.Raw(name)));
  }
  return config;
}

}  // namespace envpool_lite
