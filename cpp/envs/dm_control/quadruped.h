// dm_control/suite/quadruped.py: walk, run, escape, fetch.
//
// Besides the suite's usual arithmetic, the quadruped's observations use
// numpy calls with no libm counterpart:
// - np.dot of a vector or matrix with the torso's 3x3 frame: numpy's BLAS
//   dgemv / dgemm (OpenBLAS's kernels sum with fused multiply-adds on some
//   CPUs), called here from numpy's own BLAS library;
// - np.arcsinh (force_torque): numpy's own loop (np_.Arcsinh; on CPUs with
//   AVX-512 it is SVML's, which rounds unlike libm's asinh);
// - escape's terrain: scipy.ndimage.zoom of random bumps (order-3 spline,
//   mode 'constant'), computed here as scipy's C code computes it
//   (ScipyZoomCubic).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dm_control/dmc_env.h"
#include "envs/dm_control/rewards.h"

namespace envpool_lite {
namespace dm_control {

template <int kTask>  // 0 walk, 1 run, 2 escape, 3 fetch
class QuadrupedEnv : public DmcEnv {
  static constexpr bool kEscape = kTask == 2;
  static constexpr bool kFetch = kTask == 3;

 public:
  static Config DefaultConfig() {
    static const char* kNames[4] = {"walk", "run", "escape", "fetch"};
    return BaseConfig("quadruped", kNames[kTask], 20, 0.02);
  }

  QuadrupedEnv(const Config& config, uint64_t seed)
      : DmcEnv(config, seed),
        torso_(BodyId("torso")),
        floor_geom_(GeomId("floor")),
        root_(JointId("root")),
        velocimeter_(model_->sensor_adr[SensorId("velocimeter")]) {
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_type[j] == mjJNT_HINGE) hinges_.push_back(j);
    }
    for (int s = 0; s < model_->nsensor; ++s) {
      const int type = model_->sensor_type[s];
      if (type == mjSENS_GYRO || type == mjSENS_ACCELEROMETER) {
        imu_.push_back(s);
      } else if (type == mjSENS_FORCE || type == mjSENS_TORQUE) {
        force_torque_.push_back(s);
      } else if (type == mjSENS_RANGEFINDER) {
        rangefinders_.push_back(s);
      }
    }
    if constexpr (kFetch) {
      ball_ = BodyId("ball");
      ball_geom_ = GeomId("ball");
      ball_root_ = JointId("ball_root");
      target_ = SiteId("target");
      workspace_ = SiteId("workspace");
    }
    if constexpr (kEscape) workspace_ = SiteId("workspace");
  }

  // Escape's terrain, drawn at each reset into the model's heightfield
  // (which the base's model state leaves out), and uploaded to the
  // renderer as a reset uploads it.
  void SaveState(StateWriter& out) const override {
    DmcEnv::SaveState(out);
    if constexpr (kEscape) {
      out.Bytes(model_->hfield_data, sizeof(float) * model_->nhfielddata);
    }
  }
  void LoadState(StateReader& in) override {
    DmcEnv::LoadState(in);
    if constexpr (kEscape) {
      in.Bytes(model_->hfield_data, sizeof(float) * model_->nhfielddata);
      if (renderer() != nullptr) renderer()->UploadHField(model_.get(), 0);
    }
  }

 protected:
  void InitializeEpisode() override {
    if constexpr (kFetch) {
      const double azimuth = random_.Uniform(0, 2 * kPi);
      const double orientation[4] = {np_.Cos(azimuth / 2), 0, 0,
                                     np_.Sin(azimuth / 2)};
      const double spawn_radius = 0.9 * model_->geom_size[3 * FloorGeom()];
      const double x = random_.Uniform(-spawn_radius, spawn_radius);
      const double y = random_.Uniform(-spawn_radius, spawn_radius);
      FindNonContactingHeight(orientation, x, y);
      double* ball_qpos = JointQpos(ball_root_);
      ball_qpos[0] = random_.Uniform(-spawn_radius, spawn_radius);
      ball_qpos[1] = random_.Uniform(-spawn_radius, spawn_radius);
      ball_qpos[2] = 2;
      double* ball_qvel = JointQvel(ball_root_);
      ball_qvel[0] = 5 * random_.StandardNormal();
      ball_qvel[1] = 5 * random_.StandardNormal();
      return;
    }
    if constexpr (kEscape) {
      MakeTerrain();
      // dm_control re-uploads the heightfield to its GL context, if any.
      if (renderer() != nullptr) renderer()->UploadHField(model_.get(), 0);
    }
    double orientation[4];
    for (double& v : orientation) v = random_.StandardNormal();
    const double norm = Norm(orientation, 4);
    for (double& v : orientation) v /= norm;
    FindNonContactingHeight(orientation, 0.0, 0.0);
  }

  double GetReward() override {
    if constexpr (kEscape) {
      const double terrain_size = model_->hfield_size[0];
      const double origin_distance = Norm(data_->site_xpos + 3 * workspace_, 3);
      const double escape_reward =
          Tolerance(np_, origin_distance, terrain_size, kInf, terrain_size,
                    Sigmoid::kLinear, 0);
      return UprightReward(20) * escape_reward;
    } else if constexpr (kFetch) {
      const double arena_radius =
          model_->geom_size[3 * FloorGeom()] * std::sqrt(2.0);
      const double workspace_radius = model_->site_size[3 * workspace_];
      const double ball_radius = model_->geom_size[3 * ball_geom_];
      const double* ws = data_->site_xpos + 3 * workspace_;
      const double* ball = data_->xpos + 3 * ball_;
      const double* target = data_->site_xpos + 3 * target_;
      const double self_to_ball[2] = {ws[0] - ball[0], ws[1] - ball[1]};
      const double reach_reward = Tolerance(np_, Norm(self_to_ball, 2), 0,
                                            workspace_radius + ball_radius,
                                            arena_radius, Sigmoid::kLinear, 0);
      const double target_radius = model_->site_size[3 * target_];
      const double ball_to_target[2] = {target[0] - ball[0],
                                        target[1] - ball[1]};
      const double fetch_reward =
          Tolerance(np_, Norm(ball_to_target, 2), 0, target_radius,
                    arena_radius, Sigmoid::kLinear, 0);
      const double reach_then_fetch = reach_reward * (0.5 + 0.5 * fetch_reward);
      return UprightReward(0) * reach_then_fetch;
    } else {
      constexpr double speed = kTask == 0 ? 0.5 : 5.0;  // _WALK/_RUN_SPEED
      const double move_reward =
          Tolerance(np_, data_->sensordata[velocimeter_], speed, kInf, speed,
                    Sigmoid::kLinear, 0.5);
      return UprightReward(0) * move_reward;
    }
  }

  void GetObservation(Observation& obs) override {
    // egocentric_state: hinge qpos, hinge qvel, act.
    std::vector<double> ego;
    for (int j : hinges_) ego.push_back(*JointQpos(j));
    for (int j : hinges_) ego.push_back(*JointQvel(j));
    for (int i = 0; i < model_->na; ++i) ego.push_back(data_->act[i]);
    obs.Add("egocentric_state", ego);
    obs.Add("torso_velocity", data_->sensordata + velocimeter_, {3});
    obs.Add("torso_upright", data_->xmat[9 * torso_ + 8]);
    obs.Add("imu", SensorValues(imu_));
    std::vector<double> ft = SensorValues(force_torque_);
    for (double& v : ft) v = np_.Arcsinh(v);
    obs.Add("force_torque", ft);
    const double* frame = data_->xmat + 9 * torso_;
    const double* torso_pos = data_->xpos + 3 * torso_;
    if constexpr (kEscape) {
      double origin[3];
      blas_.VecMat3(torso_pos, frame, origin);
      for (double& v : origin) v = -v;
      obs.Add("origin", origin, {3});
      std::vector<double> rf = SensorValues(rangefinders_);
      for (double& v : rf) v = v == -1.0 ? 1.0 : np_.Tanh(v);
      obs.Add("rangefinder", rf);
    }
    if constexpr (kFetch) {
      const double* ball_pos = data_->xpos + 3 * ball_;
      const double* ball_qvel = JointQvel(ball_root_);
      const double* root_qvel = JointQvel(root_);
      double state[9];
      for (int i = 0; i < 3; ++i) {
        state[i] = ball_pos[i] - torso_pos[i];
        state[3 + i] = ball_qvel[i] - root_qvel[i];
        state[6 + i] = ball_qvel[3 + i];
      }
      double ball_state[9];
      blas_.MatMat3(state, 3, frame, ball_state);
      obs.Add("ball_state", ball_state, {9});
      const double* target = data_->site_xpos + 3 * target_;
      double to_target[3], target_position[3];
      for (int i = 0; i < 3; ++i) to_target[i] = target[i] - torso_pos[i];
      blas_.VecMat3(to_target, frame, target_position);
      obs.Add("target_position", target_position, {3});
    }
  }

  void RecordResetState(ResetState& out) override {
    out.Add("qpos0", data_->qpos, model_->nq);
    out.Add("qvel0", data_->qvel, model_->nv);
    out.Add("qacc_warmstart0", data_->qacc_warmstart, model_->nv);
    out.Add("act0", data_->act, model_->na);
    // escape's terrain (EnvPool's one 0 for the tasks without one).
    if (model_->nhfield > 0) {
      out.Add("hfield0", model_->hfield_data + model_->hfield_adr[0],
              model_->hfield_nrow[0] * model_->hfield_ncol[0]);
    } else {
      out.Add("hfield0", std::vector<double>{0.0});
    }
  }

 private:
  int FloorGeom() const { return floor_geom_; }

  std::vector<double> SensorValues(const std::vector<int>& sensors) const {
    std::vector<double> out;
    for (int s : sensors) {
      const double* v = data_->sensordata + model_->sensor_adr[s];
      out.insert(out.end(), v, v + model_->sensor_dim[s]);
    }
    return out;
  }

  // _upright_reward(physics, deviation_angle).
  double UprightReward(double deviation_angle) const {
    const double deviation = np_.Cos(deviation_angle * (kPi / 180.0));
    return Tolerance(np_, data_->xmat[9 * torso_ + 8], deviation, kInf,
                     1 + deviation, Sigmoid::kLinear, 0);
  }

  // _find_non_contacting_height: up from z = 0 in 1 cm steps, each try a
  // reset_context (reset, qpos, forward; its PhysicsErrors ignored), until
  // no contacts.
  void FindNonContactingHeight(const double* orientation, double x, double y) {
    double z = 0.0;
    int num_contacts = 1;
    int num_attempts = 0;
    while (num_contacts > 0) {
      api_.reset_data(model_.get(), data_.get());
      ForwardWithoutActuation();
      double* qpos = JointQpos(root_);
      qpos[0] = x;
      qpos[1] = y;
      qpos[2] = z;
      for (int i = 0; i < 4; ++i) qpos[3 + i] = orientation[i];
      ForwardWithoutActuation();
      num_contacts = data_->ncon;
      z += 0.01;
      ++num_attempts;
      if (num_attempts > 10000) {
        throw std::runtime_error(
            "Failed to find a non-contacting configuration.");
      }
    }
  }

  void MakeTerrain();

  int torso_, floor_geom_, root_, velocimeter_;
  int ball_ = -1, ball_geom_ = -1, ball_root_ = -1, target_ = -1,
      workspace_ = -1;
  std::vector<int> hinges_, imu_, force_torque_, rangefinders_;
};

// scipy.ndimage.zoom(input (n x n), zoom) with its defaults (order 3,
// mode 'constant', cval 0, prefilter, grid_mode False) into out (m x m),
// m = round(n * zoom), computed as scipy 1.17's C code computes it
// (ni_splines.c, ni_interpolation.c): the cubic B-spline prefilter along
// axis 0 then axis 1 (one pole, mirror boundary: scipy filters mode
// 'constant' with mirror boundaries), then for each output point the 4x4
// taps at input coordinate k * (n - 1) / (m - 1) per axis (outside
// [0, n - 1]: cval), taps past the edges mirrored, summed row by row.
inline void ScipyZoomCubic(const std::vector<double>& input, int n, int m,
                           std::vector<double>* out) {
  // spline_filter: apply_filter on each line, in place.
  std::vector<double> c = input;
  auto filter_line = [n](double* line, int stride) {
    if (n <= 1) return;
    std::vector<double> v(n);
    for (int i = 0; i < n; ++i) v[i] = line[i * stride];
    const double z = -0.267949192431122706472553658494127633;  // sqrt(3) - 2
    double gain = 1.0;
    gain *= (1.0 - z) * (1.0 - 1.0 / z);
    for (double& x : v) x *= gain;
    // _init_causal_mirror
    double z_i = z;
    const double z_n_1 = std::pow(z, static_cast<double>(n - 1));
    v[0] = v[0] + z_n_1 * v[n - 1];
    for (int i = 1; i < n - 1; ++i) {
      v[0] += z_i * (v[i] + z_n_1 * v[n - 1 - i]);
      z_i *= z;
    }
    v[0] /= 1 - z_n_1 * z_n_1;
    for (int i = 1; i < n; ++i) v[i] += z * v[i - 1];
    // _init_anticausal_mirror
    v[n - 1] = (z * v[n - 2] + v[n - 1]) * z / (z * z - 1);
    for (int i = n - 2; i >= 0; --i) v[i] = z * (v[i + 1] - v[i]);
    for (int i = 0; i < n; ++i) line[i * stride] = v[i];
  };
  for (int col = 0; col < n; ++col) filter_line(c.data() + col, n);  // axis 0
  for (int row = 0; row < n; ++row) filter_line(c.data() + row * n, 1);

  // NI_ZoomShift: per axis (both alike here), each output index's taps.
  const double zoom = m > 1 ? static_cast<double>(n - 1) / (m - 1) : 1.0;
  struct Taps {
    bool zero;
    int idx[4];
    double w[4];
  };
  auto mirror = [n](double in) {  // map_coordinate, NI_EXTEND_MIRROR
    if (in < 0) {
      if (n <= 1) return 0.0;
      const int64_t sz2 = 2 * static_cast<int64_t>(n) - 2;
      in = static_cast<double>(sz2 * static_cast<int64_t>(-in / sz2)) + in;
      return in <= 1 - n ? in + static_cast<double>(sz2) : -in;
    }
    if (in > n - 1) {
      if (n <= 1) return 0.0;
      const int64_t sz2 = 2 * static_cast<int64_t>(n) - 2;
      in -= static_cast<double>(sz2 * static_cast<int64_t>(in / sz2));
      if (in >= n) in = static_cast<double>(sz2) - in;
    }
    return in;
  };
  std::vector<Taps> taps(m);
  for (int k = 0; k < m; ++k) {
    Taps& t = taps[k];
    double cc = static_cast<double>(k);
    cc *= zoom;
    cc += 0.0;  // nprepad
    // map_coordinate, NI_EXTEND_CONSTANT: outside -> -1 -> cval.
    t.zero = cc < 0 || cc > n - 1;
    if (t.zero) continue;
    const int64_t start = static_cast<int64_t>(std::floor(cc)) - 1;
    for (int a = 0; a < 4; ++a) {
      t.idx[a] = static_cast<int>(mirror(static_cast<double>(start + a)));
    }
    // get_spline_interpolation_weights(cc, 3)
    double x = cc;
    x -= std::floor(x);
    const double y = x, zz = 1.0 - x;
    t.w[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0;
    t.w[2] = (zz * zz * (zz - 2.0) * 3.0 + 4.0) / 6.0;
    t.w[0] = zz * zz * zz / 6.0;
    t.w[3] = 1.0;
    for (int i = 0; i < 3; ++i) t.w[3] -= t.w[i];
  }
  out->assign(static_cast<std::size_t>(m) * m, 0.0);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      const Taps& ti = taps[i];
      const Taps& tj = taps[j];
      double t = 0.0;  // cval
      if (!ti.zero && !tj.zero) {
        for (int a = 0; a < 4; ++a) {
          for (int b = 0; b < 4; ++b) {
            double coeff =
                c[static_cast<std::size_t>(ti.idx[a]) * n + tj.idx[b]];
            coeff *= ti.w[a];
            coeff *= tj.w[b];
            t += coeff;
          }
        }
      }
      (*out)[static_cast<std::size_t>(i) * m + j] = t;
    }
  }
}

// Escape.initialize_episode's terrain: a bowl (0.5 - cos(2 pi r) / 2, r the
// radius clipped to [0.04, 1] on a res x res grid over [-1, 1]^2) times
// bumps uniform in [_TERRAIN_SMOOTHNESS, 1) on a coarse grid, zoomed to
// res x res; written into the heightfield (float32).
template <int kTask>
void QuadrupedEnv<kTask>::MakeTerrain() {
  const int res = model_->hfield_nrow[0];
  if (res != model_->hfield_ncol[0]) {
    throw std::logic_error("quadruped escape: the heightfield is not square");
  }
  const double terrain_size = 2 * model_->hfield_size[0];
  const int bump_res = static_cast<int>(terrain_size / 2);  // _BUMP_SCALE
  std::vector<double> bumps(static_cast<std::size_t>(bump_res) * bump_res);
  for (double& b : bumps) b = random_.Uniform(0.15, 1);  // _SMOOTHNESS
  // zoom's output shape: round(bump_res * (res / bump_res)).
  const double factor = res / static_cast<double>(bump_res);
  const int m = static_cast<int>(std::nearbyint(bump_res * factor));
  if (m != res) {
    throw std::logic_error("quadruped escape: zoomed terrain size mismatch");
  }
  std::vector<double> smooth;
  ScipyZoomCubic(bumps, bump_res, m, &smooth);
  // np.ogrid[-1:1:res*1j]: arange(res) * (2 / (res - 1)) + -1.
  const double step = (1.0 - (-1.0)) / static_cast<double>(res - 1);
  std::vector<double> grid(res);
  for (int k = 0; k < res; ++k) grid[k] = static_cast<double>(k) * step + -1.0;
  float* hfield = model_->hfield_data + model_->hfield_adr[0];
  const double two_pi = 2 * kPi;
  for (int i = 0; i < res; ++i) {
    for (int j = 0; j < res; ++j) {
      const double r2 = grid[j] * grid[j] + grid[i] * grid[i];
      const double radius = std::min(std::max(std::sqrt(r2), 0.04), 1.0);
      const double bowl = .5 - np_.Cos(two_pi * radius) / 2;
      hfield[i * res + j] = static_cast<float>(
          bowl * smooth[static_cast<std::size_t>(i) * res + j]);
    }
  }
}

inline void RegisterQuadruped(Registry& registry) {
  registry.Add<Task<QuadrupedEnv<0>>>("QuadrupedWalk-v1");
  registry.Add<Task<QuadrupedEnv<1>>>("QuadrupedRun-v1");
  registry.Add<Task<QuadrupedEnv<2>>>("QuadrupedEscape-v1");
  registry.Add<Task<QuadrupedEnv<3>>>("QuadrupedFetch-v1");
}

}  // namespace dm_control
}  // namespace envpool_lite
