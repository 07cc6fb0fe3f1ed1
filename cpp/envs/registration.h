// The registry of every task of every family built into this module: the
// one the bindings read. cpp/envs/registration.cc lists the families.
#pragma once

#include "core/registry.h"

namespace envpool_lite {

// Built on first use, once; every family's tasks.
const Registry& GlobalRegistry();

}  // namespace envpool_lite
