// SPDX-License-Identifier: MIT
// Inside the conic step (mbs_qcp.c): the workspace it shares with the active-set prediction
// (mbs_predict.c), the row roles, and the prediction's entry points. Private to solver/mbs.
#ifndef MBS_MBS_QCP_INTERNAL_H
#define MBS_MBS_QCP_INTERNAL_H

#include "mbs_internal.h"

#ifdef MBS_HAVE_QCP

#include "qcp/qcp.h"
#include "qcp/qcp_arena.h"
#include "qcp/qcp_qd.h"

struct mbs_qcp {
  // everything one pattern needs (qws, the prediction's system) lives in the arena, sized at
  // creation and emptied when the pattern changes: a contact that joins or leaves sets up the new
  // pattern without malloc
  qcp_arena arena;
  qcp_workspace *qws;
  int n, p, l, m, nsoc0;             // sizes of the problem qws holds (n = 0: none)
  int nn, np, nl, nsoc, nP, nA, nG;  // sizes of the problem under construction
  int ncone;                         // cones of the last build
  int nlam;                          // of which λ_S (the first nlam variables)
  int have_pattern;                  // n, p, …, Pp0, … hold the pattern of the last load
  // structure and values under construction
  int *Pp, *Pi, *Ap, *Ai, *Gp, *Gi, *qdim;
  double *Px, *Ax, *Gx, *c, *b, *h;
  // structure qws was set up with
  int *Pp0, *Pi0, *Ap0, *Ai0, *Gp0, *Gi0, *qdim0;
  // transpose of the active compliant rows: column j holds (row s, value) pairs
  int *Tp, *Ti, *cnt;
  double *Tx;
  // per compact row: role, contact links (normal → tangents, tangent → normal), and its index
  // among the orthant (oidx), residual (ridx), equality (eidx), cone (cidx) rows, β column (bcol)
  int *role, *ntan, *tan1, *tan2, *tn, *oidx, *ridx, *eidx, *cidx, *bcol;
  int *cmap;                   // contact index → compact normal row (−1 between steps)
  double *wx, *ws_, *wy, *wz;  // last solution (warm start of the next solve)
  double *x0;                  // paper A's feasible start (MBS_START_FEASIBLE)
  int have_warm, same;         // a stored solution; the last load kept the pattern
  double *shift, *shift0;      // De Saxcé shifts of this and the previous iterate
  int have_shift;              // shift holds the last step's converged shifts (warm fixed point)
  int pending;                 // same pattern, values not yet passed to qws (flush_update)
  int cap_n, cap_p, cap_l, cap_P, cap_A, cap_G;
  // active-set prediction (relaxed/coulomb): K = [P Aᵀ; A −δI] of the problem qws holds with its
  // inequalities dropped, built with the pattern (so a step allocates nothing); pmap/amap: K's
  // slot of each P/A entry, kdiag: the slot of each diagonal; open: rows fixed at λ = 0
  qcp_qd *qd;
  int kn, *Kp, *Ki, *pmap, *amap, *kdiag, *open;
  int *changed, nchanged;     // λ rows flipped by the last correction (their K columns changed)
  int *guessed;               // rows this solve's corrections closed as a neighbour (once per row)
  int *open_f;                // the open flags of the matrix the factor holds (λ rows)
  long build_id, kbuild;      // builds made; the build whose values the factor holds (−1: none)
  double kscale;              // the regularisation's scale of the factor (largest |diagonal|)
  double kdmax_w;             // its largest |diagonal| over the w and y columns
  double kdelta, kdyn, keps;  // this step's regularisation (fixed across its corrections)
  int bodies_first;           // the factor's order: bodies, then λ rows (else AMD)
  // sliding contacts (relaxed): per compact normal row, slide = 1 while the contact is predicted
  // on its cone's boundary: λ = (a, μ a t̂ + b t̂⊥) about the unit direction t̂ (its tangents'
  // basis; t̂⊥ its normal in the tangent plane), a = λ_n in the member column `carrier`, the
  // across force b (Newton's direction correction) in `bslot` (two tangents) with the across
  // stiffness k (∞: b held at 0). tdir holds (t̂_1, t̂_2, μ, k) per row. carrier (−1: never
  // predicted sliding) and bslot hold the others' G patterns: slide_map[k], bmap[k] give their A
  // entry in the row of A entry k. slide_f: the flags of the matrix the factor holds
  int *slide, *slide_f, *carrier, *slide_map, *bslot, *bmap;
  double *tdir;
  // a prediction with sliding contacts that failed costs its solves: after one, the next
  // slide_skip predictions treat sliding as unpredictable (doubling with slide_fails in a row)
  int slide_skip, slide_fails, slid;  // slid: a contact slid in this prediction
  double *Kx, *Kx0, *krhs, *ksol, *kres;
  // the last solve's λ by model row (the active set of the next prediction, whatever the pattern)
  double *lam_row;
  long *row_stamp, stamp;  // row i took part in the last solve iff row_stamp[i] == stamp
  double *w_last;          // the last solve's w (nv): with lam_row, a warm start for a new pattern
                           // (held once a solve was recorded: stamp > 1)
  mbs_cn *cn;              // exact Coulomb by Newton (mbs_coulomb_newton.c)
};

// row roles in the conic problem (per compact compliant row s)
enum {
  ROLE_FREE = MBS_ROLE_FREE,
  ROLE_UNI = MBS_ROLE_UNI,
  ROLE_NORMAL = MBS_ROLE_NORMAL,
  ROLE_TANGENT = MBS_ROLE_TANGENT,
  ROLE_OFF = MBS_ROLE_OFF
};

// ---- the active-set prediction (mbs_predict.c) ------------------------------------------

// 1 if the settings ask for the prediction and the formulation allows it (relaxed, coulomb).
int mbs_predict_applies(const mbs_workspace *ws);
// Builds the prediction's system for the pattern q holds (K's pattern and its symbolic factor,
// in q's arena); 0, or −1 (out of memory: the step then never predicts).
int mbs_predict_setup(struct mbs_qcp *q);
// Forgets the prediction's system (its memory is the arena's, reclaimed at the next reset).
void mbs_predict_release(struct mbs_qcp *q);
// Records the solve's λ (q->wx) by model row: the next step's predicted active set.
void mbs_predict_record(mbs_workspace *ws, int ns, const int *sidx);
// The step's solve by prediction: (λ_S, w) and 1 if accepted (2 if a contact slides in it), 0 if
// not tried or rejected.
int mbs_predict_solve(mbs_workspace *ws, int ns, const int *sidx, const double *chat0,
                      double *lam_s, double *w);

#endif  // MBS_HAVE_QCP

#endif  // MBS_MBS_QCP_INTERNAL_H
