// Models myosuite edits before compiling them (env_base.MujocoEnv._get_spec
// with an edit_fn: mujoco.MjSpec.from_file, the edit, spec.compile()), done
// with MuJoCo's C spec API (mj_parseXML, mjs_*, mj_compile) on the family's
// MuJoCo. One edit so far, named by the option "model_edit":
//  - "arm_reaching" (myoedits.edit_fn_arm_reaching, the myoArmReach ids):
//    the digits below each metacarpal of the arm model replaced by bodies of
//    the same names and positions, each with only its mesh geoms (named as
//    the body), the index tip's site (twice its size) on distph2, and a
//    reach target site, IFtip_target, on the world body.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "refkit/mujoco/api.h"
#include "refkit/shared_library.h"

namespace envpool_lite {
namespace myosuite {

// The spec functions of libmujoco (loaded only by the envs that edit).
struct SpecApi {
  decltype(&::mj_parseXML) parse_xml = nullptr;
  decltype(&::mj_compile) compile = nullptr;
  decltype(&::mj_deleteSpec) delete_spec = nullptr;
  decltype(&::mjs_findBody) find_body = nullptr;
  decltype(&::mjs_findElement) find_element = nullptr;
  decltype(&::mjs_firstChild) first_child = nullptr;
  decltype(&::mjs_nextChild) next_child = nullptr;
  decltype(&::mjs_asBody) as_body = nullptr;
  decltype(&::mjs_asGeom) as_geom = nullptr;
  decltype(&::mjs_asSite) as_site = nullptr;
  decltype(&::mjs_getName) get_name = nullptr;
  decltype(&::mjs_getString) get_string = nullptr;
  decltype(&::mjs_setName) set_name = nullptr;
  decltype(&::mjs_setString) set_string = nullptr;
  decltype(&::mjs_delete) remove = nullptr;
  decltype(&::mjs_addBody) add_body = nullptr;
  decltype(&::mjs_addGeom) add_geom = nullptr;
  decltype(&::mjs_addSite) add_site = nullptr;
};

inline const SpecApi& LoadSpecApi(const std::string& lib_path) {
  static std::mutex mutex;
  static SpecApi api;
  static bool loaded = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded) return api;
  mujoco::LoadApi(lib_path);  // checks the library and its version
  SharedLibrary so(
      "MuJoCo", lib_path,
      std::string("envpool_lite needs mujoco==") + ENVPOOL_LITE_MUJOCO_VERSION);
  SpecApi a;
  so.Load(&a.parse_xml, "mj_parseXML");
  so.Load(&a.compile, "mj_compile");
  so.Load(&a.delete_spec, "mj_deleteSpec");
  so.Load(&a.find_body, "mjs_findBody");
  so.Load(&a.find_element, "mjs_findElement");
  so.Load(&a.first_child, "mjs_firstChild");
  so.Load(&a.next_child, "mjs_nextChild");
  so.Load(&a.as_body, "mjs_asBody");
  so.Load(&a.as_geom, "mjs_asGeom");
  so.Load(&a.as_site, "mjs_asSite");
  so.Load(&a.get_name, "mjs_getName");
  so.Load(&a.get_string, "mjs_getString");
  so.Load(&a.set_name, "mjs_setName");
  so.Load(&a.set_string, "mjs_setString");
  so.Load(&a.remove, "mjs_delete");
  so.Load(&a.add_body, "mjs_addBody");
  so.Load(&a.add_geom, "mjs_addGeom");
  so.Load(&a.add_site, "mjs_addSite");
  api = a;
  loaded = true;
  return api;
}

inline void CheckEdit(const std::string& edit) {
  if (!edit.empty() && edit != "arm_reaching") {
    throw std::invalid_argument(
        "option 'model_edit' must be '' or 'arm_reaching' (myosuite's "
        "edit_fn_arm_reaching), got '" +
        edit + "'");
  }
}

namespace detail {

inline std::string NameOf(const SpecApi& s, mjsElement* e) {
  return s.get_string(s.get_name(e));
}

inline mjsBody* Body(const SpecApi& s, mjSpec* spec, const std::string& name) {
  mjsBody* b = s.find_body(spec, name.c_str());
  if (b == nullptr) {
    throw std::invalid_argument("model_edit 'arm_reaching': no body '" + name +
                                "' in the model");
  }
  return b;
}

// edit_fn_arm_reaching.
inline void EditArmReaching(const SpecApi& s, mjSpec* spec) {
  const char* roots[] = {"firstmc", "secondmc", "thirdmc", "fourthmc",
                         "fifthmc"};
  struct Part {
    std::string name;
    std::array<double, 3> pos;
    std::vector<std::string> meshes;
  };
  // The chain of first children below each root: name, position, the
  // names of its mesh geoms.
  std::vector<std::vector<Part>> chains;
  for (const char* root : roots) {
    std::vector<Part> chain;
    mjsBody* body = Body(s, spec, root);
    mjsElement* child = s.first_child(body, mjOBJ_BODY, 0);
    while (child != nullptr) {
      mjsBody* b = s.as_body(child);
      Part part{NameOf(s, child), {b->pos[0], b->pos[1], b->pos[2]}, {}};
      for (mjsElement* g = s.first_child(b, mjOBJ_GEOM, 0); g != nullptr;
           g = s.next_child(b, g, 0)) {
        if (s.as_geom(g)->type == mjGEOM_MESH) {
          part.meshes.push_back(NameOf(s, g));
        }
      }
      chain.push_back(std::move(part));
      child = s.first_child(b, mjOBJ_BODY, 0);
    }
    chains.push_back(std::move(chain));
  }
  // The index tip's site.
  mjsElement* tip = s.find_element(spec, mjOBJ_SITE, "IFtip");
  if (tip == nullptr) {
    throw std::invalid_argument(
        "model_edit 'arm_reaching': no site 'IFtip' in the model");
  }
  const mjsSite* site = s.as_site(tip);
  const std::string tip_name = NameOf(s, tip);
  double size[3], pos[3];
  float rgba[4];
  for (int i = 0; i < 3; ++i) size[i] = site->size[i];
  for (int i = 0; i < 3; ++i) pos[i] = site->pos[i];
  for (int i = 0; i < 4; ++i) rgba[i] = site->rgba[i];
  // The digits removed.
  for (const char* root : roots) {
    mjsElement* child = s.first_child(Body(s, spec, root), mjOBJ_BODY, 0);
    if (child != nullptr && s.remove(spec, child) != 0) {
      throw std::runtime_error("model_edit 'arm_reaching': mjs_delete failed");
    }
  }
  // Put back, one body with its meshes per phalanx.
  for (std::size_t r = 0; r < chains.size(); ++r) {
    mjsBody* body = Body(s, spec, roots[r]);
    for (const Part& part : chains[r]) {
      mjsBody* added = s.add_body(body, nullptr);
      s.set_name(added->element, part.name.c_str());
      for (int i = 0; i < 3; ++i) added->pos[i] = part.pos[i];
      for (const std::string& mesh : part.meshes) {
        mjsGeom* g = s.add_geom(Body(s, spec, part.name), nullptr);
        s.set_string(g->meshname, mesh.c_str());
        s.set_name(g->element, part.name.c_str());
        g->type = mjGEOM_MESH;
      }
      if (part.name == "distph2") {
        mjsSite* st = s.add_site(Body(s, spec, part.name), nullptr);
        s.set_name(st->element, tip_name.c_str());
        for (int i = 0; i < 3; ++i) st->size[i] = size[i] * 2;
        for (int i = 0; i < 3; ++i) st->pos[i] = pos[i];
        for (int i = 0; i < 4; ++i) st->rgba[i] = rgba[i];
      }
      body = Body(s, spec, part.name);
    }
  }
  // A reach target on the world body.
  mjsSite* target = s.add_site(Body(s, spec, "world"), nullptr);
  s.set_name(target->element, "IFtip_target");
  target->type = mjGEOM_SPHERE;
  for (int i = 0; i < 3; ++i) target->size[i] = 0.02;
  const double target_pos[3] = {-0.2, -0.2, 1.2};
  for (int i = 0; i < 3; ++i) target->pos[i] = target_pos[i];
  const float target_rgba[4] = {0.0f, 0.0f, 1.0f, 0.3f};
  for (int i = 0; i < 4; ++i) target->rgba[i] = target_rgba[i];
}

}  // namespace detail

// MjSpec.from_file(path), the edit, spec.compile().
inline mujoco::ModelPtr LoadEditedModel(const mujoco::Api& api,
                                        const std::string& lib_path,
                                        const std::string& path,
                                        const std::string& edit) {
  CheckEdit(edit);
  const SpecApi& s = LoadSpecApi(lib_path);
  static std::mutex mutex;  // MuJoCo's parser and compiler, one at a time
  std::lock_guard<std::mutex> lock(mutex);
  char error[1024] = {0};
  mjSpec* spec = s.parse_xml(path.c_str(), nullptr, error, sizeof(error));
  if (spec == nullptr) {
    throw std::invalid_argument("MuJoCo: cannot load model " + path + ": " +
                                error);
  }
  struct Free {
    const SpecApi& s;
    mjSpec* spec;
    ~Free() { s.delete_spec(spec); }
  } free_spec{s, spec};
  detail::EditArmReaching(s, spec);
  mjModel* m = s.compile(spec, nullptr);
  if (m == nullptr) {
    throw std::invalid_argument("MuJoCo: cannot compile the edited model " +
                                path);
  }
  return mujoco::ModelPtr(m, mujoco::ModelDeleter{&api});
}

}  // namespace myosuite
}  // namespace envpool_lite
