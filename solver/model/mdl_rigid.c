// SPDX-License-Identifier: MIT
// 3-D rigid-body kinematics with unit quaternions (mdl_rigid.h).
//
// With the body-frame angular velocity ω, the quaternion obeys q̇ = ½ q ⊗ (0, ω) and a body point
// p = x + R r_b moves with ṗ = ẋ + R (ω × r_b). Hence dirᵀṗ = dirᵀẋ + (Rᵀdir)·(ω × r_b)
// = dirᵀẋ + ω·(r_b × Rᵀdir): the Jacobian row (dirᵀ, (r_b × Rᵀdir)ᵀ). Euler's equations in the
// body frame, I ω̇ = τ − ω × (I ω), make the mass block constant and put the gyroscopic torque in
// f. The explicit quaternion update q1 = q0 + h q̇ leaves the unit sphere by O(h²); the position
// update re-normalises.
#include "mdl/mdl_rigid.h"

#include <math.h>

void mdl_rigid_rotation(const double quat[4], double R[9]) {
  const double w = quat[0], x = quat[1], y = quat[2], z = quat[3];
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

void mdl_rigid_velocity_map(int nbodies, const double *q, const double *v, double *qdot) {
  for (int b = 0; b < nbodies; b++) {
    const double *qb = q + 7 * b, *vb = v + 6 * b;
    double *d = qdot + 7 * b;
    const double w = qb[3], x = qb[4], y = qb[5], z = qb[6];
    const double ox = vb[3], oy = vb[4], oz = vb[5];
    d[0] = vb[0], d[1] = vb[1], d[2] = vb[2];
    d[3] = 0.5 * (-x * ox - y * oy - z * oz);
    d[4] = 0.5 * (w * ox + y * oz - z * oy);
    d[5] = 0.5 * (w * oy + z * ox - x * oz);
    d[6] = 0.5 * (w * oz + x * oy - y * ox);
  }
}

void mdl_rigid_normalize(int nbodies, double *q) {
  for (int b = 0; b < nbodies; b++) {
    double *u = q + 7 * b + 3;
    double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
    if (n > 0)
      for (int k = 0; k < 4; k++) u[k] /= n;
  }
}

void mdl_rigid_mass_block(double m, const double I[3], double *M) {
  for (int k = 0; k < 36; k++) M[k] = 0;
  M[0] = M[7] = M[14] = m;
  M[21] = I[0], M[28] = I[1], M[35] = I[2];
}

void mdl_rigid_gyroscopic(const double I[3], const double w[3], double tau[3]) {
  const double Iw[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]};
  tau[0] = -(w[1] * Iw[2] - w[2] * Iw[1]);
  tau[1] = -(w[2] * Iw[0] - w[0] * Iw[2]);
  tau[2] = -(w[0] * Iw[1] - w[1] * Iw[0]);
}

void mdl_rigid_point_jacobian(const double R[9], const double rb[3], const double dir[3],
                              double out[6]) {
  const double d[3] = {R[0] * dir[0] + R[3] * dir[1] + R[6] * dir[2],
                       R[1] * dir[0] + R[4] * dir[1] + R[7] * dir[2],
                       R[2] * dir[0] + R[5] * dir[1] + R[8] * dir[2]};  // Rᵀ dir
  out[0] = dir[0], out[1] = dir[1], out[2] = dir[2];
  out[3] = rb[1] * d[2] - rb[2] * d[1];
  out[4] = rb[2] * d[0] - rb[0] * d[2];
  out[5] = rb[0] * d[1] - rb[1] * d[0];
}
