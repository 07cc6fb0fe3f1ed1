// The C interface between envpool_lite._core and the XLA FFI handlers of
// xla(), cpp/xla/xla_ffi.cc.
//
// The handlers are their own small shared library, compiled against the XLA
// FFI headers of the jaxlib installed at build time (jax.ffi.include_dir())
// and loaded by python/envpool_lite/xla.py only when xla() is called: the
// core builds and imports without JAX. They reach the pools through this
// table of plain C functions, which _core fills and xla.py hands over
// (envpool_lite_xla_set_bridge).
//
// Pools are named by an id, never a pointer: a handle that outlives its pool
// names nothing, and the call reports that instead of touching freed memory.
#pragma once

#include <stdint.h>

extern "C" {

// Element types of the buffers XLA passes, numbered as envpool_lite's DType
// (cpp/core/array_spec.h): bool, uint8, int32, int64, float32, float64, int8.
enum {
  kEnvpoolLiteXlaBool = 0,
  kEnvpoolLiteXlaUint8 = 1,
  kEnvpoolLiteXlaInt32 = 2,
  kEnvpoolLiteXlaInt64 = 3,
  kEnvpoolLiteXlaFloat32 = 4,
  kEnvpoolLiteXlaFloat64 = 5,
  kEnvpoolLiteXlaInt8 = 6,
};

struct EnvpoolLiteXlaBridge {
  int32_t version;  // kEnvpoolLiteXlaBridgeVersion
  // Each call returns nullptr, or an error message that stays valid until
  // the calling thread's next call.
  //
  // send(): queue one action per env id. `actions` holds num_ids x the
  // action spec's elements, of element type `action_dtype` (converted and
  // validated as send() from Python does).
  const char* (*send)(int64_t pool_id, const void* actions,
                      int32_t action_dtype, int64_t action_elements,
                      const int32_t* env_ids, int32_t num_ids);
  // recv(): wait for the next batch of `rows` results and copy field i into
  // outputs[i] (element type output_dtypes[i]: the field's own, or float32 /
  // int32 for a float64 / int64 field when JAX runs without x64).
  const char* (*recv)(int64_t pool_id, int32_t rows, int32_t num_outputs,
                      void* const* outputs, const int32_t* output_dtypes);
  // step(): send() every env of a sync pool, then recv() its batch. With
  // nothing else in flight the workers write each output whose element type
  // is the field's own straight into it (no copy); otherwise as send() then
  // recv().
  const char* (*step)(int64_t pool_id, const void* actions,
                      int32_t action_dtype, int64_t action_elements,
                      int32_t rows, int32_t num_outputs, void* const* outputs,
                      const int32_t* output_dtypes);
};

#define ENVPOOL_LITE_XLA_BRIDGE_VERSION 2

}  // extern "C"
