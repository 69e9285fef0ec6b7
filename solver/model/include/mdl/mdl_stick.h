// SPDX-License-Identifier: MIT
// Tangential stick (SPEC §1.6; Cundall–Strack): per contact a tangential spring K_t (with an
// optional damper B_t) whose anchor is set where sticking starts, its force capped by the
// friction cone ‖λ_t‖ ≤ μλ_n, the anchor sliding with the contact when the cap is reached.
//
// In paper A's step the spring is a compliant tangent row like the Hertz normal row: stiffness
// K_t, damping B_t and the stored elastic displacement δ as the row's φ, so the step's target
// (eqs. 53, 104, 118) λ_t = −K_t δ0 − (hK_t + B_t) G_t v1 is the implicit-Euler force of the
// spring stretched to δ1 = δ0 + h G_t v1 (regularisation D = h²K_t + hB_t, right-hand side
// ĉ = (−K_t δ0 − (hK_t + B_t) G_t v_free)/D as for every compliant row). After a taken step the
// anchors move by the return mapping: δ1 = δ0 + h v_t1, scaled to μλ_n/K_t when K_t‖δ1‖ exceeds
// the cap, so the stored spring force never exceeds the cone (slip) and, with B_t = 0, equals
// the tangent force the step applied (the cone's optimality makes it parallel to δ1).
//
// Rolling and twisting resistance (optional, coefficient μ_r > 0; the elastic–plastic spring of
// DEM rolling resistance, Iwashita & Oda 1998, Ai et al. 2011 model C without its dashpot): per
// loaded contact two more friction cones on the relative angular velocity ω_b − ω_a, the caller's
// five rows after the contact's three:
//   L_r (normal, no Jacobian, target torque T = μ_r r_eff F_n), R1, R2 (tangent, along t̂1, t̂2),
//   L_w (normal, no Jacobian, target T),                        W (tangent, along n̂),
// with μ = 1 on L_r, L_w, so the solve keeps ‖τ_roll‖ ≤ λ_Lr and |τ_twist| ≤ λ_Lw ≈ T inside the
// step (a row without a Jacobian is a pure force variable: its λ is its target). R1, R2, W are
// springs K_r with the angle anchor θ as φ: the step's torque is the implicit-Euler spring torque
// −K_r θ0 − hK_r G v1 within the cone. After a taken step θ1 = θ0 + h G v1, its rolling part
// capped at ‖K_r θ_t‖ ≤ λ_Lr and its twist at |K_r θ_n| ≤ λ_Lw (return mapping).
//
// The anchors are kept per contact pair (a 64-bit key of the caller's choosing), as 3-D world
// vectors; a contact reported again is given its anchor rotated into its current tangent plane
// (length kept), a contact that opens (λ_n = 0) or is no longer reported loses it. Storage: an
// open-addressing table sized once; nothing is allocated per step.
#ifndef MDL_MDL_STICK_H
#define MDL_MDL_STICK_H

#include "mdl/mdl_model.h"

typedef struct mdl_stick mdl_stick;

// Anchors for at most max_contacts contacts per rows call, spring K_t > 0 [N/m], damper
// B_t ≥ 0 [N·s/m]; NULL on bad sizes or out of memory. The memory starts switched off.
mdl_stick *mdl_stick_create(int max_contacts, double kt, double bt);
void mdl_stick_free(mdl_stick *st);

// Clears every anchor and switches the memory on (a stepper that updates it is about to run).
void mdl_stick_start(mdl_stick *st);
// 1 once mdl_stick_start was called: the model reports stick rows; 0: memoryless rows.
int mdl_stick_on(const mdl_stick *st);
// K_t [N/m] and B_t [N·s/m] of the tangent rows.
double mdl_stick_stiffness(const mdl_stick *st);
double mdl_stick_damping(const mdl_stick *st);

// Starts a rows call: no contact recorded yet.
void mdl_stick_begin(mdl_stick *st);
// Records contact c (numbered 0, 1, … in the rows call) with its pair key, the index of its
// normal row (its two tangent rows follow it, along t1 and t2), the unit normal and tangents;
// writes phi[0..1], the stored anchor's components along t1, t2 (0 for a new contact).
// Returns 0, or −1 if c is out of range.
int mdl_stick_contact(mdl_stick *st, int c, unsigned long long key, int normal_row,
                      const double n[3], const double t1[3], const double t2[3], double phi[2]);
// After a taken step of size h from the recorded rows: rows are the step's (evaluated at its
// start, the ones the contacts were recorded in), lambda their forces [N], v1 the end velocity.
// Moves every anchor by the return mapping above. Returns 0, or −1 if the rows do not match
// the recorded contacts.
int mdl_stick_update(mdl_stick *st, double h, const double *v1, const mdl_rows *rows,
                     const double *lambda);
// Rolling resistance coefficient μ_r ≥ 0 (0, the default: no rolling or twisting rows); 0, or −1
// if not finite and ≥ 0.
int mdl_stick_set_rolling(mdl_stick *st, double mur);
double mdl_stick_rolling(const mdl_stick *st);
// 1 if the pair `key` ended the last taken step loaded (λ_n > 0): its anchors are stored.
int mdl_stick_loaded(const mdl_stick *st, unsigned long long key);
// After mdl_stick_contact(c): contact c also has the five rolling/twisting rows above starting at
// roll_row (R1, R2 along its t1, t2, W along n̂), stiffness kr [N·m/rad]; writes theta[0..2],
// the stored angle anchor's components along t1, t2, n̂ [rad]. Returns 0, or −1 if c was not
// recorded, μ_r = 0 or kr is not positive.
int mdl_stick_contact_rolling(mdl_stick *st, int c, int roll_row, double kr, double theta[3]);
// Potential ½K_t Σ‖δ‖² + ½K_r Σ‖θ‖² [J] of the stored anchors (part of the total energy).
double mdl_stick_energy(const mdl_stick *st);
// Stored anchors (contacts that stick or slip with λ_n > 0).
int mdl_stick_count(const mdl_stick *st);
// The stored anchors, to restart a step elsewhere (a saved step state): per stored contact its
// key and MDL_STICK_SLOT values (δ in the world frame [m], θ_t in the world frame, θ_n [rad]).
// mdl_stick_export writes at most max of them and returns how many are stored;
// mdl_stick_import switches the memory on and replaces the table by n of them with the stored
// potential `energy` [J]; 0, or −1 on bad sizes or a repeated key.
enum { MDL_STICK_SLOT = 7 };
int mdl_stick_export(const mdl_stick *st, int max, unsigned long long *keys, double *vals);
int mdl_stick_import(mdl_stick *st, int n, const unsigned long long *keys, const double *vals,
                     double energy);

#endif  // MDL_MDL_STICK_H
