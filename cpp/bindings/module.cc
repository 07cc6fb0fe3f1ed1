// envpool_lite._core: the Python face of EnvPool. Converts and validates
// actions and env ids, releases the GIL while waiting, and hands batches to
// numpy without copying (every array of a batch shares one capsule that
// returns the block to the pool when the last array dies).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/env_pool.h"
#include "core/registry.h"
#include "envs/common/image.h"
#include "xla/xla_bridge.h"

namespace py = pybind11;

namespace envpool_lite {
namespace {

py::dtype NumpyDType(DType d) { return py::dtype(DTypeName(d)); }

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

py::dict ArraySpecToPy(const ArraySpec& s) {
  py::dict out;
  out["name"] = s.name;
  out["dtype"] = DTypeName(s.dtype);
  out["shape"] = py::tuple(py::cast(s.shape));
  out["low"] = s.low;
  out["high"] = s.high;
  out["num_values"] = s.num_values;
  return out;
}

py::dict EnvSpecToPy(const EnvSpec& spec) {
  py::dict out;
  out["obs"] = ArraySpecToPy(spec.obs);
  py::list obs_dict;
  for (const ArraySpec& s : spec.obs_dict) obs_dict.append(ArraySpecToPy(s));
  out["obs_dict"] = obs_dict;
  out["action"] = ArraySpecToPy(spec.action);
  py::list info;
  for (const ArraySpec& s : spec.info) info.append(ArraySpecToPy(s));
  out["info"] = info;
  out["max_episode_steps"] = spec.max_episode_steps;
  out["render_shape"] = py::make_tuple(spec.render_height, spec.render_width);
  out["reward_dtype"] = spec.reward_float64 ? "float64" : "float32";
  return out;
}

[[noreturn]] inline void ThrowNonFinite(double v, const char* dtype) {
  std::ostringstream msg;
  msg << "action value " << v << " is not a finite " << dtype
      << (std::isfinite(v) ? " (beyond the range of the action space's dtype)"
                           : "");
  throw py::value_error(msg.str());
}

// Copies `src` (any numeric numpy array, C-contiguous) into `dst` as the
// action spec's dtype, validating each value.
template <typename Src>
void ConvertAction(const Src* src, std::size_t n, const ArraySpec& spec,
                   char* dst) {
  switch (spec.dtype) {
    case DType::kInt32: {
      auto* out = reinterpret_cast<int32_t*>(dst);
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<Src>) {
          // EnvPool takes float arrays for discrete actions: whole numbers
          // in range are those actions; anything else is an error.
          const double v = static_cast<double>(src[i]);
          if (!(v == std::floor(v) && v >= 0 &&
                (spec.num_values > 0
                     ? v < static_cast<double>(spec.num_values)
                     : v <= std::numeric_limits<int32_t>::max()))) {
            std::ostringstream msg;
            msg << "action " << v << " is not one of Discrete("
                << spec.num_values << ") (a float action must be a whole "
                << "number in range)";
            throw py::value_error(msg.str());
          }
          out[i] = static_cast<int32_t>(v);
        } else {
          auto v = src[i];
          // Compared in the source's own signedness: a huge uint64 is
          // reported as given, not wrapped to a negative number.
          bool ok;
          if constexpr (std::is_signed_v<Src>) {
            ok = spec.num_values > 0
                     ? (v >= 0 && static_cast<int64_t>(v) < spec.num_values)
                     : (static_cast<int64_t>(v) >=
                            std::numeric_limits<int32_t>::min() &&
                        static_cast<int64_t>(v) <=
                            std::numeric_limits<int32_t>::max());
          } else {
            ok = spec.num_values > 0
                     ? static_cast<uint64_t>(v) <
                           static_cast<uint64_t>(spec.num_values)
                     : static_cast<uint64_t>(v) <=
                           static_cast<uint64_t>(
                               std::numeric_limits<int32_t>::max());
          }
          if (!ok) {
            throw py::value_error("action " + std::to_string(v) +
                                  " out of range for Discrete(" +
                                  std::to_string(spec.num_values) + ")");
          }
          out[i] = static_cast<int32_t>(v);
        }
      }
      return;
    }
    case DType::kFloat32:
    case DType::kFloat64: {
      // The finiteness check applies to the value the env will see: a
      // float64 beyond float32's range would become inf.
      for (std::size_t i = 0; i < n; ++i) {
        if (spec.dtype == DType::kFloat32) {
          const float v = static_cast<float>(src[i]);
          if (!std::isfinite(v))
            ThrowNonFinite(static_cast<double>(src[i]), "float32");
          reinterpret_cast<float*>(dst)[i] = v;
        } else {
          const double v = static_cast<double>(src[i]);
          if (!std::isfinite(v)) ThrowNonFinite(v, "float64");
          reinterpret_cast<double*>(dst)[i] = v;
        }
      }
      return;
    }
    default:
      throw std::logic_error("unsupported action dtype");
  }
}

// Validates `action` (n actions of `spec`) and writes them to `dst` in the
// spec's dtype; raises before writing on a bad shape, dtype or value.
void ConvertActionsInto(const ArraySpec& spec, const py::object& action,
                        std::size_t n, char* dst) {
  // Aligned and in this machine's byte order: a big-endian array is
  // converted (by numpy), never read as if it were little-endian.
  py::array arr = py::array::ensure(
      action, py::array::c_style | py::detail::npy_api::NPY_ARRAY_ALIGNED_);
  if (!arr) throw py::type_error("action must be array-like");
  // numpy converts what the dispatch below does not read: a foreign byte
  // order (to this machine's) and float16 / longdouble (to float64).
  py::dtype dt = arr.dtype();
  const bool foreign_order =
      dt.byteorder() == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '>' : '<');
  const bool odd_float =
      dt.kind() == 'f' && dt.itemsize() != 4 && dt.itemsize() != 8;
  if (foreign_order || odd_float) {
    arr =
        py::array(arr.attr("astype")(odd_float ? py::object(py::str("float64"))
                                               : dt.attr("newbyteorder")("=")));
    dt = arr.dtype();
  }
  // Expected shape: (n, *spec.shape).
  bool shape_ok =
      arr.ndim() == static_cast<py::ssize_t>(1 + spec.shape.size()) &&
      arr.shape(0) == static_cast<py::ssize_t>(n);
  for (std::size_t d = 0; shape_ok && d < spec.shape.size(); ++d) {
    shape_ok = arr.shape(d + 1) == spec.shape[d];
  }
  if (!shape_ok) {
    std::string want = "(" + std::to_string(n);
    for (int64_t d : spec.shape) want += ", " + std::to_string(d);
    want += spec.shape.empty() ? ",)" : ")";
    std::string got = py::str(py::tuple(py::cast(
        std::vector<py::ssize_t>(arr.shape(), arr.shape() + arr.ndim()))));
    throw py::value_error("action has shape " + got + ", expected " + want +
                          " (one action per env id)");
  }
  std::size_t count = static_cast<std::size_t>(arr.size());
  const void* src = arr.data();
  char kind = dt.kind();
  int size = static_cast<int>(dt.itemsize());
  if (kind == 'b') {
    ConvertAction(static_cast<const uint8_t*>(src), count, spec, dst);
  } else if (kind == 'i') {
    if (size == 1)
      ConvertAction(static_cast<const int8_t*>(src), count, spec, dst);
    else if (size == 2)
      ConvertAction(static_cast<const int16_t*>(src), count, spec, dst);
    else if (size == 4)
      ConvertAction(static_cast<const int32_t*>(src), count, spec, dst);
    else
      ConvertAction(static_cast<const int64_t*>(src), count, spec, dst);
  } else if (kind == 'u') {
    if (size == 1)
      ConvertAction(static_cast<const uint8_t*>(src), count, spec, dst);
    else if (size == 2)
      ConvertAction(static_cast<const uint16_t*>(src), count, spec, dst);
    else if (size == 4)
      ConvertAction(static_cast<const uint32_t*>(src), count, spec, dst);
    else
      ConvertAction(static_cast<const uint64_t*>(src), count, spec, dst);
  } else if (kind == 'f' && size == 4) {
    ConvertAction(static_cast<const float*>(src), count, spec, dst);
  } else if (kind == 'f' && size == 8) {
    ConvertAction(static_cast<const double*>(src), count, spec, dst);
  } else {
    throw py::type_error("action has unsupported dtype " +
                         std::string(py::str(dt)));
  }
}

// One env stepped in a tight C++ loop on the calling thread, with random
// actions and the pool's episode handling: the per-core limit the benchmark
// compares pools against.
double SingleThreadStepsPerSecond(const std::string& task_id,
                                  const py::dict& options, int64_t steps,
                                  uint64_t seed) {
  if (steps < 1) throw py::value_error("steps must be >= 1");
  const EnvDescriptor& d = GlobalRegistry().Get(task_id);
  Config config = ConfigFromPy(d, options);
  EnvSpec spec = d.make_spec(config);
  py::gil_scoped_release release;
  std::unique_ptr<Env> env = d.make_env(config, seed);

  // Random actions, drawn before timing.
  const std::size_t row = spec.action.NumBytes();
  const std::size_t n_actions = 1024;
  std::vector<char> actions(n_actions * row);
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < n_actions * spec.action.NumElements(); ++i) {
    if (spec.action.IsDiscrete()) {
      reinterpret_cast<int32_t*>(actions.data())[i] =
          static_cast<int32_t>(rng() % spec.action.num_values);
    } else {
      double lo = spec.action.low.empty() ? -1.0 : spec.action.low[0];
      double hi = spec.action.high.empty() ? 1.0 : spec.action.high[0];
      double u = std::uniform_real_distribution<double>(lo, hi)(rng);
      if (spec.action.dtype == DType::kFloat32) {
        reinterpret_cast<float*>(actions.data())[i] = static_cast<float>(u);
      } else {
        reinterpret_cast<double*>(actions.data())[i] = u;
      }
    }
  }
  // Where WriteObs writes, as in a batch row.
  std::vector<std::vector<char>> obs_rows;
  std::vector<void*> obs;
  for (const ArraySpec& s : spec.obs_dict.empty()
                                ? std::vector<ArraySpec>{spec.obs}
                                : spec.obs_dict) {
    obs_rows.emplace_back(s.NumBytes() + 64);
    obs.push_back(obs_rows.back().data());
  }
  std::vector<std::vector<char>> info_rows;
  std::vector<void*> info;
  for (const ArraySpec& s : spec.info) {
    info_rows.emplace_back(s.NumBytes() + 64);
    info.push_back(info_rows.back().data());
  }
  Row out(obs.data(), info.data());

  env->Reset();
  env->WriteObs(out);
  int64_t elapsed = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < steps; ++i) {
    StepResult r = env->Step(&actions[(i % n_actions) * row]);
    ++elapsed;
    if (r.terminated ||
        (spec.max_episode_steps > 0 && elapsed >= spec.max_episode_steps)) {
      env->Reset();
      elapsed = 0;
    }
    env->WriteObs(out);
  }
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return static_cast<double>(steps) / secs;
}

// A task's action checks without a pool: the distributed pool
// (python/envpool_lite/distributed.py) validates and converts actions in
// the caller's process, before anything is sent to a worker.
class PyActionConverter {
 public:
  PyActionConverter(const std::string& task_id, const py::dict& options) {
    const EnvDescriptor& d = GlobalRegistry().Get(task_id);
    spec_ = d.make_spec(ConfigFromPy(d, options)).action;
  }

  // (n, *shape) in the action space's dtype.
  py::array Convert(const py::object& action, std::size_t n) const {
    std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(n)};
    shape.insert(shape.end(), spec_.shape.begin(), spec_.shape.end());
    py::array out(NumpyDType(spec_.dtype), shape);
    ConvertActionsInto(spec_, action, n,
                       static_cast<char*>(out.mutable_data()));
    return out;
  }

 private:
  ArraySpec spec_;
};

// ---- xla(): the pools the XLA FFI handlers reach (cpp/xla/xla_bridge.h) ----

class XlaPoolRegistry {
 public:
  int64_t Add(const std::shared_ptr<EnvPool>& pool) {
    std::lock_guard<std::mutex> lock(mutex_);
    const int64_t id = next_id_++;
    pools_[id] = pool;
    return id;
  }
  void Remove(int64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    pools_.erase(id);
  }
  // The pool, kept alive for the call; null once its Python pool is gone.
  std::shared_ptr<EnvPool> Get(int64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pools_.find(id);
    return it == pools_.end() ? nullptr : it->second.lock();
  }

 private:
  std::mutex mutex_;
  int64_t next_id_ = 1;
  std::unordered_map<int64_t, std::weak_ptr<EnvPool>> pools_;
};

XlaPoolRegistry& XlaPools() {
  static XlaPoolRegistry* registry = new XlaPoolRegistry();  // never freed
  return *registry;
}

thread_local std::string xla_error;

const char* XlaError(const std::string& message) {
  xla_error = message;
  return xla_error.c_str();
}

std::shared_ptr<EnvPool> XlaPool(int64_t id, std::string* error) {
  std::shared_ptr<EnvPool> pool = XlaPools().Get(id);
  if (pool == nullptr) {
    *error = "this xla() handle's pool no longer exists";
  } else if (pool->Closed()) {
    *error = "the env pool is closed (this xla() handle's pool)";
    pool = nullptr;
  }
  return pool;
}

// The actions of n envs, converted and validated as send() from Python
// does; throws std::invalid_argument with send()'s message.
std::vector<char> XlaActions(const EnvPool& pool, const void* actions,
                             int32_t dtype, int64_t elements, int32_t n) {
  const ArraySpec& spec = pool.Spec().action;
  const int64_t per_env = static_cast<int64_t>(spec.NumElements());
  if (elements != per_env * n) {
    throw std::invalid_argument("send(): " + std::to_string(elements) +
                                " action values for " + std::to_string(n) +
                                " env ids, expected " +
                                std::to_string(per_env * n));
  }
  std::vector<char> converted(static_cast<std::size_t>(n) * spec.NumBytes());
  const auto count = static_cast<std::size_t>(elements);
  switch (dtype) {
    case kEnvpoolLiteXlaBool:
    case kEnvpoolLiteXlaUint8:
      ConvertAction(static_cast<const uint8_t*>(actions), count, spec,
                    converted.data());
      break;
    case kEnvpoolLiteXlaInt8:
      ConvertAction(static_cast<const int8_t*>(actions), count, spec,
                    converted.data());
      break;
    case kEnvpoolLiteXlaInt32:
      ConvertAction(static_cast<const int32_t*>(actions), count, spec,
                    converted.data());
      break;
    case kEnvpoolLiteXlaInt64:
      ConvertAction(static_cast<const int64_t*>(actions), count, spec,
                    converted.data());
      break;
    case kEnvpoolLiteXlaFloat32:
      ConvertAction(static_cast<const float*>(actions), count, spec,
                    converted.data());
      break;
    case kEnvpoolLiteXlaFloat64:
      ConvertAction(static_cast<const double*>(actions), count, spec,
                    converted.data());
      break;
    default:
      throw std::invalid_argument("send(): unsupported action element type");
  }
  return converted;
}

const char* XlaSend(int64_t pool_id, const void* actions, int32_t dtype,
                    int64_t elements, const int32_t* env_ids, int32_t n) {
  try {
    std::string error;
    std::shared_ptr<EnvPool> pool = XlaPool(pool_id, &error);
    if (pool == nullptr) return XlaError(error);
    std::vector<char> converted =
        XlaActions(*pool, actions, dtype, elements, n);
    pool->Send(env_ids, n, converted.data());
    return nullptr;
  } catch (const std::exception& e) {
    return XlaError(e.what());
  }
}

template <typename To, typename From>
void XlaCopyAs(const char* src, void* dst, std::size_t n) {
  const auto* in = reinterpret_cast<const From*>(src);
  auto* out = static_cast<To*>(dst);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<To>(in[i]);
}

// The traced call's outputs must match the pool's fields in number.
void XlaCheckOutputs(const EnvPool& pool, int32_t num_outputs) {
  if (num_outputs != static_cast<int32_t>(pool.Fields().size())) {
    throw std::invalid_argument(
        "recv(): the traced call expects " + std::to_string(num_outputs) +
        " fields, the pool has " + std::to_string(pool.Fields().size()));
  }
}

// Copies the batch's fields into the outputs (converting float64 / int64 to
// float32 / int32 where the traced call asks), except those in `skip`
// (written there already), and gives the block back.
const char* XlaCopyOut(const EnvPool& pool, Batch& batch, int32_t rows,
                       int32_t num_outputs, void* const* outputs,
                       const int32_t* dtypes, char* const* skip) {
  const auto& fields = pool.Fields();
  const char* error = nullptr;
  for (int32_t f = 0; f < num_outputs && error == nullptr; ++f) {
    if (skip != nullptr && skip[f] != nullptr) continue;
    const ArraySpec& spec = fields[f].spec;
    const char* src = batch.block->Field(f);
    const std::size_t n = static_cast<std::size_t>(rows) * spec.NumElements();
    const int32_t have = static_cast<int32_t>(spec.dtype);
    if (dtypes[f] == have) {
      std::memcpy(outputs[f], src, n * DTypeSize(spec.dtype));
    } else if (dtypes[f] == kEnvpoolLiteXlaFloat32 &&
               have == kEnvpoolLiteXlaFloat64) {
      XlaCopyAs<float, double>(src, outputs[f], n);
    } else if (dtypes[f] == kEnvpoolLiteXlaInt32 &&
               have == kEnvpoolLiteXlaInt64) {
      XlaCopyAs<int32_t, int64_t>(src, outputs[f], n);
    } else {
      error = XlaError("recv(): field '" + spec.name +
                       "' has another element type than the traced call's");
    }
  }
  batch.pool->Put(std::move(batch.block));
  return error;
}

const char* XlaRecv(int64_t pool_id, int32_t rows, int32_t num_outputs,
                    void* const* outputs, const int32_t* dtypes) {
  try {
    std::string error;
    std::shared_ptr<EnvPool> pool = XlaPool(pool_id, &error);
    if (pool == nullptr) return XlaError(error);
    XlaCheckOutputs(*pool, num_outputs);
    const int target = std::min(pool->BatchSize(), pool->InFlight());
    if (target != rows) {
      return XlaError("recv(): " + std::to_string(pool->InFlight()) +
                      " envs in flight, the traced call expects a batch of " +
                      std::to_string(rows) +
                      " (send() actions for a whole batch first)");
    }
    // Inside XLA there is no Python to poll for Ctrl-C.
    Batch batch = pool->Recv(-1, [] {});
    return XlaCopyOut(*pool, batch, rows, num_outputs, outputs, dtypes,
                      nullptr);
  } catch (const std::exception& e) {
    return XlaError(e.what());
  }
}

const char* XlaStep(int64_t pool_id, const void* actions, int32_t dtype,
                    int64_t elements, int32_t rows, int32_t num_outputs,
                    void* const* outputs, const int32_t* dtypes) {
  try {
    std::string error;
    std::shared_ptr<EnvPool> pool = XlaPool(pool_id, &error);
    if (pool == nullptr) return XlaError(error);
    XlaCheckOutputs(*pool, num_outputs);
    const int32_t n = pool->NumEnvs();
    std::vector<char> converted =
        XlaActions(*pool, actions, dtype, elements, n);
    std::vector<int32_t> ids(static_cast<std::size_t>(n));
    for (int32_t i = 0; i < n; ++i) ids[i] = i;
    if (rows != n || !pool->CanStepDirect()) {
      pool->Send(ids.data(), n, converted.data());
      return XlaRecv(pool_id, rows, num_outputs, outputs, dtypes);
    }
    // Fields of the traced call's own element type: written in place.
    std::vector<char*> direct(static_cast<std::size_t>(num_outputs), nullptr);
    const auto& fields = pool->Fields();
    for (int32_t f = 0; f < num_outputs; ++f) {
      if (dtypes[f] == static_cast<int32_t>(fields[f].spec.dtype)) {
        direct[f] = static_cast<char*>(outputs[f]);
      }
    }
    Batch batch = pool->StepDirect(ids.data(), converted.data(), direct.data());
    return XlaCopyOut(*pool, batch, rows, num_outputs, outputs, dtypes,
                      direct.data());
  } catch (const std::exception& e) {
    return XlaError(e.what());
  }
}

const EnvpoolLiteXlaBridge kXlaBridge = {ENVPOOL_LITE_XLA_BRIDGE_VERSION,
                                         &XlaSend, &XlaRecv, &XlaStep};
static_assert(static_cast<int>(DType::kBool) == kEnvpoolLiteXlaBool &&
                  static_cast<int>(DType::kUint8) == kEnvpoolLiteXlaUint8 &&
                  static_cast<int>(DType::kInt32) == kEnvpoolLiteXlaInt32 &&
                  static_cast<int>(DType::kInt64) == kEnvpoolLiteXlaInt64 &&
                  static_cast<int>(DType::kFloat32) == kEnvpoolLiteXlaFloat32 &&
                  static_cast<int>(DType::kFloat64) == kEnvpoolLiteXlaFloat64 &&
                  static_cast<int>(DType::kInt8) == kEnvpoolLiteXlaInt8,
              "xla_bridge.h numbers element types as DType does");

class PyEnvPool {
 public:
  PyEnvPool(const std::string& task_id, const py::dict& options,
            const std::vector<uint64_t>& seeds, int num_envs, int batch_size,
            int num_threads, int thread_affinity_offset,
            bool same_step_autoreset, bool render)
      : descriptor_(GlobalRegistry().Get(task_id)) {
    Config config = ConfigFromPy(descriptor_, options);
    PoolOptions po;
    po.num_envs = num_envs;
    po.batch_size = batch_size;
    po.num_threads = num_threads;
    po.thread_affinity_offset = thread_affinity_offset;
    po.same_step_autoreset = same_step_autoreset;
    po.render = render;
    po.seeds = seeds;
    {
      py::gil_scoped_release release;  // envs are built on worker threads
      pool_ = std::make_shared<EnvPool>(descriptor_, config, po);
    }
    for (const FieldLayout& f : pool_->Fields()) {
      dtypes_.push_back(NumpyDType(f.spec.dtype));
      field_names_.push_back(f.spec.name);
    }
    last_ids_.resize(pool_->BatchSize());
    all_ids_.resize(pool_->NumEnvs());
    for (int i = 0; i < pool_->NumEnvs(); ++i) all_ids_[i] = i;
    last_ids_ = all_ids_;
    action_scratch_.resize(pool_->NumEnvs() * pool_->Spec().action.NumBytes());
    // (A pool does not survive fork(), so this stays the main thread's.)
    main_thread_ident_ = py::module_::import("threading")
                             .attr("main_thread")()
                             .attr("ident")
                             .cast<unsigned long>();
  }

  void Send(const py::object& action, const py::object& env_id) {
    CheckOpen();
    std::vector<int32_t> ids = EnvIds(env_id);
    const char* actions = ConvertActions(action, ids.size());
    pool_->Send(ids.data(), static_cast<int>(ids.size()), actions);
  }

  void SendReset(const py::object& env_id, const py::object& seeds) {
    CheckOpen();
    std::vector<int32_t> ids = env_id.is_none() ? all_ids_ : EnvIds(env_id);
    if (seeds.is_none()) {
      pool_->SendReset(ids.data(), static_cast<int>(ids.size()), nullptr);
      return;
    }
    std::vector<uint64_t> s = seeds.cast<std::vector<uint64_t>>();
    if (s.size() != ids.size()) {
      throw py::value_error("need one seed per env id");
    }
    pool_->SendReset(ids.data(), static_cast<int>(ids.size()), s.data());
  }

  py::tuple Recv(const py::object& timeout) {
    CheckOpen();
    const int64_t timeout_ns = TimeoutNs(timeout);
    // Only the main thread runs Python's signal handlers (Ctrl-C): a
    // recv() on another thread (a trainer's sampler) never takes the GIL
    // to poll them.
    const bool on_main = PyThread_get_thread_ident() == main_thread_ident_;
    Batch batch;
    {
      py::gil_scoped_release release;
      batch = pool_->Recv(timeout_ns, [on_main] {
        if (!on_main) return;
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      });
    }
    return ToArrays(std::move(batch));
  }

  py::tuple Step(const py::object& action, const py::object& env_id,
                 const py::object& timeout) {
    Send(action, env_id);
    return Recv(timeout);
  }

  // (n, H, W, 3) uint8 pictures of the given envs (a new array: rendering
  // is not on the stepping path).
  py::array_t<uint8_t> Render(const py::object& env_id) {
    CheckOpen();
    const EnvSpec& spec = pool_->Spec();
    if (spec.render_height <= 0 || spec.render_width <= 0) {
      throw std::logic_error("this env does not draw its own picture");
    }
    std::vector<int32_t> ids = EnvIds(env_id);
    py::array_t<uint8_t> out(
        std::vector<py::ssize_t>{static_cast<py::ssize_t>(ids.size()),
                                 spec.render_height, spec.render_width, 3});
    uint8_t* data = out.mutable_data();
    {
      py::gil_scoped_release release;
      pool_->Render(ids.data(), static_cast<int>(ids.size()), data);
    }
    return out;
  }

  // (n, k) float64: the state a Python renderer draws each env from.
  py::array_t<double> RenderState(const py::object& env_id) {
    CheckOpen();
    std::vector<int32_t> ids = EnvIds(env_id);
    std::vector<std::vector<double>> states;
    for (int32_t id : ids) states.push_back(pool_->RenderState(id));
    const std::size_t k = states.empty() ? 0 : states[0].size();
    py::array_t<double> out(std::vector<py::ssize_t>{
        static_cast<py::ssize_t>(ids.size()), static_cast<py::ssize_t>(k)});
    double* data = out.mutable_data();
    for (std::size_t i = 0; i < states.size(); ++i) {
      std::copy(states[i].begin(), states[i].end(), data + i * k);
    }
    return out;
  }

  void Close() {
    if (pool_) {
      py::gil_scoped_release release;
      pool_->Close();
    }
  }

  // The id xla()'s handle carries (registered on first use).
  int64_t XlaId() {
    CheckOpen();
    if (xla_id_ == 0) xla_id_ = XlaPools().Add(pool_);
    return xla_id_;
  }

  ~PyEnvPool() {
    if (xla_id_ != 0) XlaPools().Remove(xla_id_);
  }

  const std::vector<std::string>& FieldNames() const { return field_names_; }

  // (name, dtype, per-env shape) of every batch field, in order.
  py::list FieldSpecs() const {
    py::list out;
    for (const FieldLayout& f : pool_->Fields()) {
      out.append(py::make_tuple(f.spec.name, DTypeName(f.spec.dtype),
                                py::tuple(py::cast(f.spec.shape))));
    }
    return out;
  }
  py::dict Spec() const { return EnvSpecToPy(pool_->Spec()); }
  int NumEnvs() const { return pool_->NumEnvs(); }
  int BatchSize() const { return pool_->BatchSize(); }
  int NumThreads() const { return pool_->NumThreads(); }
  bool Closed() const { return pool_->Closed(); }
  int InFlight() const { return pool_->InFlight(); }
  int64_t BlocksAllocated() const { return pool_->BlocksAllocated(); }

 private:
  void CheckOpen() const {
    if (pool_->Closed()) throw std::logic_error("the env pool is closed");
  }

  // recv(timeout=): None or a number of seconds >= 0; -1 means no limit
  // (inf too: a limit beyond a year is none).
  static int64_t TimeoutNs(const py::object& timeout) {
    if (timeout.is_none()) return -1;
    if (py::isinstance<py::bool_>(timeout) ||
        !(py::isinstance<py::int_>(timeout) ||
          py::isinstance<py::float_>(timeout) ||
          py::hasattr(timeout, "__float__"))) {
      throw py::type_error(
          "timeout must be a number of seconds or None, got " +
          std::string(py::str(py::type::of(timeout).attr("__name__"))));
    }
    const double t = py::float_(timeout).cast<double>();
    if (!(t >= 0)) {
      throw py::value_error("timeout must be >= 0 seconds or None, got " +
                            std::string(py::str(timeout)));
    }
    if (t > 3.0e7) return -1;
    return static_cast<int64_t>(t * 1e9);
  }

  // None: every env in sync mode, else the envs of the last batch received.
  std::vector<int32_t> EnvIds(const py::object& env_id) const {
    if (env_id.is_none()) return pool_->IsSync() ? all_ids_ : last_ids_;
    py::array arr = py::array::ensure(env_id, py::array::c_style);
    if (!arr) throw py::type_error("env_id must be an array of ints");
    if (arr.ndim() > 1) throw py::value_error("env_id must be 1-D");
    char kind = arr.dtype().kind();
    if (arr.size() > 0 && kind != 'i' && kind != 'u') {
      throw py::type_error("env_id must be integers, got dtype " +
                           std::string(py::str(arr.dtype())));
    }
    // Unsigned ids stay unsigned: 2**64 - 1 is reported as given.
    if (kind == 'u')
      return CheckedIds(py::array_t<uint64_t>(arr.attr("astype")("uint64")));
    return CheckedIds(py::array_t<int64_t>(arr.attr("astype")("int64")));
  }

  template <typename T>
  std::vector<int32_t> CheckedIds(const py::array_t<T>& values) const {
    std::vector<int32_t> ids(values.size());
    const T* p = values.data();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      bool ok = p[i] < static_cast<T>(pool_->NumEnvs());
      if constexpr (std::is_signed_v<T>) ok = ok && p[i] >= 0;
      if (!ok) {
        throw py::value_error("env_id " + std::to_string(p[i]) +
                              " out of range [0, " +
                              std::to_string(pool_->NumEnvs()) + ")");
      }
      ids[i] = static_cast<int32_t>(p[i]);
    }
    return ids;
  }

  const char* ConvertActions(const py::object& action, std::size_t n) {
    ConvertActionsInto(pool_->Spec().action, action, n, action_scratch_.data());
    return action_scratch_.data();
  }

  py::tuple ToArrays(Batch batch) {
    const int rows = batch.rows;
    const StateBlock* block = batch.block.get();
    const int32_t* ids =
        reinterpret_cast<const int32_t*>(block->Field(EnvPool::kEnvId));
    last_ids_.assign(ids, ids + rows);
    py::capsule owner(new Batch(std::move(batch)), [](void* p) {
      auto* b = static_cast<Batch*>(p);
      b->pool->Put(std::move(b->block));
      delete b;
    });
    // numpy's C API directly: py::array's checks cost more than the step of
    // a light env.
    const auto& fields = pool_->Fields();
    auto& api = py::detail::npy_api::get();
    py::tuple out(fields.size());
    Py_intptr_t dims[EnvPool::kMaxRank + 1];
    dims[0] = rows;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const auto& shape = fields[f].spec.shape;
      for (std::size_t d = 0; d < shape.size(); ++d) dims[d + 1] = shape[d];
      PyObject* descr = dtypes_[f].ptr();
      Py_INCREF(descr);  // PyArray_NewFromDescr steals it
      PyObject* arr = api.PyArray_NewFromDescr_(
          api.PyArray_Type_, descr, static_cast<int>(shape.size() + 1), dims,
          nullptr, block->Field(static_cast<int>(f)),
          py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ |
              py::detail::npy_api::NPY_ARRAY_ALIGNED_ |
              py::detail::npy_api::NPY_ARRAY_WRITEABLE_,
          nullptr);
      if (arr == nullptr) throw py::error_already_set();
      Py_INCREF(owner.ptr());  // PyArray_SetBaseObject steals it
      if (api.PyArray_SetBaseObject_(arr, owner.ptr()) != 0) {
        Py_DECREF(arr);
        throw py::error_already_set();
      }
      PyTuple_SET_ITEM(out.ptr(), f, arr);
    }
    return out;
  }

  const EnvDescriptor& descriptor_;
  std::shared_ptr<EnvPool> pool_;
  int64_t xla_id_ = 0;  // 0: not registered for xla()
  std::vector<py::dtype> dtypes_;
  std::vector<std::string> field_names_;
  std::vector<int32_t> last_ids_;
  std::vector<int32_t> all_ids_;
  std::vector<char> action_scratch_;
  unsigned long main_thread_ident_ = 0;  // threading.main_thread().ident
};

// render()'s resize to make(render_width=, render_height=): n pictures
// (n, H, W, C) uint8 to (n, height, width, C), with cv2.resize's INTER_AREA
// or INTER_LINEAR arithmetic (envs/common/image.h).
py::array_t<uint8_t> ResizeImages(const py::array& images, int height,
                                  int width, bool area) {
  if (!images.dtype().is(py::dtype::of<uint8_t>()) || images.ndim() != 4) {
    throw py::type_error("images must be an (n, H, W, C) uint8 array");
  }
  const auto in = py::array_t<uint8_t, py::array::c_style>::ensure(images);
  const auto n = in.shape(0), h = in.shape(1), w = in.shape(2), c = in.shape(3);
  std::optional<image::Resizer> resizer;
  try {
    resizer.emplace(static_cast<int>(h), static_cast<int>(w), height, width,
                    static_cast<int>(c),
                    area ? image::Resizer::Method::kArea
                         : image::Resizer::Method::kBilinear);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  py::array_t<uint8_t> out(std::vector<py::ssize_t>{n, height, width, c});
  const uint8_t* src = in.data();
  uint8_t* dst = out.mutable_data();
  py::gil_scoped_release release;
  for (py::ssize_t i = 0; i < n; ++i) {
    resizer->Run(src + i * h * w * c, dst + i * height * width * c);
  }
  return out;
}

}  // namespace
}  // namespace envpool_lite

PYBIND11_MODULE(_core, m) {
  using namespace envpool_lite;
  m.doc() = "envpool_lite's C++ engine";

  // Made once, kept by the module; the translator looks it up there.
  py::exception<EnvStepError>(m, "EnvStepError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const TimeoutError& e) {
      PyErr_SetString(PyExc_TimeoutError, e.what());
    } catch (const EnvStepError& e) {
      py::object cls =
          py::module_::import("envpool_lite._core").attr("EnvStepError");
      py::object exc = cls(e.what());
      exc.attr("env_ids") = e.env_ids;
      exc.attr("dropped_env_ids") = e.dropped_env_ids;
      PyErr_SetObject(cls.ptr(), exc.ptr());
    }
  });

  // The pool's limits (python/envpool_lite/spec.py checks them first).
  m.attr("MAX_NUM_ENVS") = EnvPool::kMaxEnvs;
  m.attr("MAX_NUM_THREADS") = EnvPool::kMaxThreads;
  // The mujoco version the MuJoCo envs were built for ("" when left out).
#ifdef ENVPOOL_LITE_MUJOCO
  m.attr("MUJOCO_VERSION") = ENVPOOL_LITE_MUJOCO_VERSION;
#else
  m.attr("MUJOCO_VERSION") = "";
#endif
  // The procgen release whose libenv.so the Procgen envs run ("" when left
  // out).
#ifdef ENVPOOL_LITE_PROCGEN
  m.attr("PROCGEN_VERSION") = ENVPOOL_LITE_PROCGEN_VERSION;
#else
  m.attr("PROCGEN_VERSION") = "";
#endif

  m.def("list_tasks", [] { return GlobalRegistry().TaskIds(); });
  m.def("task_defaults", [](const std::string& task_id) {
    py::dict out;
    for (const auto& [k, v] : GlobalRegistry().Get(task_id).defaults.Values()) {
      out[py::str(k)] = OptionToPy(v);
    }
    return out;
  });
  m.def("task_family", [](const std::string& task_id) {
    return GlobalRegistry().Get(task_id).family;
  });
  m.def("task_option_types", [](const std::string& task_id) {
    py::dict out;
    for (const auto& [k, v] : GlobalRegistry().Get(task_id).defaults.Values()) {
      out[py::str(k)] = OptionTypeName(v);
    }
    return out;
  });
  m.def("task_spec", [](const std::string& task_id, const py::dict& options) {
    const EnvDescriptor& d = GlobalRegistry().Get(task_id);
    return EnvSpecToPy(d.make_spec(ConfigFromPy(d, options)));
  });

  m.def("resize_images", &ResizeImages, py::arg("images"), py::arg("height"),
        py::arg("width"), py::arg("area"),
        "(n, H, W, C) uint8 pictures resized to (n, height, width, C) as "
        "cv2.resize does: INTER_AREA (area=True) or INTER_LINEAR.");

  m.def("single_thread_steps_per_second", &SingleThreadStepsPerSecond,
        py::arg("task_id"), py::arg("options"), py::arg("steps"),
        py::arg("seed") = 0,
        "Steps/s of one env stepped in a C++ loop on this thread (random "
        "actions, resets included): the per-core limit of a pool.");

  py::class_<PyActionConverter>(m, "ActionConverter")
      .def(py::init<const std::string&, const py::dict&>(), py::arg("task_id"),
           py::arg("options"))
      .def("convert", &PyActionConverter::Convert, py::arg("action"),
           py::arg("n"));

  py::class_<PyEnvPool>(m, "EnvPool")
      .def(py::init<const std::string&, const py::dict&,
                    const std::vector<uint64_t>&, int, int, int, int, bool,
                    bool>(),
           py::arg("task_id"), py::arg("options"), py::arg("seeds"),
           py::arg("num_envs"), py::arg("batch_size"), py::arg("num_threads"),
           py::arg("thread_affinity_offset"), py::arg("same_step_autoreset"),
           py::arg("render") = false)
      .def("send", &PyEnvPool::Send, py::arg("action"),
           py::arg("env_id") = py::none())
      .def("send_reset", &PyEnvPool::SendReset, py::arg("env_id") = py::none(),
           py::arg("seeds") = py::none())
      .def("recv", &PyEnvPool::Recv, py::arg("timeout") = py::none())
      .def("step", &PyEnvPool::Step, py::arg("action"),
           py::arg("env_id") = py::none(), py::arg("timeout") = py::none())
      .def("close", &PyEnvPool::Close)
      .def("render", &PyEnvPool::Render, py::arg("env_id"))
      .def("render_state", &PyEnvPool::RenderState, py::arg("env_id"))
      .def("xla_id", &PyEnvPool::XlaId)
      .def_property_readonly("field_names", &PyEnvPool::FieldNames)
      .def_property_readonly("field_specs", &PyEnvPool::FieldSpecs)
      .def_property_readonly("spec", &PyEnvPool::Spec)
      .def_property_readonly("num_envs", &PyEnvPool::NumEnvs)
      .def_property_readonly("batch_size", &PyEnvPool::BatchSize)
      .def_property_readonly("num_threads", &PyEnvPool::NumThreads)
      .def_property_readonly("closed", &PyEnvPool::Closed)
      .def_property_readonly("in_flight", &PyEnvPool::InFlight)
      .def_property_readonly("blocks_allocated", &PyEnvPool::BlocksAllocated);

  m.def(
      "xla_bridge", [] { return reinterpret_cast<uintptr_t>(&kXlaBridge); },
      "The address of the C table (cpp/xla/xla_bridge.h) that xla()'s FFI "
      "handlers call.");

  // --- kernels for tests ---
  {
    void RegisterTestingKernels(py::module_ t);  // cpp/bindings/testing.cc
    RegisterTestingKernels(m.def_submodule(
        "_testing",
        "Atari image kernels (resize, max-pool, HWC->CHW), for tests"));
  }
  // --- end kernels for tests ---
}
