// envpool_lite._core.EnvPool (py_env_pool.h): sending actions and resets,
// receiving batches as numpy arrays that share the pool's memory, rendering,
// and the id xla() reaches the pool by.
#include "bindings/py_env_pool.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings/actions.h"
#include "bindings/specs.h"
#include "bindings/xla_pools.h"
#include "core/env_pool.h"
#include "core/registry.h"

namespace envpool_lite {

PyEnvPool::PyEnvPool(const PyTask& task, const PoolOptions& options)
    : descriptor_(task.Descriptor()) {
  {
    py::gil_scoped_release release;  // envs are built on worker threads
    pool_ = std::make_shared<EnvPool>(descriptor_, task.GetConfig(),
                                      task.Spec(), options);
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

void PyEnvPool::Send(const py::object& action, const py::object& env_id) {
  CheckOpen();
  std::vector<int32_t> ids = EnvIds(env_id);
  const char* actions = ConvertActions(action, ids.size());
  pool_->Send(ids.data(), static_cast<int>(ids.size()), actions);
}

void PyEnvPool::SendReset(const py::object& env_id, const py::object& seeds) {
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

py::tuple PyEnvPool::Recv(const py::object& timeout) {
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

py::tuple PyEnvPool::Step(const py::object& action, const py::object& env_id,
                          const py::object& timeout) {
  Send(action, env_id);
  return Recv(timeout);
}

// (n, H, W, 3) uint8 pictures of the given envs (a new array: rendering
// is not on the stepping path).
py::array_t<uint8_t> PyEnvPool::Render(const py::object& env_id) {
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

py::list PyEnvPool::GetState(const py::object& env_id) {
  CheckOpen();
  std::vector<int32_t> ids = EnvIds(env_id);
  std::vector<std::string> states;
  {
    py::gil_scoped_release release;
    states = pool_->GetState(ids.data(), static_cast<int>(ids.size()));
  }
  py::list out;
  for (const std::string& s : states) out.append(py::bytes(s));
  return out;
}

// Views of the bytes of `states` (a sequence of bytes, one per env id),
// which `held` keeps alive while they are read.
static std::vector<std::string_view> StateViews(const py::object& states,
                                                py::list& held) {
  if (py::isinstance<py::bytes>(states) || py::isinstance<py::str>(states) ||
      !py::isinstance<py::sequence>(states)) {
    throw py::type_error(
        "states must be a sequence of bytes, one per env id (what "
        "get_state() returned), got " +
        std::string(py::str(py::type::of(states).attr("__name__"))));
  }
  std::vector<std::string_view> views;
  for (const py::handle& h : states) {
    if (!py::isinstance<py::bytes>(h)) {
      throw py::type_error(
          "states must be bytes objects (what get_state() returned), got " +
          std::string(py::str(py::type::of(h).attr("__name__"))));
    }
    held.append(h);
    char* data = nullptr;
    py::ssize_t size = 0;
    PyBytes_AsStringAndSize(h.ptr(), &data, &size);
    views.emplace_back(data, static_cast<std::size_t>(size));
  }
  return views;
}

void PyEnvPool::SetState(const py::object& env_id, const py::object& states) {
  CheckOpen();
  std::vector<int32_t> ids = EnvIds(env_id);
  py::list held;
  std::vector<std::string_view> views = StateViews(states, held);
  py::gil_scoped_release release;
  pool_->SetState(ids.data(), static_cast<int>(ids.size()), views);
}

void CheckStates(const PyTask& task, const PoolOptions& options,
                 const std::vector<int32_t>& env_ids,
                 const py::object& states) {
  py::list held;
  std::vector<std::string_view> views = StateViews(states, held);
  state_blob::OpenStates(
      EnvPool::StampOf(task.TaskId(), task.GetConfig(), options),
      env_ids.data(), static_cast<int>(env_ids.size()), views);
}

// (n, k) float64: the state a Python renderer draws each env from.
py::array_t<double> PyEnvPool::RenderState(const py::object& env_id) {
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

// One dict per env: its DebugState's names to int64 arrays, strings and
// float64 arrays.
py::list PyEnvPool::DebugStates(const py::object& env_id) {
  CheckOpen();
  py::list out;
  for (int32_t id : EnvIds(env_id)) {
    const DebugState state = pool_->Debug(id);
    py::dict d;
    for (const auto& [name, values] : state.ints) {
      d[py::str(name)] = py::array_t<int64_t>(
          static_cast<py::ssize_t>(values.size()), values.data());
    }
    for (const auto& [name, value] : state.strings) {
      d[py::str(name)] = py::str(value);
    }
    for (const DebugState::Reals& r : state.reals) {
      py::array_t<double> a(r.shape);
      if (static_cast<std::size_t>(a.size()) != r.values.size()) {
        throw std::logic_error("debug state '" + r.name +
                               "': its values do not fill its shape");
      }
      std::copy(r.values.begin(), r.values.end(), a.mutable_data());
      d[py::str(r.name)] = a;
    }
    out.append(d);
  }
  return out;
}

void PyEnvPool::Close() {
  if (pool_) {
    py::gil_scoped_release release;
    pool_->Close();
  }
}

// The id xla()'s handle carries (registered on first use).
int64_t PyEnvPool::XlaId() {
  CheckOpen();
  if (xla_id_ == 0) xla_id_ = XlaPools().Add(pool_);
  return xla_id_;
}

PyEnvPool::~PyEnvPool() {
  if (xla_id_ != 0) XlaPools().Remove(xla_id_);
}

// (name, dtype, per-env shape) of every batch field, in order.
py::list PyEnvPool::FieldSpecs() const {
  py::list out;
  for (const FieldLayout& f : pool_->Fields()) {
    out.append(py::make_tuple(f.spec.name, DTypeName(f.spec.dtype),
                              py::tuple(py::cast(f.spec.shape))));
  }
  return out;
}

py::dict PyEnvPool::Spec() const { return EnvSpecToPy(pool_->Spec()); }

// recv(timeout=): None or a number of seconds >= 0; -1 means no limit
// (inf too: a limit beyond a year is none).
int64_t PyEnvPool::TimeoutNs(const py::object& timeout) {
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
std::vector<int32_t> PyEnvPool::EnvIds(const py::object& env_id) const {
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
std::vector<int32_t> PyEnvPool::CheckedIds(const py::array_t<T>& values) const {
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

const char* PyEnvPool::ConvertActions(const py::object& action, std::size_t n) {
  ConvertActionsInto(pool_->Spec().action, action, n, action_scratch_.data());
  return action_scratch_.data();
}

py::tuple PyEnvPool::ToArrays(Batch batch) {
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

}  // namespace envpool_lite
