// EnvPool's Box2D state for its alignment tests, which rebuild gymnasium's
// env from it: the envpool module reads it (Env::Debug, only when asked)
// into info fields of EnvPool's names. Box2D's float32 values, as float64.
#pragma once

#include <Box2D/Box2D.h>

#include <vector>

namespace envpool_lite {
namespace box2d_state {

// A body's (x, y, angle, vx, vy, angular velocity, awake).
inline std::vector<double> BodyState(const b2Body* body) {
  const b2Vec2 p = body->GetPosition();
  const b2Vec2 v = body->GetLinearVelocity();
  return {p.x,
          p.y,
          body->GetAngle(),
          v.x,
          v.y,
          body->GetAngularVelocity(),
          body->IsAwake() ? 1.0 : 0.0};
}

// Appends `more` to `out`.
inline void Append(std::vector<double>& out, const std::vector<double>& more) {
  out.insert(out.end(), more.begin(), more.end());
}

// A vertex of a body's shape in world coordinates times `scale` (float32
// arithmetic, as Box2D's b2Mul and EnvPool's).
inline void AppendWorldPoint(std::vector<double>& out, const b2Body* body,
                             const b2Vec2& v, float scale) {
  const b2Vec2 w = b2Mul(body->GetTransform(), v);
  out.push_back(scale * w.x);
  out.push_back(scale * w.y);
}

}  // namespace box2d_state
}  // namespace envpool_lite
