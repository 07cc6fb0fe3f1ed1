// The MuJoCo library shared by the families that simulate with it (gym
// MuJoCo, dm_control): the installed `mujoco` wheel's libmujoco.so, loaded
// at run time (dlopen) from the path Python passes in the "mujoco_lib"
// option and checked to be the version whose headers this build used; models
// loaded from a file or from an XML text with its assets.
#pragma once

#include <mujoco/mujoco.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "refkit/shared_library.h"

namespace envpool_lite {
namespace mujoco {

// The functions of libmujoco that the envs call.
struct Api {
  decltype(&::mj_version) version = nullptr;
  decltype(&::mj_versionString) version_string = nullptr;
  decltype(&::mj_loadXML) load_xml = nullptr;
  decltype(&::mj_deleteModel) delete_model = nullptr;
  decltype(&::mj_makeData) make_data = nullptr;
  decltype(&::mj_deleteData) delete_data = nullptr;
  decltype(&::mj_resetData) reset_data = nullptr;
  decltype(&::mj_forward) forward = nullptr;
  decltype(&::mj_step) step = nullptr;
  decltype(&::mj_rnePostConstraint) rne_post_constraint = nullptr;
  decltype(&::mj_name2id) name2id = nullptr;
  decltype(&::mj_step1) step1 = nullptr;
  decltype(&::mj_step2) step2 = nullptr;
  decltype(&::mj_defaultVFS) default_vfs = nullptr;
  decltype(&::mj_addBufferVFS) add_buffer_vfs = nullptr;
  decltype(&::mj_deleteVFS) delete_vfs = nullptr;
  decltype(&::mju_axisAngle2Quat) axis_angle2quat = nullptr;
  decltype(&::mj_objectVelocity) object_velocity = nullptr;
  // Used by the gymnasium_robotics family (its utils' Jacobians, contacts
  // and keyframes).
  decltype(&::mj_jacSite) jac_site = nullptr;
  decltype(&::mj_jacBody) jac_body = nullptr;
  decltype(&::mj_contactForce) contact_force = nullptr;
  decltype(&::mj_kinematics) kinematics = nullptr;
  decltype(&::mj_comPos) com_pos = nullptr;
  decltype(&::mj_id2name) id2name = nullptr;
  decltype(&::mj_resetDataKeyframe) reset_data_keyframe = nullptr;
  decltype(&::mj_copyData) copy_data = nullptr;
  decltype(&::mj_copyModel) copy_model = nullptr;
  decltype(&::mj_loadAllPluginLibraries) load_all_plugin_libraries = nullptr;
  // MyoSuite's soccer (its joint-limit forces).
  decltype(&::mj_mulJacTVec) mul_jac_t_vec = nullptr;
};

// The folder beside a library that holds its plugins, if it has one:
// <dir>/plugins-<version> (a family's own MuJoCo in envpool_lite/_mujoco/,
// whose mesh decoders are plugins: third_party/mujoco_version.cmake).
inline std::string PluginDir(const std::string& library,
                             const std::string& version) {
  const std::size_t slash = library.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : library.substr(0, slash);
  return dir + "/plugins-" + version;
}

// Loads libmujoco from `path` once per process (later calls must name the
// same file) and checks its version against the headers'.
inline const Api& LoadApi(const std::string& path) {
  static std::mutex mutex;
  static Api api;
  static std::string loaded_path;
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded_path.empty()) return api;
  if (path.empty()) {
    throw std::invalid_argument(
        "MuJoCo: no libmujoco path given (make() finds it in the installed "
        "mujoco package)");
  }
  SharedLibrary so(
      "MuJoCo", path,
      std::string("envpool_lite needs mujoco==") + ENVPOOL_LITE_MUJOCO_VERSION);
  Api a;
  so.Load(&a.version, "mj_version");
  so.Load(&a.version_string, "mj_versionString");
  so.Load(&a.load_xml, "mj_loadXML");
  so.Load(&a.delete_model, "mj_deleteModel");
  so.Load(&a.make_data, "mj_makeData");
  so.Load(&a.delete_data, "mj_deleteData");
  so.Load(&a.reset_data, "mj_resetData");
  so.Load(&a.forward, "mj_forward");
  so.Load(&a.step, "mj_step");
  so.Load(&a.rne_post_constraint, "mj_rnePostConstraint");
  so.Load(&a.name2id, "mj_name2id");
  so.Load(&a.step1, "mj_step1");
  so.Load(&a.step2, "mj_step2");
  so.Load(&a.default_vfs, "mj_defaultVFS");
  so.Load(&a.add_buffer_vfs, "mj_addBufferVFS");
  so.Load(&a.delete_vfs, "mj_deleteVFS");
  so.Load(&a.axis_angle2quat, "mju_axisAngle2Quat");
  so.Load(&a.object_velocity, "mj_objectVelocity");
  so.Load(&a.jac_site, "mj_jacSite");
  so.Load(&a.jac_body, "mj_jacBody");
  so.Load(&a.contact_force, "mj_contactForce");
  so.Load(&a.kinematics, "mj_kinematics");
  so.Load(&a.com_pos, "mj_comPos");
  so.Load(&a.id2name, "mj_id2name");
  so.Load(&a.reset_data_keyframe, "mj_resetDataKeyframe");
  so.Load(&a.copy_data, "mj_copyData");
  so.Load(&a.copy_model, "mj_copyModel");
  so.Load(&a.load_all_plugin_libraries, "mj_loadAllPluginLibraries");
  so.Load(&a.mul_jac_t_vec, "mj_mulJacTVec");
  if (a.version() != mjVERSION_HEADER) {
    throw std::invalid_argument(
        std::string("MuJoCo: ") + path + " is MuJoCo " + a.version_string() +
        ", envpool_lite was built for mujoco==" + ENVPOOL_LITE_MUJOCO_VERSION +
        " (pip install mujoco==" + ENVPOOL_LITE_MUJOCO_VERSION + ")");
  }
  // Its plugins (mesh decoders), once, before any model is loaded.
  const std::string plugins = PluginDir(path, ENVPOOL_LITE_MUJOCO_VERSION);
  if (access(plugins.c_str(), R_OK) == 0) {
    a.load_all_plugin_libraries(plugins.c_str(), nullptr);
  }
  api = a;
  loaded_path = path;
  return api;
}

struct ModelDeleter {
  const Api* api;
  void operator()(mjModel* m) const { api->delete_model(m); }
};
struct DataDeleter {
  const Api* api;
  void operator()(mjData* d) const { api->delete_data(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// mj_loadXML of the model file (serialised: MuJoCo's XML parser is not
// documented as thread-safe, and envs are built from several threads).
inline ModelPtr LoadModel(const Api& api, const std::string& path) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  char error[1024] = {0};
  mjModel* m = api.load_xml(path.c_str(), nullptr, error, sizeof(error));
  if (m == nullptr) {
    throw std::invalid_argument("MuJoCo: cannot load model " + path + ": " +
                                error);
  }
  return ModelPtr(m, ModelDeleter{&api});
}

// An MJCF text with the files it names (includes, meshes, textures), as
// dm_control's Physics.from_xml_string(xml, assets) loads it: every file in a
// MuJoCo virtual file system, the text as "model_.xml" (mujoco's Python
// bindings' name), then mj_loadXML of that name.
inline ModelPtr LoadModelFromString(const Api& api, const std::string& xml,
                                    const std::vector<std::string>& names,
                                    const std::vector<std::string>& contents) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (names.size() != contents.size()) {
    throw std::invalid_argument("MuJoCo: one content per asset name needed");
  }
  mjVFS vfs;
  api.default_vfs(&vfs);
  struct Free {
    const Api& api;
    mjVFS* vfs;
    ~Free() { api.delete_vfs(vfs); }
  } free_vfs{api, &vfs};
  auto add = [&](const std::string& name, const std::string& data) {
    if (api.add_buffer_vfs(&vfs, name.c_str(), data.data(),
                           static_cast<int>(data.size())) != 0) {
      throw std::invalid_argument("MuJoCo: cannot add asset " + name);
    }
  };
  for (std::size_t i = 0; i < names.size(); ++i) add(names[i], contents[i]);
  add("model_.xml", xml);
  char error[1024] = {0};
  mjModel* m = api.load_xml("model_.xml", &vfs, error, sizeof(error));
  if (m == nullptr) {
    throw std::invalid_argument(std::string("MuJoCo: cannot load model: ") +
                                error);
  }
  return ModelPtr(m, ModelDeleter{&api});
}

// The render state of a MuJoCo env (Env::RenderState): what gymnasium's
// MujocoRenderer draws from (mjv_updateScene reads these kinematics as the
// last step left them) in this order, then, with `full`, what a render
// callback running mj_forward needs to recompute them (qpos, qvel, the mocap
// bodies, ctrl; gymnasium-robotics' Fetch and Shadow Hand). Python reads
// the same layout (envpool_lite/refkit/mujoco_lib.py's RENDER_FIELDS).
inline std::vector<double> RenderStateOf(const mjModel* m, const mjData* d,
                                         bool full) {
  std::vector<double> out;
  auto add = [&out](const double* p, int n) {
    out.insert(out.end(), p, p + n);
  };
  add(d->xpos, 3 * m->nbody);
  add(d->xmat, 9 * m->nbody);
  add(d->subtree_com, 3 * m->nbody);
  add(d->geom_xpos, 3 * m->ngeom);
  add(d->geom_xmat, 9 * m->ngeom);
  add(d->site_xpos, 3 * m->nsite);
  add(d->site_xmat, 9 * m->nsite);
  add(d->cam_xpos, 3 * m->ncam);
  add(d->cam_xmat, 9 * m->ncam);
  add(d->light_xpos, 3 * m->nlight);
  add(d->light_xdir, 3 * m->nlight);
  if (full) {
    add(d->qpos, m->nq);
    add(d->qvel, m->nv);
    add(d->mocap_pos, 3 * m->nmocap);
    add(d->mocap_quat, 4 * m->nmocap);
    add(d->ctrl, m->nu);
  }
  return out;
}

}  // namespace mujoco
}  // namespace envpool_lite
