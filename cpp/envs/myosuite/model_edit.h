// Models myosuite edits before compiling them (env_base.MujocoEnv._get_spec
// with an edit_fn: mujoco.MjSpec.from_file, the edit, spec.compile()), done
// with MuJoCo's C spec API (mj_parseXML, mjs_*, mj_compile) on the family's
// MuJoCo. One edit so far, named by the option "model_edit":
//  - "arm_reaching" (myoedits.edit_fn_arm_reaching, the myoArmReach ids):
//    the digits below each metacarpal of the arm model replaced by bodies of
//    the same names and positions, each with only its mesh geoms (named as
//    the body), the index tip's site (twice its size) on distph2, and a
//    reach target site, IFtip_target, on the world body.
// And one edit of a task's own (LoadTableTennisModel, TableTennisEnvV0's
// _preprocess_spec with myosuite.utils.spec_processing's recursive_*): the
// legs immobilised, the body's collisions removed, a mirrored left arm
// attached to the torso.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <set>
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
  decltype(&::mj_copySpec) copy_spec = nullptr;
  decltype(&::mjs_addFrame) add_frame = nullptr;
  decltype(&::mjs_attach) attach = nullptr;
  decltype(&::mjs_firstElement) first_element = nullptr;
  decltype(&::mjs_nextElement) next_element = nullptr;
  decltype(&::mjs_asEquality) as_equality = nullptr;
  decltype(&::mjs_asKey) as_key = nullptr;
  decltype(&::mjs_asMesh) as_mesh = nullptr;
  decltype(&::mjs_getDouble) get_double = nullptr;
  decltype(&::mjs_setDouble) set_double = nullptr;
  decltype(&::mjs_getError) get_error = nullptr;
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
  so.Load(&a.copy_spec, "mj_copySpec");
  so.Load(&a.add_frame, "mjs_addFrame");
  so.Load(&a.attach, "mjs_attach");
  so.Load(&a.first_element, "mjs_firstElement");
  so.Load(&a.next_element, "mjs_nextElement");
  so.Load(&a.as_equality, "mjs_asEquality");
  so.Load(&a.as_key, "mjs_asKey");
  so.Load(&a.as_mesh, "mjs_asMesh");
  so.Load(&a.get_double, "mjs_getDouble");
  so.Load(&a.set_double, "mjs_setDouble");
  so.Load(&a.get_error, "mjs_getError");
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

namespace detail {

// MjSpec.from_file(path), edit(spec), spec.compile().
template <typename Edit>
mujoco::ModelPtr CompileEdited(const mujoco::Api& api,
                               const std::string& lib_path,
                               const std::string& path, Edit edit) {
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
  edit(s, spec);
  mjModel* m = s.compile(spec, nullptr);
  if (m == nullptr) {
    throw std::invalid_argument("MuJoCo: cannot compile the edited model " +
                                path + ": " + s.get_error(spec));
  }
  return mujoco::ModelPtr(m, mujoco::ModelDeleter{&api});
}

}  // namespace detail

inline mujoco::ModelPtr LoadEditedModel(const mujoco::Api& api,
                                        const std::string& lib_path,
                                        const std::string& path,
                                        const std::string& edit) {
  CheckEdit(edit);
  return detail::CompileEdited(
      api, lib_path, path,
      [](const SpecApi& s, mjSpec* spec) { detail::EditArmReaching(s, spec); });
}

// TableTennisEnvV0.__init__'s model: its _preprocess_spec's options.
struct TableTennisEdit {
  bool remove_body_collisions = true;
  bool add_left_arm = true;
};

namespace detail {

inline void Delete(const SpecApi& s, mjSpec* spec, mjsElement* e) {
  if (s.remove(spec, e) != 0) {
    throw std::runtime_error("MuJoCo: mjs_delete failed");
  }
}

// body.sites, body.joints, ... (the direct children, in order), as lists:
// the loops below delete what they walk.
inline std::vector<mjsElement*> Children(const SpecApi& s, mjsBody* body,
                                         mjtObj type) {
  std::vector<mjsElement*> out;
  for (mjsElement* e = s.first_child(body, type, 0); e != nullptr;
       e = s.next_child(body, e, 0)) {
    out.push_back(e);
  }
  return out;
}

// spec.sensors, spec.keys, ...
inline std::vector<mjsElement*> Elements(const SpecApi& s, mjSpec* spec,
                                         mjtObj type) {
  std::vector<mjsElement*> out;
  for (mjsElement* e = s.first_element(spec, type); e != nullptr;
       e = s.next_element(spec, e)) {
    out.push_back(e);
  }
  return out;
}

inline bool Contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}

inline mjsBody* TableTennisBody(const SpecApi& s, mjSpec* spec,
                                const char* name) {
  mjsBody* b = s.find_body(spec, name);
  if (b == nullptr) {
    throw std::invalid_argument(
        std::string("option 'mujoco_model': the table tennis task needs the "
                    "body '") +
        name + "'");
  }
  return b;
}

// recursive_immobilize: the sites and joints of parent's subtree deleted
// (with remove_eqs, the joint equalities naming them too); the qpos
// addresses (in temp, the model compiled before) of the joints deleted.
inline void Immobilize(const SpecApi& s, const mujoco::Api& api, mjSpec* spec,
                       const mjModel* temp, mjsBody* parent, bool remove_eqs,
                       std::vector<int>* removed) {
  for (mjsElement* e : Children(s, parent, mjOBJ_SITE)) Delete(s, spec, e);
  for (mjsElement* j : Children(s, parent, mjOBJ_JOINT)) {
    const std::string name = NameOf(s, j);
    const int id = api.name2id(temp, mjOBJ_JOINT, name.c_str());
    if (id < 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the table tennis "
          "task's model has a joint without a name");
    }
    removed->push_back(temp->jnt_qposadr[id]);
    if (remove_eqs) {
      for (mjsElement* e : Elements(s, spec, mjOBJ_EQUALITY)) {
        const mjsEquality* eq = s.as_equality(e);
        if (eq->type == mjEQ_JOINT && (s.get_string(eq->name1) == name ||
                                       s.get_string(eq->name2) == name)) {
          Delete(s, spec, e);
        }
      }
    }
    Delete(s, spec, j);
  }
  for (mjsElement* child : Children(s, parent, mjOBJ_BODY)) {
    Immobilize(s, api, spec, temp, s.as_body(child), remove_eqs, removed);
  }
}

// recursive_remove_contacts (skipping the subtrees of bodies named
// "...radius..." when skip_radius).
inline void RemoveContacts(const SpecApi& s, mjsBody* parent,
                           bool skip_radius) {
  if (skip_radius && Contains(NameOf(s, parent->element), "radius")) return;
  for (mjsElement* g : Children(s, parent, mjOBJ_GEOM)) {
    s.as_geom(g)->contype = 0;
    s.as_geom(g)->conaffinity = 0;
  }
  for (mjsElement* child : Children(s, parent, mjOBJ_BODY)) {
    RemoveContacts(s, s.as_body(child), skip_radius);
  }
}

inline void Rename(const SpecApi& s, mjsElement* e, const std::string& name) {
  if (s.set_name(e, name.c_str()) != 0) {
    throw std::invalid_argument("MuJoCo: cannot rename an element to '" + name +
                                "'");
  }
}

// recursive_mirror: the subtree mirrored in y, "_mirrored" appended to the
// names of its bodies, mesh geoms and their meshes; other geoms and the
// "...ping_pong..." bodies deleted.
inline void Mirror(const SpecApi& s, mjSpec* spec, mjsBody* parent,
                   std::set<std::string>* meshes) {
  parent->pos[1] *= -1;
  parent->quat[1] *= -1;
  parent->quat[3] *= -1;
  Rename(s, parent->element, NameOf(s, parent->element) + "_mirrored");
  for (mjsElement* e : Children(s, parent, mjOBJ_GEOM)) {
    mjsGeom* g = s.as_geom(e);
    if (g->type != mjGEOM_MESH) {
      Delete(s, spec, e);
      continue;
    }
    g->pos[1] *= -1;
    g->quat[1] *= -1;
    g->quat[3] *= -1;
    Rename(s, e, NameOf(s, e) + "_mirrored");
    g->group = 1;
    const std::string mesh = s.get_string(g->meshname);
    meshes->insert(mesh);
    s.set_string(g->meshname, (mesh + "_mirrored").c_str());
  }
  for (mjsElement* child : Children(s, parent, mjOBJ_BODY)) {
    if (Contains(NameOf(s, child), "ping_pong")) {
      Delete(s, spec, child);
      continue;
    }
    Mirror(s, spec, s.as_body(child), meshes);
  }
}

// TableTennisEnvV0._preprocess_spec.
inline void EditTableTennis(const SpecApi& s, const mujoco::Api& api,
                            mjSpec* spec, const TableTennisEdit& edit) {
  for (mjsElement* e : Elements(s, spec, mjOBJ_SENSOR)) {
    const std::string name = NameOf(s, e);
    if (!Contains(name, "pingpong") && !Contains(name, "paddle")) {
      Delete(s, spec, e);
    }
  }
  mjModel* compiled = s.compile(spec, nullptr);
  if (compiled == nullptr) {
    throw std::invalid_argument(
        std::string("MuJoCo: cannot compile the table tennis task's model: ") +
        s.get_error(spec));
  }
  const mujoco::ModelPtr temp(compiled, mujoco::ModelDeleter{&api});
  std::vector<int> removed;
  for (const char* leg : {"femur_l", "femur_r"}) {
    Immobilize(s, api, spec, temp.get(), TableTennisBody(s, spec, leg), true,
               &removed);
  }
  for (mjsElement* e : Elements(s, spec, mjOBJ_KEY)) {
    mjsKey* key = s.as_key(e);
    int size = 0;
    const double* qpos = s.get_double(key->qpos, &size);
    std::vector<double> kept;
    for (int i = 0; i < size; ++i) {
      if (std::find(removed.begin(), removed.end(), i) == removed.end()) {
        kept.push_back(qpos[i]);
      }
    }
    s.set_double(key->qpos, kept.data(), static_cast<int>(kept.size()));
  }
  if (edit.remove_body_collisions) {
    RemoveContacts(s, TableTennisBody(s, spec, "full_body"), true);
  }
  if (!edit.add_left_arm) return;
  mjsBody* torso = TableTennisBody(s, spec, "torso");
  mjSpec* copy = s.copy_spec(spec);
  if (copy == nullptr) throw std::runtime_error("MuJoCo: mj_copySpec failed");
  struct Free {
    const SpecApi& s;
    mjSpec* spec;
    ~Free() { s.delete_spec(spec); }
  } free_copy{s, copy};
  mjsFrame* frame = s.add_frame(torso, nullptr);
  const double quat[4] = {0.5, 0.5, -0.5, 0.5};
  const double pos[3] = {0.05, 0.373, -0.04};
  for (int i = 0; i < 4; ++i) frame->quat[i] = quat[i];
  for (int i = 0; i < 3; ++i) frame->pos[i] = pos[i];
  for (mjtObj type :
       {mjOBJ_KEY, mjOBJ_TEXTURE, mjOBJ_MATERIAL, mjOBJ_TENDON, mjOBJ_ACTUATOR,
        mjOBJ_EQUALITY, mjOBJ_SENSOR, mjOBJ_CAMERA}) {
    for (mjsElement* e : Elements(s, copy, type)) Delete(s, copy, e);
  }
  mjsBody* world = TableTennisBody(s, copy, "world");
  std::vector<int> unused;
  Immobilize(s, api, copy, temp.get(), world, false, &unused);
  RemoveContacts(s, world, false);
  std::set<std::string> meshes;
  Mirror(s, copy, TableTennisBody(s, copy, "clavicle"), &meshes);
  for (mjsElement* e : Elements(s, copy, mjOBJ_MESH)) {
    const std::string name = NameOf(s, e);
    if (meshes.count(name) != 0) {
      Rename(s, e, name + "_mirrored");
      s.as_mesh(e)->scale[1] *= -1;
    } else {
      Delete(s, copy, e);
    }
  }
  if (s.attach(frame->element,
               TableTennisBody(s, copy, "clavicle_mirrored")->element, "",
               "") == nullptr) {
    throw std::invalid_argument("MuJoCo: cannot attach the mirrored arm");
  }
  const double ulna[4] = {0.546, 0, 0, -0.838};
  const double humerus[4] = {0.924, 0.383, 0, 0};
  mjsBody* u = TableTennisBody(s, spec, "ulna_mirrored");
  mjsBody* h = TableTennisBody(s, spec, "humerus_mirrored");
  for (int i = 0; i < 4; ++i) u->quat[i] = ulna[i];
  for (int i = 0; i < 4; ++i) h->quat[i] = humerus[i];
}

}  // namespace detail

inline mujoco::ModelPtr LoadTableTennisModel(const mujoco::Api& api,
                                             const std::string& lib_path,
                                             const std::string& path,
                                             const TableTennisEdit& edit) {
  return detail::CompileEdited(api, lib_path, path,
                               [&](const SpecApi& s, mjSpec* spec) {
                                 detail::EditTableTennis(s, api, spec, edit);
                               });
}

}  // namespace myosuite
}  // namespace envpool_lite
