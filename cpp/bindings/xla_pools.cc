// envpool_lite._core: xla(): the pools the XLA FFI handlers reach
// (cpp/xla/xla_bridge.h), and the copies between a pool's batches and XLA's
// buffers: actions converted and validated as send() from Python does, the
// batch's fields copied (or written in place) into the traced call's outputs.
#include "bindings/xla_pools.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/actions.h"
#include "core/env_pool.h"
#include "xla/xla_bridge.h"

namespace envpool_lite {

XlaPoolRegistry& XlaPools() {
  static XlaPoolRegistry* registry = new XlaPoolRegistry();  // never freed
  return *registry;
}

namespace {

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

}  // namespace

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

}  // namespace envpool_lite
