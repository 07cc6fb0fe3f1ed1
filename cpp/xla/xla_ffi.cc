// xla()'s XLA FFI handlers (the typed FFI of jax.ffi), for the CPU:
//   envpool_lite_xla_send(handle, action, env_id) -> handle
//   envpool_lite_xla_recv(handle) -> handle, one buffer per batch field
//   envpool_lite_xla_step(handle, action) -> handle, one buffer per field
//     (a sync pool's send of every env and its recv, in one call)
// The handle is a uint32[2] array holding the pool's id (little-endian
// int64); returning it orders the calls inside jit, scan and fori_loop, as
// EnvPool's handle does. The work itself is _core's (xla_bridge.h).
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "xla/ffi/api/ffi.h"
#include "xla/xla_bridge.h"

namespace ffi = xla::ffi;

namespace {

std::atomic<const EnvpoolLiteXlaBridge*> g_bridge{nullptr};

int32_t CoreDType(ffi::DataType t) {
  switch (t) {
    case ffi::DataType::PRED:
      return kEnvpoolLiteXlaBool;
    case ffi::DataType::U8:
      return kEnvpoolLiteXlaUint8;
    case ffi::DataType::S32:
      return kEnvpoolLiteXlaInt32;
    case ffi::DataType::S64:
      return kEnvpoolLiteXlaInt64;
    case ffi::DataType::F32:
      return kEnvpoolLiteXlaFloat32;
    case ffi::DataType::F64:
      return kEnvpoolLiteXlaFloat64;
    case ffi::DataType::S8:
      return kEnvpoolLiteXlaInt8;
    default:
      return -1;
  }
}

const EnvpoolLiteXlaBridge* Bridge() {
  return g_bridge.load(std::memory_order_acquire);
}

// Every call's start: the pool id in its handle, after checking that xla.py
// set the bridge and the handle's shape; copies the handle to the result
// (the next call's handle).
ffi::ErrorOr<int64_t> ReadHandle(const ffi::AnyBuffer& handle,
                                 ffi::Result<ffi::AnyBuffer>& out) {
  if (Bridge() == nullptr) {
    return ffi::Unexpected(
        ffi::Error::Internal("envpool_lite xla(): not initialised"));
  }
  if (handle.size_bytes() != sizeof(int64_t) ||
      out->size_bytes() != sizeof(int64_t)) {
    return ffi::Unexpected(ffi::Error::InvalidArgument(
        "envpool_lite xla(): the handle must be the uint32[2] array that "
        "xla() returned"));
  }
  int64_t id = 0;
  std::memcpy(&id, handle.untyped_data(), sizeof(id));
  if (out->untyped_data() != handle.untyped_data()) {
    std::memcpy(out->untyped_data(), handle.untyped_data(), sizeof(id));
  }
  return id;
}

// The action's element type in _core's numbering.
ffi::ErrorOr<int32_t> ActionDType(const ffi::AnyBuffer& action) {
  const int32_t dtype = CoreDType(action.element_type());
  if (dtype < 0) {
    return ffi::Unexpected(ffi::Error::InvalidArgument(
        "envpool_lite xla(): unsupported action element type"));
  }
  return dtype;
}

ffi::Error SendImpl(ffi::AnyBuffer handle, ffi::AnyBuffer action,
                    ffi::Buffer<ffi::S32> env_id,
                    ffi::Result<ffi::AnyBuffer> handle_out) {
  auto id = ReadHandle(handle, handle_out);
  if (id.has_error()) return id.error();
  auto dtype = ActionDType(action);
  if (dtype.has_error()) return dtype.error();
  const char* error = Bridge()->send(
      id.value(), action.untyped_data(), dtype.value(),
      static_cast<int64_t>(action.element_count()), env_id.typed_data(),
      static_cast<int32_t>(env_id.element_count()));
  if (error != nullptr) return ffi::Error::InvalidArgument(error);
  return ffi::Error::Success();
}

// The result buffers of a recv or step call: their pointers and element
// types, and their common number of rows.
ffi::Error Outputs(ffi::RemainingRets& fields, std::vector<void*>* outputs,
                   std::vector<int32_t>* dtypes, int64_t* rows) {
  const std::size_t n = fields.size();
  outputs->resize(n);
  dtypes->resize(n);
  *rows = -1;
  for (std::size_t i = 0; i < n; ++i) {
    auto field = fields.get<ffi::AnyBuffer>(i);
    if (field.has_error()) return field.error();
    ffi::AnyBuffer buffer = **field;
    (*outputs)[i] = buffer.untyped_data();
    (*dtypes)[i] = CoreDType(buffer.element_type());
    const auto dims = buffer.dimensions();
    if (dims.size() == 0 || (*dtypes)[i] < 0 ||
        (*rows >= 0 && dims[0] != *rows)) {
      return ffi::Error::InvalidArgument(
          "envpool_lite xla(): unexpected result buffers");
    }
    *rows = dims[0];
  }
  return ffi::Error::Success();
}

ffi::Error RecvImpl(ffi::AnyBuffer handle,
                    ffi::Result<ffi::AnyBuffer> handle_out,
                    ffi::RemainingRets fields) {
  auto id = ReadHandle(handle, handle_out);
  if (id.has_error()) return id.error();
  std::vector<void*> outputs;
  std::vector<int32_t> dtypes;
  int64_t rows = -1;
  ffi::Error bad = Outputs(fields, &outputs, &dtypes, &rows);
  if (bad.failure()) return bad;
  const char* error = Bridge()->recv(id.value(), static_cast<int32_t>(rows),
                                     static_cast<int32_t>(outputs.size()),
                                     outputs.data(), dtypes.data());
  if (error != nullptr) return ffi::Error::InvalidArgument(error);
  return ffi::Error::Success();
}

// send() every env of a sync pool and recv() the batch, in one call: the
// pool can then write the batch straight into the result buffers.
ffi::Error StepImpl(ffi::AnyBuffer handle, ffi::AnyBuffer action,
                    ffi::Result<ffi::AnyBuffer> handle_out,
                    ffi::RemainingRets fields) {
  auto id = ReadHandle(handle, handle_out);
  if (id.has_error()) return id.error();
  auto dtype = ActionDType(action);
  if (dtype.has_error()) return dtype.error();
  std::vector<void*> outputs;
  std::vector<int32_t> dtypes;
  int64_t rows = -1;
  ffi::Error bad = Outputs(fields, &outputs, &dtypes, &rows);
  if (bad.failure()) return bad;
  const char* error = Bridge()->step(
      id.value(), action.untyped_data(), dtype.value(),
      static_cast<int64_t>(action.element_count()), static_cast<int32_t>(rows),
      static_cast<int32_t>(outputs.size()), outputs.data(), dtypes.data());
  if (error != nullptr) return ffi::Error::InvalidArgument(error);
  return ffi::Error::Success();
}

}  // namespace

// The jax version whose headers this library was compiled against.
extern "C" const char* envpool_lite_xla_jax_version() {
  return ENVPOOL_LITE_XLA_JAX_VERSION;
}

extern "C" int envpool_lite_xla_set_bridge(const EnvpoolLiteXlaBridge* bridge) {
  if (bridge == nullptr || bridge->version != ENVPOOL_LITE_XLA_BRIDGE_VERSION) {
    return 0;
  }
  g_bridge.store(bridge, std::memory_order_release);
  return 1;
}

// Exported (the library keeps default visibility): xla.py registers them
// with jax.ffi.register_ffi_target.
XLA_FFI_DEFINE_HANDLER_SYMBOL(envpool_lite_xla_send, SendImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::Buffer<ffi::S32>>()
                                  .Ret<ffi::AnyBuffer>());

XLA_FFI_DEFINE_HANDLER_SYMBOL(envpool_lite_xla_recv, RecvImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .RemainingRets());

XLA_FFI_DEFINE_HANDLER_SYMBOL(envpool_lite_xla_step, StepImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .RemainingRets());
