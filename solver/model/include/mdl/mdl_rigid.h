// SPDX-License-Identifier: MIT
// 3-D rigid bodies with unit-quaternion orientation for multibody models. Body b owns the
// coordinates q[7b .. 7b+7) = (x [m], quaternion (w, x, y, z) body → world) and the velocities
// v[6b .. 6b+6) = (ẋ [m/s] in the world frame, ω [rad/s] in the body frame), so its mass block is
// the constant diag(m, m, m, I_1, I_2, I_3) with principal inertia I and the gyroscopic torque
// −ω × (I ω) enters f.
#ifndef MDL_MDL_RIGID_H
#define MDL_MDL_RIGID_H

// Rotation matrix R (row-major 3×3, world = R · body) of a unit quaternion quat = (w, x, y, z).
void mdl_rigid_rotation(const double quat[4], double R[9]);

// q̇ = N(q) v for nbodies bodies: ẋ = v, quaternion rate ½ quat ⊗ (0, ω) (q 7·nbodies entries, v
// and qdot as above; qdot 7·nbodies entries).
void mdl_rigid_velocity_map(int nbodies, const double *q, const double *v, double *qdot);

// Re-normalises every body's quaternion in place (the position update after q1 = q0 + h N v1).
void mdl_rigid_normalize(int nbodies, double *q);

// Writes one body's 6×6 row-major mass block
// diag(m, m, m, I[0], I[1], I[2]) into M (36 entries) [kg, kg·m²].
void mdl_rigid_mass_block(double m, const double I[3], double *M);

// Gyroscopic torque −ω × (I ω) [N·m] of one body (body frame) written to tau (3 entries).
void mdl_rigid_gyroscopic(const double I[3], const double omega[3], double tau[3]);

// Jacobian of dirᵀ·(velocity of the body point p = x + R r_b) with respect to the body's 6
// velocities: out = (dirᵀ, (r_b × Rᵀ dir)ᵀ); r_b in the body frame [m], dir a world vector.
void mdl_rigid_point_jacobian(const double R[9], const double rb[3], const double dir[3],
                              double out[6]);

#endif  // MDL_MDL_RIGID_H
