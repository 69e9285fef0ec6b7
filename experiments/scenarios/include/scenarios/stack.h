// SPDX-License-Identifier: MIT
// Stack of spheres (paper A §6.5, Fig 10; SPEC §5 `stack`): N rigid spheres in a vertical column
// released at rest in mid-air above a ground plane, Hertz contact with friction between neighbours
// and with the ground.
#ifndef SCENARIOS_STACK_H
#define SCENARIOS_STACK_H

#include "mbs/mbs_model.h"
#include "mbs/mbs_rigid.h"
#include "mbs/mbs_scene.h"
#include "scenarios/hertz.h"

// Parameters (defaults from stack_params_default).
typedef struct stack_params {
  int n;       // number of spheres N (10)
  double r;    // sphere radius [m] (0.1, default)
  double m;    // sphere mass [kg] (1, default); I = (2/5) m r²
  double gap;  // initial vertical gap between neighbours and above the ground [m] (0.01, default)
  double E;    // Hertz modulus [Pa] (1e11, paper); E* = E (default), r_eff = r (ground), r/2
  double b;    // normal damping B [N·s/m] (1, paper)
  double bt;   // tangential damping B_t [N·s/m] (1e8 = 1e6/h at h = 0.01, paper A §6.4)
  double mu;   // friction coefficient (0.5, default: the paper does not give it)
  double g;    // gravity [m/s²] (9.81)
  hertz_mode hertz;               // Hertz row (HERTZ_DEFAULT)
  hertz_dissipation dissipation;  // normal damping law (hertz.h; paper: the constant b)
  double alpha;                   // Hunt–Crossley α [s/m] (0.02)
  double tau_d;                   // SAP's τ_d [s] (1e-5)
} stack_params;

// The defaults listed above.
stack_params stack_params_default(void);

struct xp_params;
struct xp_error;
// Reads the STACK_PARAM_DEFS keys of validated parameters into *out (other fields untouched),
// with B_t = 1e6/h by default for the step h actually used; 0, or an XP_ERR_* code with a
// message (a dissipation law other than paper with hertz = paper).
int stack_params_read(const struct xp_params *prm, double h, stack_params *out,
                      struct xp_error *err);

// A stack instance; `model` is ready for a step after stack_init succeeds (ctx points at the
// instance, which must not move while the model is in use).
typedef struct stack {
  stack_params p;
  mbs_model model;
  int *block_size;  // n entries of 6 (heap, owned)
  double inertia[3];
  mbs_scene scene;  // the column's geometry (model.scene), for peers
} stack;

// Fills s from p (copied): n rigid bodies (mbs_rigid.h), contact c = 0 sphere 0–ground, c = i
// sphere i−1–sphere i (neighbours in the column only), each a normal row and two tangent rows,
// always reported. Returns 0, or −1 if n < 1 or out of memory.
int stack_init(stack *s, const stack_params *p);
// Frees what stack_init allocated; s may be zeroed.
void stack_free(stack *s);

// Initial state: sphere i centred at (0, 0, r + gap + i (2r + gap)), identity orientation, at
// rest (q 7n, v 6n).
void stack_initial_state(const stack *s, double *q, double *v);

// Resting state: every contact at its static Hertz overlap, (F²/(E² r_eff))^{1/3} with F = (n − c)
// m g the weight above contact c, centres on the z axis, at rest (q 7n, v 6n; HERTZ_DEFAULT rows).
void stack_resting_state(const stack *s, double *q, double *v);

// Appends contact c's rows (normal, two tangents; Hertz with r_eff = reff, B, B_t, μ of p) between
// sphere a (−1: a fixed plane) and sphere b of radius p->r, unit normal nrm from a towards b,
// overlap d [m]; the contact points are the centres ∓ r n̂. 0, or −1 if the rows do not fit.
// Shared by the stack and the pile (pile.h).
int stack_contact_rows(mbs_rows *rows, int c, int a, int b, const double *q, const double *nrm,
                       double d, double reff, const stack_params *p);

// Total energy [J] at (q, v): kinetic (translation and rotation) + gravity (z above the ground
// plane) + the Hertz potential of every overlapping contact: (2/5) E*√r_eff d^{5/2} for the
// default row's F = E*√r_eff d^{3/2}, ½ E*√r_eff d³ for hertz=paper's F = (3/2) E*√r_eff d².
// With B ≥ 0 paper A's implicit step cannot raise it (issue 14).
double stack_energy(const stack *s, const double *q, const double *v);

// Overlap [m] of contact c (0: ground–sphere 0, c ≥ 1: sphere c−1 – sphere c) at q.
double stack_contact_depth(const stack *s, const double *q, int c);

// The scenario's physical parameters as xp_param_def initialisers (xp/xp.h), declared once for
// the method matrix (stack.c) and the paper study (drivers/xp_stack.c).
#define STACK_PARAM_DEFS                                                                     \
  {"r", XP_REAL, "0.1", XP_POSITIVE, "m", NULL, "sphere radius (default)"},                  \
      {"m", XP_REAL, "1", XP_POSITIVE, "kg", NULL, "sphere mass (default); I = 2/5 m r^2"},  \
      {"gap",                                                                                \
       XP_REAL,                                                                              \
       "0.01",                                                                               \
       XP_NONNEGATIVE,                                                                       \
       "m",                                                                                  \
       NULL,                                                                                 \
       "initial vertical gap between neighbours and above the ground (default)"},            \
      {"E",                                                                                  \
       XP_REAL,                                                                              \
       "1e11",                                                                               \
       XP_POSITIVE,                                                                          \
       "Pa",                                                                                 \
       NULL,                                                                                 \
       "Hertz modulus, used as E* (paper A); r_eff = r (ground), r/2 (sphere pairs)"},       \
      {"B", XP_REAL, "1", XP_NONNEGATIVE, "N*s/m", NULL, "normal damping (paper A)"},        \
      {"Bt",                                                                                 \
       XP_REAL,                                                                              \
       "0",                                                                                  \
       XP_NONNEGATIVE,                                                                       \
       "N*s/m",                                                                              \
       NULL,                                                                                 \
       "tangential damping; 0 means 1e6/h (paper A §6.4); K_t = 0"},                         \
      {"mu",                                                                                 \
       XP_REAL,                                                                              \
       "0.5",                                                                                \
       XP_NONNEGATIVE,                                                                       \
       "",                                                                                   \
       NULL,                                                                                 \
       "friction coefficient (default; the paper does not give it)"},                        \
      {"g", XP_REAL, "9.81", XP_NONNEGATIVE, "m/s^2", NULL, "gravity (default)"},            \
      {"hertz", XP_STRING, "default", XP_ANY, "", "default|paper", "Hertz row (SPEC §1.4)"}, \
      {"dissipation",                                                                        \
       XP_STRING,                                                                            \
       "paper",                                                                              \
       XP_ANY,                                                                               \
       "",                                                                                   \
       "paper|hunt-crossley|sap",                                                            \
       "normal damping law (hertz.h): paper A's constant B, Hunt-Crossley, SAP"},            \
      {"alpha", XP_REAL, "0.02", XP_NONNEGATIVE, "s/m", NULL, "Hunt-Crossley alpha"}, {      \
    "tau_d", XP_REAL, "1e-5", XP_NONNEGATIVE, "s", NULL, "SAP dissipation time scale"        \
  }

#endif  // SCENARIOS_STACK_H
