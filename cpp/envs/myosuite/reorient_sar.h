// MyoSuite's SAR reorientation tasks (envs/myo/myobase/reorient_sar_v0.py,
// ProprioceptiveEnvV0 and its four object sets: Geometries8EnvV0,
// Geometries100EnvV0, InDistribution, OutofDistribution): the hand, palm up,
// turns an object to a target orientation, observing its muscles' lengths,
// velocities and forces besides the pen task's observation. At every reset
// the object's shape (capsule, ellipsoid, cylinder or box) and size are
// drawn from the set, and the target's orientation (two Euler angles).
//
// The sets' sizes are myosuite's own: the tables of its reset methods, read
// from the installed myosuite package's reorient_sar_v0.py (beside the
// model it loads) when the env is made, not copied here.
#pragma once

#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/pen.h"
#include "refkit/numpy/rotations.h"

namespace envpool_lite {
namespace myosuite {

// One object set: the sizes of its entries for each geom type (index 0 ...
// 3: MuJoCo's capsule 3, ellipsoid 4, cylinder 5, box 6), in their keys'
// order (0, 1, ...).
struct ObjectSet {
  std::array<std::vector<std::array<double, 3>>, 4> sizes;
};

namespace detail {

// Reads the dict literals {0: [[sx, sy, sz], [r, g, b, a]], 1: ...} of the
// set's reset method in myosuite's reorient_sar_v0.py: the tables "caps",
// "ellips", "cyl" and "box" in the class's body. Numbers parse as Python
// parses float literals (correctly rounded, as strtod).
class SetReader {
 public:
  SetReader(const std::string& text, std::string where)
      : s_(text), where_(std::move(where)) {}

  ObjectSet Read(const std::string& cls) {
    const std::size_t start = s_.find("\nclass " + cls + "(");
    if (start == std::string::npos) Fail("no class " + cls);
    std::size_t end = s_.find("\nclass ", start + 1);
    if (end == std::string::npos) end = s_.size();
    ObjectSet set;
    const char* names[4] = {"caps", "ellips", "cyl", "box"};
    for (int t = 0; t < 4; ++t) {
      const std::string pattern = std::string(" ") + names[t] + " = {";
      const std::size_t at = s_.find(pattern, start);
      if (at == std::string::npos || at >= end) {
        Fail(cls + " has no table '" + names[t] + "'");
      }
      i_ = at + pattern.size();
      end_ = end;
      set.sizes[t] = Table(cls + "." + names[t]);
    }
    return set;
  }

 private:
  std::vector<std::array<double, 3>> Table(const std::string& what) {
    std::vector<std::array<double, 3>> out;
    for (;;) {
      Skip();
      if (Peek('}')) break;
      const double key = Number(what);
      if (key != static_cast<double>(out.size())) {
        Fail(what + ": keys 0, 1, ... in order expected");
      }
      Expect(':', what);
      Expect('[', what);
      Expect('[', what);
      std::array<double, 3> size{};
      for (int k = 0; k < 3; ++k) {
        if (k > 0) Expect(',', what);
        size[k] = Number(what);
      }
      Expect(']', what);
      Expect(',', what);
      Expect('[', what);
      for (int k = 0; k < 4; ++k) {
        if (k > 0) Expect(',', what);
        Number(what);  // the colour, which the resets replace
      }
      Expect(']', what);
      Expect(']', what);
      out.push_back(size);
      Skip();
      if (Peek(',')) ++i_;
    }
    if (out.empty()) Fail(what + " is empty");
    return out;
  }

  void Skip() {
    while (i_ < end_) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_[i_] == '#') {
        while (i_ < end_ && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }
  bool Peek(char c) const { return i_ < end_ && s_[i_] == c; }
  void Expect(char c, const std::string& what) {
    Skip();
    if (!Peek(c)) Fail(what + ": '" + std::string(1, c) + "' expected");
    ++i_;
  }
  double Number(const std::string& what) {
    Skip();
    const char* b = s_.c_str() + i_;
    char* e = nullptr;
    const double v = std::strtod(b, &e);
    if (e == b || i_ + static_cast<std::size_t>(e - b) > end_) {
      Fail(what + ": a number expected");
    }
    i_ += static_cast<std::size_t>(e - b);
    return v;
  }
  [[noreturn]] void Fail(const std::string& why) const {
    throw std::runtime_error(
        "MyoSuite's SAR reorientation sets are read from myosuite " +
        std::string("2.12.2's ") + where_ + ", which does not read as that " +
        "version's: " + why);
  }

  const std::string& s_;
  std::string where_;
  std::size_t i_ = 0, end_ = 0;
};

}  // namespace detail

// The set of myosuite's class `cls`, from the reorient_sar_v0.py of the
// myosuite package whose model `model_path` is
// (<myosuite>/envs/myo/assets/hand/myohand_sar.xml), read once per process.
inline const ObjectSet& LoadObjectSet(const std::string& model_path,
                                      const std::string& cls) {
  static std::mutex mutex;
  static std::map<std::string, ObjectSet> loaded;
  const std::size_t slash = model_path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : model_path.substr(0, slash);
  const std::string path = dir + "/../../myobase/reorient_sar_v0.py";
  std::lock_guard<std::mutex> lock(mutex);
  const std::string key = path + "|" + cls;
  auto it = loaded.find(key);
  if (it != loaded.end()) return it->second;
  std::ifstream file(path);
  if (!file) {
    throw std::runtime_error(
        "MyoSuite's SAR reorientation sets are read from the installed "
        "myosuite package: " +
        path + " cannot be opened (pip install --no-deps myosuite==2.12.2)");
  }
  std::stringstream text;
  text << file.rdbuf();
  const std::string src = text.str();
  ObjectSet set = detail::SetReader(src, path).Read(cls);
  return loaded.emplace(key, std::move(set)).first->second;
}

// ProprioceptiveEnvV0 with one of the four sets' resets.
class ReorientSarEnv : public MyoEnv {
 public:
  enum class Variant { k8, k100, kInDistribution, kOutofDistribution };

  static const StringList& FixedObsKeys() {
    static const StringList keys{
        "hand_jnt",    "obj_pos",     "obj_vel", "obj_rot", "obj_des_rot",
        "obj_err_pos", "obj_err_rot", "mlen",    "mvel",    "mforce"};
    return keys;
  }

  static Config DefaultConfig() {
    Config c = BaseConfig();
    c.Set("obs_keys", FixedObsKeys());
    c.Set("weighted_reward_keys", NamedNumbers{{"pos_align", {1.0}},
                                               {"rot_align", {1.0}},
                                               {"act_reg", {5.0}},
                                               {"drop", {5.0}},
                                               {"bonus", {10.0}}});
    return c;
  }

  static Layout MakeLayout(const Config& config, const mjModel* m) {
    (void)config;
    Layout l;
    l.obs = {{"hand_jnt", m->nq - 6}, {"obj_pos", 3},    {"obj_des_pos", 3},
             {"obj_vel", 6},          {"obj_rot", 3},    {"obj_des_rot", 3},
             {"obj_err_pos", 3},      {"obj_err_rot", 3}};
    if (m->na > 0) {
      l.obs.push_back({"act", m->na});
      l.obs.push_back({"mlen", m->nu});
      l.obs.push_back({"mvel", m->nu});
      l.obs.push_back({"mforce", m->nu});
    }
    l.rwd = {
        {"pos_align"}, {"rot_align"}, {"act_reg"},         {"drop"},
        {"bonus"},     {"sparse"},    {"solved", 1, true}, {"done", 1, true},
        {"dense"}};
    return l;
  }

 protected:
  static EnvSpec Spec(const Config& config, const char* cls) {
    ModelPtr model = LoadTaskModel(config);
    const Api& api = LoadApi(config.GetString("mujoco_lib"));
    Ids(config, api, model.get());
    LoadObjectSet(config.GetString("mujoco_model"), cls);
    return BaseSpec(config, model.get(), MakeLayout(config, model.get()));
  }

  ReorientSarEnv(const Config& config, uint64_t seed, Variant variant,
                 const char* cls)
      : MyoEnv(config, seed, &MakeLayout),
        variant_(variant),
        set_(LoadObjectSet(config.GetString("mujoco_model"), cls)) {
    ids_ = Ids(config, api_, m());
    // _setup: the pen's lengths from the model as loaded (np.linalg.norm of
    // a 1-d array, sqrt(x.dot(x)): the top and bottom geoms differ in z
    // only, so the sum is exact in any order), which the resets' new top
    // and bottom positions do not update; the object 25% heavier, before
    // the setup's step.
    pen_length_ = GeomDistance(ids_.obj_t, ids_.obj_b);
    tar_length_ = GeomDistance(ids_.tar_t, ids_.tar_b);
    m()->body_mass[ids_.object] *= 1.25;
    Setup();
    // init_qpos[:-6] *= 0 (the hand fully open), init_qpos[0] = -1.5 (the
    // palm up).
    for (int i = 0; i + 6 < m()->nq; ++i) init_qpos_[i] *= 0.0;
    init_qpos_[0] = -1.5;
  }

 public:
  // The set's reset: the shape (Generator.choice([3, 4, 5, 6])), the entry
  // (one choice in Geometries8EnvV0, which takes size and colour from it;
  // two in the others, the size's and the colour's, though the colour is
  // then replaced), the object's and the target's geoms set to it, the
  // object's mass 1.2, its condim 3 (but in Geometries8EnvV0), the target's
  // orientation (Euler x in [-1, 1], y in [-0.8, 1.2], euler2quat), the
  // success site red, sync_sims of the env's data onto itself (mj_forward),
  // the reset.
  void Reset() override {
    const int type = 3 + static_cast<int>(rng_.Choice(4));
    const std::vector<std::array<double, 3>>& table = set_.sizes[type - 3];
    const int64_t n = static_cast<int64_t>(table.size());
    std::array<double, 3> size{};
    if (variant_ == Variant::k8) {
      size = table[rng_.Choice(n)];
    } else {
      size = table[rng_.Choice(n)];
      rng_.Choice(n);  // the colour's entry
    }
    double top = 0.0, bot = 0.0;
    if (type == 3) {
      top = 1.3 * size[1];
      bot = 1.3 * -size[1];
    } else if (type == 4) {
      top = size[2];
      bot = -size[2];
    } else if (type == 5) {
      top = size[1];
      bot = -size[1];
    } else {
      top = size[2];
      bot = -size[2];
    }
    double color[4];
    if (variant_ == Variant::k8) {
      const double c[4] = {1, 0.9, 0, 1.0};
      std::copy(c, c + 4, color);
    } else if (variant_ == Variant::kInDistribution) {
      const double c[4] = {38.0 / 255, 194.0 / 255, 129.0 / 255, 255.0 / 255};
      std::copy(c, c + 4, color);
    } else {
      const double c[4] = {128.0 / 255, 0.0 / 255, 0.0 / 255, 255.0 / 255};
      std::copy(c, c + 4, color);
    }
    SetGeom(ids_.obj_g, ids_.obj_t, ids_.obj_b, type, size, color, top, bot);
    m()->body_mass[ids_.object] = 1.2;
    SetGeom(ids_.tar_g, ids_.tar_t, ids_.tar_b, type, size, color, top, bot);
    if (variant_ != Variant::k8) m()->geom_condim[ids_.obj_g] = 3;
    double euler[3] = {0.0, 0.0, 0.0};
    euler[0] = rng_.Uniform(-1, 1);
    euler[1] = rng_.Uniform(-0.8, 1.2);
    float* rgba = m()->site_rgba + 4 * ids_.success;
    rgba[0] = 2.0f;
    rgba[1] = 0.0f;
    Euler2Quat(np_, euler, m()->body_quat + 4 * ids_.target);
    api_.forward(m(), d());
    ResetToInit();
  }

 protected:
  // get_obs_dict.
  void ObsDict() override {
    const int nq = m()->nq, nv = m()->nv;
    std::copy(d()->qpos, d()->qpos + nq - 6, Obs("hand_jnt"));
    double* obj_pos = Obs("obj_pos");
    double* des_pos = Obs("obj_des_pos");
    double* vel = Obs("obj_vel");
    double* rot = Obs("obj_rot");
    double* des_rot = Obs("obj_des_rot");
    double* err_pos = Obs("obj_err_pos");
    double* err_rot = Obs("obj_err_rot");
    const double* gx = d()->geom_xpos;
    for (int i = 0; i < 3; ++i) {
      obj_pos[i] = d()->xpos[3 * ids_.object + i];
      des_pos[i] = d()->site_xpos[3 * ids_.eps_ball + i];
    }
    for (int i = 0; i < 6; ++i) vel[i] = d()->qvel[nv - 6 + i] * dt_;
    for (int i = 0; i < 3; ++i) {
      rot[i] = (gx[3 * ids_.obj_t + i] - gx[3 * ids_.obj_b + i]) / pen_length_;
      des_rot[i] =
          (gx[3 * ids_.tar_t + i] - gx[3 * ids_.tar_b + i]) / tar_length_;
    }
    for (int i = 0; i < 3; ++i) {
      err_pos[i] = obj_pos[i] - des_pos[i];
      err_rot[i] = rot[i] - des_rot[i];
    }
    if (m()->na > 0) {
      const int nu = m()->nu;
      std::copy(d()->act, d()->act + m()->na, Obs("act"));
      std::copy(d()->actuator_length, d()->actuator_length + nu, Obs("mlen"));
      std::copy(d()->actuator_velocity, d()->actuator_velocity + nu,
                Obs("mvel"));
      std::copy(d()->actuator_force, d()->actuator_force + nu, Obs("mforce"));
    }
  }

  // get_reward_dict (PenTwirlFixedEnvV0's terms), and the success site
  // green once solved (red where it is not, until then).
  void RewardDict() override {
    const double pos_align = Norm(Obs("obj_err_pos"), 3, scratch_.data());
    const double* a = Obs("obj_rot");
    const double* b = Obs("obj_des_rot");
    double norm_product = Norm(a, 3, scratch_.data());
    norm_product = norm_product * Norm(b, 3, scratch_.data());
    if (norm_product == 0.0) norm_product = 1.0;
    const double rot_align = EinsumDot(a, b, 3) / norm_product;
    const bool dropped = pos_align > 0.075;
    const double act_mag = ActMag();
    const double near = static_cast<double>(pos_align < 0.075);
    const bool solved = rot_align > 0.95 && !dropped;
    Rwd("pos_align") = -1.0 * pos_align;
    Rwd("rot_align") = rot_align;
    Rwd("act_reg") = -1.0 * act_mag;
    Rwd("drop") = -1.0 * static_cast<double>(dropped);
    Rwd("bonus") = 1.0 * static_cast<double>(rot_align > 0.9) * near +
                   5.0 * static_cast<double>(rot_align > 0.95) * near;
    Rwd("sparse") = -1.0 * pos_align + rot_align;
    Rwd("solved") = solved ? 1.0 : 0.0;
    Rwd("done") = dropped ? 1.0 : 0.0;
    float* rgba = m()->site_rgba + 4 * ids_.success;
    if (!(rgba[0] == 0.0f && rgba[1] == 2.0f)) {
      rgba[0] = solved ? 0.0f : 2.0f;
      rgba[1] = solved ? 2.0f : 0.0f;
    }
  }

 private:
  struct IdSet {
    int target, object, eps_ball, success;
    int obj_g, tar_g, obj_t, obj_b, tar_t, tar_b;
  };

  static int Named(const Api& api, const mjModel* m, mjtObj type,
                   const char* name, const char* what) {
    const int id = api.name2id(m, type, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("option 'mujoco_model': the "
                                              "reorientation task needs the ") +
                                  what + " '" + name + "'");
    }
    return id;
  }

  static IdSet Ids(const Config& config, const Api& api, const mjModel* m) {
    // ProprioceptiveEnvV0._setup gives BaseV0 its own obs_keys: the
    // option is not used by myosuite, so only its own list is taken.
    StringList keys = config.GetStringList("obs_keys");
    if (!keys.empty() && keys.back() == "act") keys.pop_back();
    if (keys != FixedObsKeys()) {
      throw std::invalid_argument(
          "option 'obs_keys': myosuite's reorientation tasks "
          "(ProprioceptiveEnvV0) observe their own keys whatever obs_keys "
          "says (hand_jnt, obj_pos, obj_vel, obj_rot, obj_des_rot, "
          "obj_err_pos, obj_err_rot, mlen, mvel, mforce, act)");
    }
    if (m->na == 0) {
      throw std::invalid_argument(
          "option 'mujoco_model': the reorientation task observes muscles "
          "(mlen, mvel, mforce): the model has none");
    }
    IdSet ids{};
    ids.target = Named(api, m, mjOBJ_BODY, "target", "body");
    ids.object = Named(api, m, mjOBJ_BODY, "Object", "body");
    Named(api, m, mjOBJ_SITE, "S_grasp", "site");
    ids.eps_ball = Named(api, m, mjOBJ_SITE, "eps_ball", "site");
    ids.success = Named(api, m, mjOBJ_SITE, "success", "site");
    ids.obj_g = Named(api, m, mjOBJ_GEOM, "obj", "geom");
    ids.tar_g = Named(api, m, mjOBJ_GEOM, "target", "geom");
    ids.obj_t = Named(api, m, mjOBJ_GEOM, "top", "geom");
    ids.obj_b = Named(api, m, mjOBJ_GEOM, "bot", "geom");
    ids.tar_t = Named(api, m, mjOBJ_GEOM, "t_top", "geom");
    ids.tar_b = Named(api, m, mjOBJ_GEOM, "t_bot", "geom");
    if (m->nq < 6 || m->nv < 6) {
      throw std::invalid_argument(
          "option 'mujoco_model': the reorientation task needs the object's "
          "six joints last");
    }
    return ids;
  }

  double GeomDistance(int a, int b) const {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double v = m()->geom_pos[3 * a + i] - m()->geom_pos[3 * b + i];
      s += v * v;
    }
    return std::sqrt(s);
  }

  // A geom's size, type and colour (float32, as the model holds it), and
  // its top and bottom markers' positions (0, 0, z).
  void SetGeom(int g, int t, int b, int type, const std::array<double, 3>& size,
               const double* color, double top, double bot) {
    for (int i = 0; i < 3; ++i) m()->geom_size[3 * g + i] = size[i];
    m()->geom_type[g] = type;
    for (int i = 0; i < 4; ++i) {
      m()->geom_rgba[4 * g + i] = static_cast<float>(color[i]);
    }
    const double tp[3] = {0.0, 0.0, top}, bp[3] = {0.0, 0.0, bot};
    std::copy(tp, tp + 3, m()->geom_pos + 3 * t);
    std::copy(bp, bp + 3, m()->geom_pos + 3 * b);
  }

  Variant variant_;
  const ObjectSet& set_;
  IdSet ids_{};
  double pen_length_ = 1.0, tar_length_ = 1.0;
};

// The four sets, as myosuite registers them.
class ReorientGeometries8Env : public ReorientSarEnv {
 public:
  static EnvSpec MakeSpec(const Config& config) {
    return Spec(config, "Geometries8EnvV0");
  }
  ReorientGeometries8Env(const Config& config, uint64_t seed)
      : ReorientSarEnv(config, seed, Variant::k8, "Geometries8EnvV0") {}
};

class ReorientGeometries100Env : public ReorientSarEnv {
 public:
  static EnvSpec MakeSpec(const Config& config) {
    return Spec(config, "Geometries100EnvV0");
  }
  ReorientGeometries100Env(const Config& config, uint64_t seed)
      : ReorientSarEnv(config, seed, Variant::k100, "Geometries100EnvV0") {}
};

class ReorientInDistributionEnv : public ReorientSarEnv {
 public:
  static EnvSpec MakeSpec(const Config& config) {
    return Spec(config, "InDistribution");
  }
  ReorientInDistributionEnv(const Config& config, uint64_t seed)
      : ReorientSarEnv(config, seed, Variant::kInDistribution,
                       "InDistribution") {}
};

class ReorientOutofDistributionEnv : public ReorientSarEnv {
 public:
  static EnvSpec MakeSpec(const Config& config) {
    return Spec(config, "OutofDistribution");
  }
  ReorientOutofDistributionEnv(const Config& config, uint64_t seed)
      : ReorientSarEnv(config, seed, Variant::kOutofDistribution,
                       "OutofDistribution") {}
};

}  // namespace myosuite
}  // namespace envpool_lite
