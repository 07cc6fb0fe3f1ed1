// MyoSuite's MyoDM object tracking (envs/myo/myodm/myodm_v0.py, TrackEnv):
// the MyoHand moves an object along a reference motion (the hand's joint
// positions and the object's pose over time), rewarded for the object's
// closeness to its reference and for the hand's, ended when the object
// strays from its reference or from the wrist.
//
// What this reproduces, in the reference's order:
//  - The model: myohand_object.xml with "OBJECT_NAME" replaced by the
//    object's name. myosuite writes that text to a file beside the original
//    and loads it; here the text goes into a MuJoCo virtual file system under
//    the original file's own path, so that its includes, meshes and textures
//    are read from the installed package beside it (MuJoCo opens a file the
//    VFS does not hold from the file system). The model compiles the same
//    (every array of the two equal: checked for every object).
//  - The reference (logger/reference_motion.py, ReferenceMotion): a table
//    {time, robot, robot_vel, object, robot_init, object_init}: one row
//    (fixed target), two rows (a range: every observation draws the target
//    uniformly in it from the env's generator, robot, robot_vel, object in
//    that order), or more (a motion, looked up at the env's time rounded to
//    1e-4, held at its last frame once over, blended between frames as
//    ReferenceMotion blends them, its operator precedence included). An
//    .npz (or pickle) file given by path is read by make() (Python, numpy)
//    into the internal option "reference_data".
//  - Construction: the target site, the object's and the wrist's (lunate)
//    bodies, the skeleton's geom made transparent, the lift threshold from
//    the object's starting height, BaseV0's setup and its zero step (whose
//    observation draws a range target), then the initial pose: the
//    reference's robot_init and object_init (its quaternion as Euler
//    angles, quat2euler).
//  - The obs dict and the reward terms of get_obs_dict / get_reward_dict,
//    with quat_math's mat2quat (np.linalg.eigh: numpy's LAPACK) and
//    quatDiff2Vel.
#pragma once

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"

namespace envpool_lite {
namespace myosuite {

// ReferenceMotion's reference, its arrays flattened row by row.
struct Reference {
  enum class Type { kFixed, kRandom, kTrack };
  Type type = Type::kFixed;
  std::vector<double> time;  // np.around(time, 4)
  int robot_dim = 0, object_dim = 7;
  int robot_rows = 0, object_rows = 0, horizon = 0;
  std::vector<double> robot, robot_vel, object;
  bool has_robot_vel = false;
  std::vector<double> robot_init, object_init;
};

class TrackEnv : public MyoEnv {
 public:
  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", StringList{"qp", "qv", "hand_qpos_err", "hand_qvel_err",
                                 "obj_com_err"});
    c.Set("weighted_reward_keys", NamedNumbers{{"pose", {0.0}},
                                               {"object", {1.0}},
                                               {"bonus", {1.0}},
                                               {"penalty", {-2.0}}});
    c.Set("object_name", std::string());
    // The reference as a table (myosuite's dict form) or as a file: the
    // path of an .npz / .pkl (relative to the myosuite package, or
    // absolute), which make() reads into "reference_data" (internal).
    c.Set("reference", NamedNumbers{});
    c.Set("reference_path", std::string());
    c.Set("reference_data", NamedNumbers{});
    c.Set("motion_start_time", 0.0);
    c.Set("motion_extrapolation", true);
    c.Set("Termimate_obj_fail", true);
    c.Set("Termimate_pose_fail", false);
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    const int64_t hand_q = m->nq - 6, hand_v = m->nv - 6;
    const bool vel = HasKey(ReferenceTable(config), "robot_vel");
    Layout l;
    l.obs = {{"qp", m->nq},
             {"qv", m->nv},
             {"robot_err", hand_q},
             {"curr_hand_qpos", hand_q},
             {"curr_hand_qvel", hand_v},
             {"targ_hand_qpos", hand_q},
             {"targ_hand_qvel", vel ? hand_q : 1},
             {"curr_obj_com", 3},
             {"curr_obj_rot", 4},
             {"wrist_err", 3},
             {"base_error", 3},
             {"targ_obj_com", 3},
             {"targ_obj_rot", 4},
             {"hand_qpos_err", hand_q},
             {"hand_qvel_err", vel ? hand_v : 1},
             {"obj_com_err", 3}};
    if (m->na > 0) l.obs.push_back({"act", m->na});
    l.rwd = {{"pose"},   {"object"},          {"bonus"},         {"penalty"},
             {"sparse"}, {"solved", 1, true}, {"done", 1, true}, {"dense"}};
    return l;
  }

  static EnvSpec MakeSpec(const Config& config) {
    ModelPtr model = LoadObjectModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    CheckOptions(config, api, model.get());
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  TrackEnv(const Config& config, uint64_t seed)
      : MyoEnv(config, seed, &MakeLayout, LoadObjectModel(config)),
        lapack_(&NumpyLapack::Load(config.GetString("numpy_blas"))) {
    CheckOptions(config, api_, m());
    ref_ = ReadReference(config, m()->nq - 6, np_);
    motion_start_time_ = config.GetFloat("motion_start_time");
    term_obj_ = config.GetBool("Termimate_obj_fail");
    term_pose_ = config.GetBool("Termimate_pose_fail");
    for (const auto& [name, v] : config.GetNamedNumbers("numpy_loops")) {
      if (name == "power" && v.size() == 2) {
        power_ = reinterpret_cast<LoopFn>(static_cast<uintptr_t>(v[0]));
        power_data_ = reinterpret_cast<void*>(static_cast<uintptr_t>(v[1]));
      }
    }
    target_sid_ = api_.name2id(m(), mjOBJ_SITE, "target");
    object_bid_ =
        api_.name2id(m(), mjOBJ_BODY, config.GetString("object_name").c_str());
    wrist_bid_ = api_.name2id(m(), mjOBJ_BODY, "lunate");
    // The body skeleton's rendering turned off.
    m()->geom_rgba[4 * api_.name2id(m(), mjOBJ_GEOM, "body") + 3] = 0.0f;
    lift_z_ = d()->xipos[3 * object_bid_ + 2] + kLiftBonusThresh;
    const int dim = ref_.robot_dim;
    cur_robot_.assign(static_cast<std::size_t>(dim), 0.0);
    cur_robot_vel_.assign(static_cast<std::size_t>(dim), 0.0);
    cur_object_.assign(static_cast<std::size_t>(ref_.object_dim), 0.0);
    Setup();
    // The initial pose: the reference's.
    std::copy(ref_.robot_init.begin(), ref_.robot_init.end(),
              init_qpos_.begin());
    std::copy(ref_.object_init.begin(), ref_.object_init.begin() + 3,
              init_qpos_.begin() + dim);
    Quat2Euler(np_, ref_.object_init.data() + 3,
               init_qpos_.data() + m()->nq - 3);
    initialized_pos_ = true;
  }

  // gym.make(id, seed=s) again: the generator seeded, then the draws of the
  // construction's zero step (a range target's) made as it made them.
  void Seed(uint64_t seed) override {
    MyoEnv::Seed(seed);
    if (ref_.type == Reference::Type::kRandom) {
      const int draws = 2 * ref_.robot_dim + ref_.object_dim;
      for (int i = 0; i < draws; ++i) rng_.NextDouble();
    }
  }

  // TrackEnv.reset: the motion's lookup from its start, the robot to the
  // initial pose.
  void Reset() override {
    index_cache_ = 0;
    ResetToInit();
  }

  ENVPOOL_LITE_STATE_AFTER(MyoEnv, index_cache_, cur_robot_, cur_robot_vel_,
                           cur_object_)

 protected:
  // get_obs_dict: the reference at the env's time (update_reference_insim:
  // the target site moved to it, mj_forward), then the hand's and the
  // object's state and their errors.
  void ObsDict() override {
    GetReference(d()->time + motion_start_time_);
    std::copy(cur_object_.begin(), cur_object_.begin() + 3,
              m()->site_pos + 3 * target_sid_);
    api_.forward(m(), d());
    const int nq = m()->nq, nv = m()->nv;
    const int hq = nq - 6, hv = nv - 6;
    std::copy(d()->qpos, d()->qpos + nq, Obs("qp"));
    std::copy(d()->qvel, d()->qvel + nv, Obs("qv"));
    double* robot_err = Obs("robot_err");
    for (int i = 0; i < hq; ++i) robot_err[i] = d()->qpos[i] - cur_robot_[i];
    std::copy(d()->qpos, d()->qpos + hq, Obs("curr_hand_qpos"));
    std::copy(d()->qvel, d()->qvel + hv, Obs("curr_hand_qvel"));
    std::copy(cur_robot_.begin(), cur_robot_.end(), Obs("targ_hand_qpos"));
    if (ref_.has_robot_vel) {
      std::copy(cur_robot_vel_.begin(), cur_robot_vel_.end(),
                Obs("targ_hand_qvel"));
    } else {
      Obs("targ_hand_qvel")[0] = 0.0;
    }
    const double* com = d()->xipos + 3 * object_bid_;
    std::copy(com, com + 3, Obs("curr_obj_com"));
    Mat2Quat(*lapack_, d()->ximat + 9 * object_bid_, Obs("curr_obj_rot"));
    const double* wrist = d()->xipos + 3 * wrist_bid_;
    std::copy(wrist, wrist + 3, Obs("wrist_err"));
    double* base = Obs("base_error");
    for (int i = 0; i < 3; ++i) base[i] = com[i] - wrist[i];
    std::copy(cur_object_.begin(), cur_object_.begin() + 3,
              Obs("targ_obj_com"));
    std::copy(cur_object_.begin() + 3, cur_object_.end(), Obs("targ_obj_rot"));
    double* qpos_err = Obs("hand_qpos_err");
    for (int i = 0; i < hq; ++i) qpos_err[i] = d()->qpos[i] - cur_robot_[i];
    double* qvel_err = Obs("hand_qvel_err");
    if (ref_.has_robot_vel) {
      for (int i = 0; i < hv; ++i) {
        qvel_err[i] = d()->qvel[i] - cur_robot_vel_[i];
      }
    } else {
      qvel_err[0] = 0.0;
    }
    double* com_err = Obs("obj_com_err");
    for (int i = 0; i < 3; ++i) com_err[i] = com[i] - cur_object_[i];
    if (m()->na > 0) std::copy(d()->act, d()->act + m()->na, Obs("act"));
  }

  // get_reward_dict.
  void RewardDict() override {
    const double* tgt_com = Obs("targ_obj_com");
    const double* tgt_rot = Obs("targ_obj_rot");
    const double* obj_com = Obs("curr_obj_com");
    const double* obj_rot = Obs("curr_obj_rot");
    double diff[3];
    for (int i = 0; i < 3; ++i) diff[i] = tgt_com[i] - obj_com[i];
    const double obj_com_err = std::sqrt(SumSquares(diff, 3));
    // rotation_distance(obj_rot, tgt_obj_rot, euler=False) / np.pi.
    const double obj_rot_err =
        std::fabs(QuatDiff2Speed(np_, tgt_rot, obj_rot)) / kPi;
    const double obj_reward =
        np_.Exp(-kObjErrScale * (obj_com_err + 0.1 * obj_rot_err));
    const bool lift_bonus = tgt_com[2] >= lift_z_ && obj_com[2] >= lift_z_;
    const int hq = m()->nq - 6;
    const int nvel = ref_.has_robot_vel ? m()->nv - 6 : 1;
    const double qpos_reward =
        np_.Exp(-kQposErrScale * SumSquares(Obs("hand_qpos_err"), hq));
    const double qvel_reward =
        np_.Exp(-kQvelErrScale * SumSquares(Obs("hand_qvel_err"), nvel));
    const double pose_reward = kQposRewardWeight * qpos_reward;
    const double vel_reward = kQvelRewardWeight * qvel_reward;
    const double base_error = std::sqrt(SumSquares(Obs("base_error"), 3));
    const double base_reward = np_.Exp(-kBaseErrScale * base_error);
    const bool term = CheckTermination();
    Rwd("pose") = pose_reward + vel_reward;
    Rwd("object") = obj_reward + base_reward;
    Rwd("bonus") = kLiftBonusMag * (lift_bonus ? 1.0 : 0.0);
    Rwd("penalty") = term ? 1.0 : 0.0;
    Rwd("sparse") = 0.0;
    Rwd("solved") = 0.0;
    Rwd("done") = initialized_pos_ && term ? 1.0 : 0.0;
  }

 private:
  using LoopFn = void (*)(char** args, const intptr_t* dims,
                          const intptr_t* steps, void* data);

  // TrackEnv._setup's constants.
  static constexpr double kLiftBonusThresh = 0.02;
  static constexpr double kObjErrScale = 50;
  static constexpr double kBaseErrScale = 40;
  static constexpr double kLiftBonusMag = 1;
  static constexpr double kQposRewardWeight = 0.35;
  static constexpr double kQposErrScale = 5.0;
  static constexpr double kQvelRewardWeight = 0.05;
  static constexpr double kQvelErrScale = 0.1;
  static constexpr double kObjFailThresh = 0.25;
  static constexpr double kBaseFailThresh = 0.25;
  static constexpr double kQposFailThresh = 0.75;

  // The model TrackEnv.__init__ builds: the XML text with "OBJECT_NAME"
  // replaced by the object's name, loaded from a virtual file system that
  // holds it under the file's own path (the files it includes are read
  // from beside it). Serialised, as LoadModel is.
  static ModelPtr LoadObjectModel(const Config& config) {
    const std::string& path = config.GetString("mujoco_model");
    if (path.empty()) {
      throw std::invalid_argument(
          "option 'mujoco_model' is empty (make() fills it from the "
          "installed myosuite package)");
    }
    const std::string& object = config.GetString("object_name");
    if (object.empty()) {
      throw std::invalid_argument(
          "option 'object_name' is needed (the object: a folder of "
          "myosuite's simhive/object_sim, e.g. 'airplane')");
    }
    if (object.find_first_of("\"'<>&/\\") != std::string::npos) {
      throw std::invalid_argument("option 'object_name': '" + object +
                                  "' is not an object's name");
    }
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      throw std::invalid_argument("MuJoCo: cannot read model " + path);
    }
    std::stringstream buffer;
    buffer << file.rdbuf();
    std::string xml = buffer.str();
    const std::string key = "OBJECT_NAME";
    for (std::size_t at = xml.find(key); at != std::string::npos;
         at = xml.find(key, at + object.size())) {
      xml.replace(at, key.size(), object);
    }
    const std::string& lib = config.GetString("mujoco_lib");
    const Api& api = LoadApi(lib);
    // The last model compiled, kept to be copied (mj_copyModel) by the next
    // env of the same text: a pool's envs and make()'s spec share one
    // compilation (tens of megabytes of meshes, a tenth of a second or more).
    static std::mutex mutex;
    static std::string cached_key;
    static mjModel* cached = nullptr;  // kept to the end of the process
    static CopyModelFn copy_model = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (copy_model == nullptr) copy_model = FindCopyModel(lib);
    const std::string cache_key = lib + '\n' + path + '\n' + xml;
    if (cached != nullptr && cache_key == cached_key) {
      mjModel* m = copy_model(nullptr, cached);
      if (m == nullptr) throw std::runtime_error("MuJoCo: mj_copyModel failed");
      return ModelPtr(m, mujoco::ModelDeleter{&api});
    }
    mjVFS vfs;
    api.default_vfs(&vfs);
    struct Free {
      const Api& api;
      mjVFS* vfs;
      ~Free() { api.delete_vfs(vfs); }
    } free_vfs{api, &vfs};
    if (api.add_buffer_vfs(&vfs, path.c_str(), xml.data(),
                           static_cast<int>(xml.size())) != 0) {
      throw std::runtime_error("MuJoCo: cannot add " + path + " to a VFS");
    }
    char error[1024] = {0};
    mjModel* m = api.load_xml(path.c_str(), &vfs, error, sizeof(error));
    if (m == nullptr) {
      throw std::invalid_argument("option 'object_name' = '" + object +
                                  "': MuJoCo cannot load " + path +
                                  " with it: " + error);
    }
    if (cached != nullptr) api.delete_model(cached);
    cached = m;
    cached_key = cache_key;
    mjModel* copy = copy_model(nullptr, m);
    if (copy == nullptr)
      throw std::runtime_error("MuJoCo: mj_copyModel failed");
    return ModelPtr(copy, mujoco::ModelDeleter{&api});
  }

  // mj_copyModel of the MuJoCo library at `lib` (already loaded by LoadApi).
  using CopyModelFn = mjModel* (*)(mjModel*, const mjModel*);
  static CopyModelFn FindCopyModel(const std::string& lib) {
    void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    void* f = handle == nullptr ? nullptr : dlsym(handle, "mj_copyModel");
    if (f == nullptr) {
      throw std::runtime_error("MuJoCo: no mj_copyModel in " + lib);
    }
    return reinterpret_cast<CopyModelFn>(f);
  }

  static bool HasKey(const NamedNumbers& table, const char* key) {
    for (const auto& [name, v] : table) {
      if (name == key) return true;
    }
    return false;
  }
  static const std::vector<double>* Find(const NamedNumbers& table,
                                         const char* key) {
    for (const auto& [name, v] : table) {
      if (name == key) return &v;
    }
    return nullptr;
  }

  // The reference's table: "reference", or, with "reference_path", what
  // make() read from that file.
  static const NamedNumbers& ReferenceTable(const Config& config) {
    const NamedNumbers& table = config.GetNamedNumbers("reference");
    if (config.GetString("reference_path").empty()) return table;
    if (!table.empty()) {
      throw std::invalid_argument(
          "options 'reference' and 'reference_path': give one");
    }
    return config.GetNamedNumbers("reference_data");
  }

  // ReferenceMotion.__init__ (load, check_format, the type and horizon,
  // the initial postures) of a table, for a hand of robot_dim joints.
  static Reference ReadReference(const Config& config, int robot_dim,
                                 const NumpyMath& np) {
    const NamedNumbers& table = ReferenceTable(config);
    const bool from_file = !config.GetString("reference_path").empty();
    const std::string what =
        from_file
            ? "the reference file '" + config.GetString("reference_path") + "'"
            : std::string("option 'reference'");
    if (table.empty()) {
      throw std::invalid_argument(
          from_file ? what + " was not read (make() reads it)"
                    : std::string("option 'reference' (or 'reference_path') "
                                  "is needed"));
    }
    for (const auto& [name, v] : table) {
      if (name != "time" && name != "robot" && name != "robot_vel" &&
          name != "object" && name != "robot_init" && name != "object_init") {
        throw std::invalid_argument(
            what + ": no key '" + name +
            "' in a reference (time, robot, robot_vel, object, robot_init, "
            "object_init)");
      }
    }
    Reference r;
    r.robot_dim = robot_dim;
    const std::vector<double>* time = Find(table, "time");
    const std::vector<double>* robot = Find(table, "robot");
    const std::vector<double>* object = Find(table, "object");
    if (time == nullptr || time->empty() || robot == nullptr ||
        object == nullptr) {
      throw std::invalid_argument(what + " needs 'time', 'robot' and 'object'");
    }
    auto rows = [&](const std::vector<double>& v, int dim, const char* key) {
      if (v.empty() || v.size() % static_cast<std::size_t>(dim) != 0) {
        throw std::invalid_argument(what + ": '" + key + "' must be rows of " +
                                    std::to_string(dim) + " numbers, got " +
                                    std::to_string(v.size()));
      }
      return static_cast<int>(v.size() / static_cast<std::size_t>(dim));
    };
    r.robot = *robot;
    r.object = *object;
    r.robot_rows = rows(r.robot, robot_dim, "robot");
    r.object_rows = rows(r.object, r.object_dim, "object");
    if (const std::vector<double>* vel = Find(table, "robot_vel")) {
      r.robot_vel = *vel;
      r.has_robot_vel = true;
      if (rows(r.robot_vel, robot_dim, "robot_vel") != r.robot_rows) {
        throw std::invalid_argument(what +
                                    ": 'robot_vel' needs as many rows as "
                                    "'robot'");
      }
    }
    for (double t : *time) r.time.push_back(Around4(t));
    r.horizon = std::max(r.robot_rows, r.object_rows);
    if (r.robot_rows > 2 || r.object_rows > 2) {
      r.type = Reference::Type::kTrack;
      for (int n : {r.robot_rows, r.object_rows}) {
        if (n != 1 && n != r.horizon) {
          throw std::invalid_argument(
              what + ": 'robot' and 'object' each need one row or " +
              std::to_string(r.horizon) + " (the motion's)");
        }
      }
      if (static_cast<int>(r.time.size()) != r.horizon) {
        throw std::invalid_argument(what +
                                    ": 'time' needs one entry per "
                                    "frame (" +
                                    std::to_string(r.horizon) + ")");
      }
      for (std::size_t i = 1; i < r.time.size(); ++i) {
        if (!(r.time[i] > r.time[i - 1])) {
          throw std::invalid_argument(what + ": 'time' must increase");
        }
      }
    } else {
      r.type =
          r.horizon == 2 ? Reference::Type::kRandom : Reference::Type::kFixed;
      // get_reference reads row 0 (and row 1 of a range) of each.
      if (r.robot_rows != r.horizon || r.object_rows != r.horizon) {
        throw std::invalid_argument(
            what +
            ": a range needs two rows of 'robot', 'robot_vel' and "
            "'object' (low, high)");
      }
      if (!r.has_robot_vel) {
        throw std::invalid_argument(
            what + ": 'robot_vel' is needed for a fixed or random target");
      }
    }
    // The initial postures: given, else the first rows.
    if (const std::vector<double>* init = Find(table, "robot_init")) {
      if (static_cast<int>(init->size()) != robot_dim) {
        throw std::invalid_argument(what + ": 'robot_init' needs " +
                                    std::to_string(robot_dim) + " numbers");
      }
      r.robot_init = *init;
    } else {
      r.robot_init.assign(r.robot.begin(), r.robot.begin() + robot_dim);
    }
    if (const std::vector<double>* init = Find(table, "object_init")) {
      if (init->size() == 6) {
        // (x, y, z, Euler angles) to (x, y, z, quaternion).
        r.object_init.assign(init->begin(), init->begin() + 3);
        double quat[4];
        Euler2Quat(np, init->data() + 3, quat);
        r.object_init.insert(r.object_init.end(), quat, quat + 4);
      } else if (init->size() == 7) {
        r.object_init = *init;
      } else {
        throw std::invalid_argument(
            what +
            ": 'object_init' needs 7 numbers (position, quaternion) "
            "or 6 (position, Euler angles)");
      }
    } else {
      r.object_init.assign(r.object.begin(), r.object.begin() + r.object_dim);
    }
    return r;
  }

  static void CheckOptions(const Config& config, const Api& api,
                           const mjModel* m) {
    if (config.GetInt("frame_skip") != 10) {
      throw std::invalid_argument(
          "option 'frame_skip': MyoDM's TrackEnv steps 10 frames (it passes "
          "frame_skip=10 itself; myosuite raises TypeError for another), "
          "got " +
          std::to_string(config.GetInt("frame_skip")));
    }
    if (!config.GetBool("motion_extrapolation")) {
      throw std::invalid_argument(
          "option 'motion_extrapolation' = False is not supported: myosuite "
          "2.12.2's TrackEnv._setup then sets self.spec.max_episode_steps "
          "while its spec is still None (AttributeError)");
    }
    if (m->nq < 7 || m->nv < 7) {
      throw std::invalid_argument("the model has no hand and object");
    }
    const std::string& object = config.GetString("object_name");
    const char* bodies[] = {object.c_str(), "lunate"};
    for (const char* body : bodies) {
      if (api.name2id(m, mjOBJ_BODY, body) < 0) {
        throw std::invalid_argument(
            std::string("option 'object_name': the model has no body '") +
            body + "'");
      }
    }
    if (api.name2id(m, mjOBJ_SITE, "target") < 0 ||
        api.name2id(m, mjOBJ_GEOM, "body") < 0) {
      throw std::invalid_argument(
          "the model has no site 'target' or geom 'body' (MyoDM's "
          "myohand_object.xml has)");
    }
    const Reference r = ReadReference(config, m->nq - 6, NumpyMath());
    const double start = config.GetFloat("motion_start_time");
    if (r.type == Reference::Type::kTrack && Around4(start) < r.time[0]) {
      // ReferenceMotion.find_timeslot_in_reference raises ValueError at
      // the first reset for a time before the motion's first frame.
      throw std::invalid_argument(
          "option 'motion_start_time' must not be before the motion's first "
          "frame (" +
          std::to_string(r.time[0]) + " s)");
    }
  }

  // ReferenceMotion.find_timeslot_in_reference (motion_extrapolation on):
  // the frames about `time` (rounded), from the cached index.
  std::pair<int, int> Timeslot(double time) {
    const std::vector<double>& t = ref_.time;
    const int last = ref_.horizon - 1;
    if (time >= t[last]) return {last, last};
    if (time == t[index_cache_]) return {index_cache_, index_cache_};
    if (index_cache_ < last) {
      if (time == t[index_cache_ + 1]) {
        ++index_cache_;
        return {index_cache_, index_cache_};
      }
      if (time > t[index_cache_] && time < t[index_cache_ + 1]) {
        return {index_cache_, index_cache_ + 1};
      }
      // "No result using hueristic search": np.searchsorted(side="right").
      index_cache_ =
          static_cast<int>(std::upper_bound(t.begin(), t.end(), time) -
                           t.begin()) -
          1;
      if (index_cache_ >= 0 && index_cache_ < last) {
        if (time == t[index_cache_]) return {index_cache_, index_cache_};
        if (time > t[index_cache_] && time < t[index_cache_ + 1]) {
          return {index_cache_, index_cache_ + 1};
        }
      }
    }
    throw std::runtime_error("ReferenceMotion: no frame for time " +
                             std::to_string(time));
  }

  // np.power(base, e) of a float64 scalar and an array (numpy's power loop,
  // the scalar's stride 0), into out.
  void PowerOf(double base, const double* e, int n, double* out) const {
    if (power_ == nullptr) {
      for (int i = 0; i < n; ++i) out[i] = std::pow(base, e[i]);
      return;
    }
    char* args[3] = {reinterpret_cast<char*>(&base),
                     reinterpret_cast<char*>(const_cast<double*>(e)),
                     reinterpret_cast<char*>(out)};
    const intptr_t dims[1] = {n};
    const intptr_t steps[3] = {0, sizeof(double), sizeof(double)};
    power_(args, dims, steps, power_data_);
  }

  // ReferenceMotion.get_reference(time): into cur_robot_, cur_robot_vel_,
  // cur_object_.
  void GetReference(double time) {
    const int dim = ref_.robot_dim, odim = ref_.object_dim;
    auto row = [](const std::vector<double>& v, int i, int n) {
      return v.data() + static_cast<std::size_t>(i) * n;
    };
    if (ref_.type == Reference::Type::kFixed) {
      std::copy(row(ref_.robot, 0, dim), row(ref_.robot, 1, dim),
                cur_robot_.begin());
      std::copy(row(ref_.robot_vel, 0, dim), row(ref_.robot_vel, 1, dim),
                cur_robot_vel_.begin());
      std::copy(row(ref_.object, 0, odim), row(ref_.object, 1, odim),
                cur_object_.begin());
      return;
    }
    if (ref_.type == Reference::Type::kRandom) {
      // np_random.uniform(low=row 0, high=row 1) of robot, robot_vel,
      // object, in that order.
      for (int i = 0; i < dim; ++i) {
        cur_robot_[i] = rng_.Uniform(ref_.robot[i], ref_.robot[dim + i]);
      }
      for (int i = 0; i < dim; ++i) {
        cur_robot_vel_[i] =
            rng_.Uniform(ref_.robot_vel[i], ref_.robot_vel[dim + i]);
      }
      for (int i = 0; i < odim; ++i) {
        cur_object_[i] = rng_.Uniform(ref_.object[i], ref_.object[odim + i]);
      }
      return;
    }
    const double rounded = Around4(time);
    const auto [ind, next] = Timeslot(rounded);
    const bool robot_track = ref_.robot_rows > 1;
    const bool object_track = ref_.object_rows > 1;
    if (ind == next) {
      const int r = robot_track ? ind : 0;
      std::copy(row(ref_.robot, r, dim), row(ref_.robot, r + 1, dim),
                cur_robot_.begin());
      if (ref_.has_robot_vel) {
        std::copy(row(ref_.robot_vel, r, dim), row(ref_.robot_vel, r + 1, dim),
                  cur_robot_vel_.begin());
      }
      const int o = object_track ? ind : 0;
      std::copy(row(ref_.object, o, odim), row(ref_.object, o + 1, odim),
                cur_object_.begin());
      return;
    }
    // The blend, as ReferenceMotion writes it: time (not rounded) - t[ind] /
    // (t[next] - t[ind]), and (1 - blend) ** frame + blend * next frame for
    // the hand.
    const std::vector<double>& t = ref_.time;
    const double blend = time - t[ind] / (t[next] - t[ind]);
    if (robot_track) {
      PowerOf(1.0 - blend, row(ref_.robot, ind, dim), dim, cur_robot_.data());
      const double* nxt = row(ref_.robot, next, dim);
      for (int i = 0; i < dim; ++i) cur_robot_[i] += blend * nxt[i];
      if (ref_.has_robot_vel) {
        PowerOf(1.0 - blend, row(ref_.robot_vel, ind, dim), dim,
                cur_robot_vel_.data());
        const double* vnxt = row(ref_.robot_vel, next, dim);
        for (int i = 0; i < dim; ++i) cur_robot_vel_[i] += blend * vnxt[i];
      }
    } else {
      std::copy(row(ref_.robot, 0, dim), row(ref_.robot, 1, dim),
                cur_robot_.begin());
      if (ref_.has_robot_vel) {
        std::copy(row(ref_.robot_vel, 0, dim), row(ref_.robot_vel, 1, dim),
                  cur_robot_vel_.begin());
      }
    }
    if (object_track) {
      const double* a = row(ref_.object, ind, odim);
      const double* b = row(ref_.object, next, odim);
      for (int i = 0; i < odim; ++i) {
        cur_object_[i] = (1.0 - blend) * a[i] + blend * b[i];
      }
    } else {
      std::copy(row(ref_.object, 0, odim), row(ref_.object, 1, odim),
                cur_object_.begin());
    }
  }

  // check_termination: the object far from its reference or from the
  // wrist (Termimate_obj_fail), the hand far from its pose
  // (Termimate_pose_fail).
  bool CheckTermination() {
    bool obj_term = false, base_term = false, qpos_term = false;
    if (term_obj_) {
      obj_term =
          SumSquares(Obs("obj_com_err"), 3) >= kObjFailThresh * kObjFailThresh;
      base_term =
          SumSquares(Obs("base_error"), 3) >= kBaseFailThresh * kBaseFailThresh;
    }
    if (term_pose_) {
      qpos_term =
          SumSquares(Obs("hand_qpos_err"), m()->nq - 6) >= kQposFailThresh;
    }
    return obj_term || qpos_term || base_term;
  }

  const NumpyLapack* lapack_;
  Reference ref_;
  double motion_start_time_ = 0.0;
  bool term_obj_ = true, term_pose_ = false;
  bool initialized_pos_ = false;
  int target_sid_ = -1, object_bid_ = -1, wrist_bid_ = -1;
  double lift_z_ = 0.0;
  int index_cache_ = 0;
  std::vector<double> cur_robot_, cur_robot_vel_, cur_object_;
  LoopFn power_ = nullptr;
  void* power_data_ = nullptr;
};

}  // namespace myosuite
}  // namespace envpool_lite
