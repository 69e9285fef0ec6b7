// SPDX-License-Identifier: MIT
// Experiments on the spring–mass–damper (paper A §3): Figs 1–3 and an (h, k) stability map.
//
// Each case integrates m ẍ + b ẋ + k x = 0 from (x0, v0) with one scheme and stores the
// trajectory, the spectral radius ρ(A) of the scheme's iteration matrix (eq. 10 and analogues,
// from smd_iteration_matrix) and the growth factor observed in the trajectory itself (from
// smd_step, an independent code path), so a reader can check one against the other.
#include "xp/xp.h"
#include "xp/xp_claim.h"
#include "xp/xp_common.h"
#include "xp/xp_file.h"

#include "scenarios/smd.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// records every stride-th state into a series, and drives the progress bar
typedef struct smd_recorder {
  xp_series *out;
  size_t stride, n;
  double h;
  xp_progress *progress;
} smd_recorder;

static void smd_record(void *ctx, size_t i, double x, double v) {
  smd_recorder *r = ctx;
  if (i % r->stride == 0 || i == r->n) xp_series_push3(r->out, (double)i * r->h, x, v);
  if ((i & 0xffff) == 0) xp_progress_update(r->progress, (double)i / (double)r->n);
}

// ---- Figs 1–3: trajectories for a Cartesian product of h, k, b ------------------

// the listed parameters: mass (k, b, f left to the caller) and initial state
static void smd_params_read(const xp_params *prm, smd_params *out) { SMD_PARAM_LIST(XP_PARAM_READ) }
static void smd_start_read(const xp_params *prm, smd_start *out) {
  SMD_START_PARAM_LIST(XP_PARAM_READ)
}

// the case attributes of the listed parameters (m; x0, v0)
static void smd_params_case(xp_case *c, const smd_params *p) { SMD_PARAM_LIST(XP_PARAM_CASE) }
static void smd_start_case(xp_case *c, const smd_start *p) { SMD_START_PARAM_LIST(XP_PARAM_CASE) }

static int smd_run_cases(smd_scheme scheme, const xp_params *prm, xp_results *out,
                         xp_progress *progress, xp_error *err) {
  const double *hs, *ks, *bs;
  size_t nh = xp_params_list(prm, "h", &hs), nk = xp_params_list(prm, "k", &ks),
         nb = xp_params_list(prm, "b", &bs);
  smd_params base = {.f = 0};
  smd_start start;
  smd_params_read(prm, &base);
  smd_start_read(prm, &start);
  const double T = xp_params_real(prm, "T");
  const size_t max_points = (size_t)xp_params_int(prm, "max_points");
  size_t total = nh * nk * nb, done = 0;
  for (size_t ih = 0; ih < nh; ih++)
    for (size_t ik = 0; ik < nk; ik++)
      for (size_t ib = 0; ib < nb; ib++) {
        const double h = hs[ih];
        smd_params p = base;
        p.k = ks[ik], p.b = bs[ib];
        size_t n;
        if (xp_step_count(T, h, &n, err)) return XP_ERR_USAGE;
        size_t stride = n / max_points + 1;
        char name[128];
        xp_case_name(name, sizeof name, 3, (const char *[]){"h", "k", "b"},
                     (double[]){h, p.k, p.b});
        xp_series traj;
        if (xp_series_init(&traj, 3, n / stride + 3))
          return xp_fail(err, XP_ERR_RUN, "out of memory");
        smd_recorder rec = {.out = &traj, .stride = stride, .n = n, .h = h, .progress = progress};
        smd_run run = smd_simulate(scheme, &p, h, start.x0, start.v0, n, smd_record, &rec);
        double A[4];
        smd_iteration_matrix(scheme, &p, h, A);
        double rho = smd_spectral_radius(A);

        xp_case *c = xp_case_begin(out, name);
        xp_case_param_string(c, "scheme", smd_scheme_name(scheme));
        xp_case_param_real(c, "h", h, "s");
        xp_case_param_real(c, "k", p.k, "N/m");
        xp_case_param_real(c, "b", p.b, "N*s/m");
        smd_params_case(c, &p);
        smd_start_case(c, &start);
        xp_case_param_real(c, "T", T, "s");
        xp_case_stat_real(c, "spectral_radius", rho, "");
        xp_case_stat_real(c, "growth_observed", run.growth, "");
        xp_case_stat_real(c, "stability_boundary_h", smd_stability_boundary(scheme, &p), "s");
        xp_case_stat_real(c, "omega_h", sqrt(p.k / p.m) * h, "");
        xp_case_stat_real(c, "steps", (double)run.steps, "");
        xp_case_stat_real(c, "x_final", run.x_final, "m");
        // error against the closed form at the end time: √((x−x*)² + (v−v*)²/ω²)
        double x_exact = NAN, v_exact = NAN;
        if (p.k > 0 && !run.diverged)
          smd_exact(&p, start.x0, start.v0, (double)run.steps * h, &x_exact, &v_exact);
        xp_case_stat_real(c, "error_final",
                          hypot(run.x_final - x_exact, (run.v_final - v_exact) / sqrt(p.k / p.m)),
                          "m");
        double *t = traj.col[0], *x = traj.col[1], *v = traj.col[2];
        double *energy = malloc((traj.n + 1) * sizeof *energy);
        for (size_t i = 0; energy && i < traj.n; i++)
          energy[i] = 0.5 * p.k * x[i] * x[i] + 0.5 * p.m * v[i] * v[i];
        xp_case_series(c, "t", "s", t, traj.n);
        xp_case_series(c, "x", "m", x, traj.n);
        xp_case_series(c, "v", "m/s", v, traj.n);
        if (energy) xp_case_series(c, "energy", "J", energy, traj.n);
        free(energy);
        xp_series_free(&traj);
        if (run.diverged) {
          char msg[160];
          snprintf(msg, sizeof msg, "unstable: |y| exceeded %.0e after %zu of %zu steps (t = %g s)",
                   SMD_DIVERGED_NORM, run.steps, n, (double)run.steps * h);
          xp_case_status(c, "diverged", msg);
        } else {
          xp_case_status(c, "ok", NULL);
        }
        if (xp_case_end(c)) return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
        xp_progress_update(progress, (double)++done / (double)total);
      }
  return XP_OK;
}

// ---- Figs 1–3's statements as claims (SPEC §8) ----------------------------------------------
// One claim per statement of §3.1.1–3.1.3, judged on the spectral radius ρ(A) and the observed
// growth per step of the case it names: "stable" holds when both are ≤ 1, "unstable" when both
// are > 1, "damped" when both are < 1, "somewhat more stable" when both fall from b = 1 to
// b = 10. The claims' words are also the report's "paper A says" column (smd_paper_statement).

// ρ(A) and the observed growth of one case, 7 digits: a factor near 1 is the point
#define SMD_MEAS(lab, f, c, s) \
  { .label = lab, .op = XP_MEAS_STAT, .file = f, .cas = c, .stat = s, .paper = NAN, .digits = 7 }
#define SMD_RHO_GROWTH(f, c)                  \
  SMD_MEAS("ρ(A):", f, c, "spectral_radius"), \
      SMD_MEAS("observed growth per step:", f, c, "growth_observed")
#define SMD_BOUNDARY(f, c)                                                                  \
  {                                                                                         \
    .label = "closed-form stability boundary h*:", .op = XP_MEAS_STAT, .file = f, .cas = c, \
    .stat = "stability_boundary_h", .paper = NAN, .unit = "s", .digits = 7                  \
  }
#define SMD_FALL(lab, f, c, c1, s)                                                             \
  {                                                                                            \
    .label = lab, .op = XP_MEAS_RATIO, .file = f, .cas = c, .stat = s, .cas2 = c1, .stat2 = s, \
    .paper = NAN, .digits = 7                                                                  \
  }

#define FIG1 "h=1e-5_k=1e6_b="
static const xp_meas m_f1_b1[] = {SMD_RHO_GROWTH("smd_explicit", FIG1 "1")};
static const xp_meas c_f1_b1[] = {SMD_BOUNDARY("smd_explicit", FIG1 "1")};
static const xp_meas m_f1_b10[] = {
    SMD_FALL("ρ(A) at b = 10 ÷ at b = 1:", "smd_explicit", FIG1 "10", FIG1 "1", "spectral_radius"),
    SMD_FALL("observed growth at b = 10 ÷ at b = 1:", "smd_explicit", FIG1 "10", FIG1 "1",
             "growth_observed")};
static const xp_meas c_f1_b10[] = {
    SMD_MEAS("ρ(A) at b = 10:", "smd_explicit", FIG1 "10", "spectral_radius"),
    SMD_BOUNDARY("smd_explicit", FIG1 "10")};
static const xp_meas m_f1_b2e5[] = {SMD_RHO_GROWTH("smd_explicit", FIG1 "200000")};
static const xp_meas c_f1_b2e5[] = {SMD_BOUNDARY("smd_explicit", FIG1 "200000")};
static const xp_meas m_f1_b21e5[] = {SMD_RHO_GROWTH("smd_explicit", FIG1 "210000")};
static const xp_meas c_f1_b21e5[] = {SMD_BOUNDARY("smd_explicit", FIG1 "210000")};
#define FIG2 "h=0.001_k="
static const xp_meas m_f2_k1e6[] = {SMD_RHO_GROWTH("smd_semi", FIG2 "1e6_b=1")};
static const xp_meas c_f2_k1e6[] = {SMD_BOUNDARY("smd_semi", FIG2 "1e6_b=1")};
static const xp_meas m_f2_k1e7[] = {SMD_RHO_GROWTH("smd_semi", FIG2 "1e7_b=1")};
static const xp_meas c_f2_k1e7[] = {SMD_BOUNDARY("smd_semi", FIG2 "1e7_b=1")};
static const xp_meas m_f3[] = {
    SMD_MEAS("ρ(A), h = 1e-5:", "smd_implicit", "h=1e-5_k=1e6_b=0", "spectral_radius"),
    SMD_MEAS("observed growth per step:", "smd_implicit", "h=1e-5_k=1e6_b=0", "growth_observed"),
    SMD_MEAS("ρ(A), h = 1e-2:", "smd_implicit", "h=0.01_k=1e6_b=0", "spectral_radius"),
    SMD_MEAS("observed growth per step:", "smd_implicit", "h=0.01_k=1e6_b=0", "growth_observed")};

#define SMD_RULE(bound, up, str) \
  { .kind = XP_RULE_RATIO, .a = bound, .b = bound, .upper = up, .strict = str }
#define SMD_STABLE SMD_RULE(1, 1, 0)    // ρ ≤ 1
#define SMD_UNSTABLE SMD_RULE(1, 0, 1)  // ρ > 1
#define SMD_BELOW SMD_RULE(1, 1, 1)     // < 1: damped; a ratio: more stable

#define FIG1_WHERE "Fig 1 (explicit Euler, h = 1e-5, k = 1e6), "
#define FIG1_NOTE                                                                       \
  "`smd_explicit`; ρ(A) from the eigenvalues of eq. 10's matrix, the growth from the " \
  "simulated trajectory's envelope"
#define FIG2_WHERE "Fig 2 (semi-implicit Euler, h = 1e-3, b = 1), "
#define FIG2_NOTE                                                                         \
  "`smd_semi`; ρ(A) from the eigenvalues of eqs. 11–12's matrix, the growth from the " \
  "simulated trajectory's envelope"
static const xp_claim smd_claims[] = {
    {FIG1_WHERE "b = 1", "clearly unstable", SMD_UNSTABLE, XP_CLAIM_MEAS(m_f1_b1),
     XP_CLAIM_CONTEXT(c_f1_b1), FIG1_NOTE},
    {FIG1_WHERE "b = 10 against b = 1", "somewhat more stable", SMD_BELOW, XP_CLAIM_MEAS(m_f1_b10),
     XP_CLAIM_CONTEXT(c_f1_b10),
     FIG1_NOTE "; at b = 10 the step lies on the boundary h* = b/k, where |λ|² = det A = 1"},
    {FIG1_WHERE "b = 2e5", "stable", SMD_STABLE, XP_CLAIM_MEAS(m_f1_b2e5),
     XP_CLAIM_CONTEXT(c_f1_b2e5),
     FIG1_NOTE "; heavy damping: the boundary is h* = 4m/(b + √(b² − 4km))"},
    {FIG1_WHERE "b = 2.1e5", "unstable", SMD_UNSTABLE, XP_CLAIM_MEAS(m_f1_b21e5),
     XP_CLAIM_CONTEXT(c_f1_b21e5), FIG1_NOTE},
    {FIG2_WHERE "k = 1e6", "stable (k sufficiently small)", SMD_STABLE, XP_CLAIM_MEAS(m_f2_k1e6),
     XP_CLAIM_CONTEXT(c_f2_k1e6), FIG2_NOTE},
    {FIG2_WHERE "k = 1e7", "unstable", SMD_UNSTABLE, XP_CLAIM_MEAS(m_f2_k1e7),
     XP_CLAIM_CONTEXT(c_f2_k1e7), FIG2_NOTE},
    {"Fig 3 (implicit Euler, k = 1e6, b = 0), h = 1e-5 and 1e-2",
     "stable for any step size, the amplitude attenuates", SMD_BELOW, XP_CLAIM_MEAS(m_f3), NULL, 0,
     "`smd_implicit`; ρ(A) from the eigenvalues of eqs. 13–14's matrix; damped taken as "
     "ρ(A) < 1 (b = 0: the exact amplitude is constant, the scheme's factor per step is "
     "1/√(1 + (ωh)²))"},
};

const xp_claim *xp_paper_a_smd_claims(size_t *n) {
  *n = XP_COUNT(smd_claims);
  return smd_claims;
}

// the paper's words on a case of experiment x: those of the claim that judges it
static const char *smd_paper_statement(const char *x, const char *cas) {
  for (size_t i = 0; i < XP_COUNT(smd_claims); i++)
    for (size_t j = 0; j < smd_claims[i].n_meas; j++) {
      const xp_meas *m = &smd_claims[i].meas[j];
      if (strcmp(m->file, x) == 0 && strcmp(m->cas, cas) == 0) return smd_claims[i].words;
    }
  return "—";
}

// ---- report: the paper's statement per case beside ρ(A) and the observed growth -------------

// the report's word for one case's ρ(A), by the claims' rules: unstable where SMD_UNSTABLE holds
// (ρ > 1), stable where SMD_BELOW does (ρ < 1), marginal otherwise
static const char *smd_rho_word(double rho) {
  static const xp_rule unstable = SMD_UNSTABLE, below = SMD_BELOW;
  static const xp_meas m = SMD_MEAS("ρ(A):", "", "", "spectral_radius");
  return xp_rule_holds(&unstable, &m, rho) ? "unstable"
         : xp_rule_holds(&below, &m, rho)  ? "stable"
                                           : "marginal";
}

static int smd_report(const char *path, FILE *md, xp_error *err) {
  xp_file *f = xp_file_open(path, err);
  if (!f) return XP_ERR_RUN;
  char x[64] = "?";
  xp_file_attr(f, "experiment", x, sizeof x);
  fprintf(md,
          "| case | paper A says | ρ(A) (eq. 10 & analogues) | observed growth per step | "
          "status |\n|---|---|---|---|---|\n");
  for (size_t i = 0; i < xp_file_case_count(f); i++) {
    const char *c = xp_file_case_name(f, i);
    double rho = NAN, growth = NAN;
    char status[64] = "?";
    xp_file_case_stat(f, c, "spectral_radius", &rho);
    xp_file_case_stat(f, c, "growth_observed", &growth);
    xp_file_case_status(f, c, status, sizeof status);
    fprintf(md, "| `%s` | %s | %.12g (%s) | %.12g | %s |\n", c, smd_paper_statement(x, c), rho,
            smd_rho_word(rho), growth, status);
  }
  fprintf(md,
          "\nρ(A) comes from the iteration matrix's eigenvalues; the observed growth from the "
          "simulated trajectory's envelope (independent code). \"diverged\" means |y| passed "
          "1e150 and the run stopped.\n\n");
  xp_file_close(f);
  // this figure's claims (contiguous in smd_claims), as `stabcon verdicts` judges them
  size_t first = 0, n = 0;
  while (first < XP_COUNT(smd_claims) && strcmp(smd_claims[first].meas[0].file, x) != 0) first++;
  while (first + n < XP_COUNT(smd_claims) && strcmp(smd_claims[first + n].meas[0].file, x) == 0)
    n++;
  if (n) {
    char dir[1200];
    snprintf(dir, sizeof dir, "%s", path);
    fprintf(md,
            "Paper A's statements on these cases, judged as `stabcon verdicts` judges them:\n\n");
    xp_claims_table(md, smd_claims + first, n, dirname(dir));
  }
  return XP_OK;
}

static int smd_run_explicit(const xp_params *p, xp_results *o, xp_progress *pr, xp_error *e) {
  return smd_run_cases(SMD_EXPLICIT, p, o, pr, e);
}
static int smd_run_semi(const xp_params *p, xp_results *o, xp_progress *pr, xp_error *e) {
  return smd_run_cases(SMD_SEMI_IMPLICIT, p, o, pr, e);
}
static int smd_run_implicit(const xp_params *p, xp_results *o, xp_progress *pr, xp_error *e) {
  return smd_run_cases(SMD_IMPLICIT, p, o, pr, e);
}

// m, x0, v0 (the scenario's declarations) and the decimation
#define SMD_COMMON_PARAMS                                               \
  SMD_PARAM_DEFS SMD_START_PARAM_DEFS {                                 \
    "max_points", XP_INT, "20000", XP_POSITIVE, "", NULL,               \
        "at most this many stored states per case (uniform decimation)" \
  }

static const xp_param_def smd_explicit_params[] = {
    {"h", XP_REAL_LIST, "1e-5", XP_POSITIVE, "s", NULL, "step sizes"},
    {"k", XP_REAL_LIST, "1e6", XP_NONNEGATIVE, "N/m", NULL, "stiffnesses"},
    {"b", XP_REAL_LIST, "1,10,2e5,2.1e5", XP_NONNEGATIVE, "N*s/m", NULL, "dampings (Fig 1 panels)"},
    {"T", XP_REAL, "0.1", XP_POSITIVE, "s", NULL, "duration (default; the paper does not say)"},
    SMD_COMMON_PARAMS,
};

static const xp_param_def smd_semi_params[] = {
    {"h", XP_REAL_LIST, "1e-3", XP_POSITIVE, "s", NULL, "step sizes"},
    {"k", XP_REAL_LIST, "1e6,1e7", XP_NONNEGATIVE, "N/m", NULL, "stiffnesses (Fig 2 panels)"},
    {"b", XP_REAL_LIST, "1", XP_NONNEGATIVE, "N*s/m", NULL, "dampings"},
    {"T", XP_REAL, "0.1", XP_POSITIVE, "s", NULL, "duration (default; the paper does not say)"},
    SMD_COMMON_PARAMS,
};

static const xp_param_def smd_implicit_params[] = {
    {"h", XP_REAL_LIST, "1e-5,1e-2", XP_POSITIVE, "s", NULL, "step sizes (Fig 3 curves)"},
    {"k", XP_REAL_LIST, "1e6", XP_NONNEGATIVE, "N/m", NULL, "stiffnesses"},
    {"b", XP_REAL_LIST, "0", XP_NONNEGATIVE, "N*s/m", NULL, "dampings"},
    {"T", XP_REAL, "0.05", XP_POSITIVE, "s", NULL, "duration (default; the paper does not say)"},
    SMD_COMMON_PARAMS,
};

const xp_experiment xp_experiment_smd_explicit = {
    .name = "smd_explicit",
    .paper_ref = "Paper A §3.1.1, Fig 1",
    .summary = "explicit Euler on the spring-mass-damper: b decides stability",
    .params = smd_explicit_params,
    .n_params = sizeof smd_explicit_params / sizeof smd_explicit_params[0],
    .run = smd_run_explicit,
    .plot_script = "smd_trajectories.gp",
    .in_reproduce = 1,
    .report = smd_report,
};

const xp_experiment xp_experiment_smd_semi = {
    .name = "smd_semi",
    .paper_ref = "Paper A §3.1.2, Fig 2",
    .summary = "semi-implicit (symplectic) Euler: stable only for small k",
    .params = smd_semi_params,
    .n_params = sizeof smd_semi_params / sizeof smd_semi_params[0],
    .run = smd_run_semi,
    .plot_script = "smd_trajectories.gp",
    .in_reproduce = 1,
    .report = smd_report,
};

const xp_experiment xp_experiment_smd_implicit = {
    .name = "smd_implicit",
    .paper_ref = "Paper A §3.1.3, Fig 3",
    .summary = "implicit Euler: stable for any h, with numerical damping",
    .params = smd_implicit_params,
    .n_params = sizeof smd_implicit_params / sizeof smd_implicit_params[0],
    .run = smd_run_implicit,
    .plot_script = "smd_implicit.gp",
    .in_reproduce = 1,
    .report = smd_report,
};

// ---- any scheme, for sweeps --------------------------------------------------------

static int smd_run_any(const xp_params *p, xp_results *o, xp_progress *pr, xp_error *e) {
  const char *name = xp_params_string(p, "method");
  for (int s = 0; s < SMD_SCHEME_COUNT; s++)
    if (strcmp(name, smd_scheme_name((smd_scheme)s)) == 0)
      return smd_run_cases((smd_scheme)s, p, o, pr, e);
  return xp_fail(e, XP_ERR_USAGE, "unknown method '%s'", name);
}

static const xp_param_def smd_any_params[] = {
    {"method", XP_STRING, "implicit", XP_ANY, "", "explicit|semi-implicit|implicit",
     "Euler scheme"},
    {"h", XP_REAL_LIST, "1e-3", XP_POSITIVE, "s", NULL, "step sizes"},
    {"k", XP_REAL_LIST, "1e6", XP_NONNEGATIVE, "N/m", NULL, "stiffnesses"},
    {"b", XP_REAL_LIST, "1", XP_NONNEGATIVE, "N*s/m", NULL, "dampings"},
    {"T", XP_REAL, "0.1", XP_POSITIVE, "s", NULL, "duration"},
    SMD_COMMON_PARAMS,
};

const xp_experiment xp_experiment_smd = {
    .name = "smd",
    .paper_ref = "Paper A §3 (any scheme; for sweeps)",
    .summary = "spring-mass-damper under a chosen Euler scheme; error vs the closed form",
    .params = smd_any_params,
    .n_params = sizeof smd_any_params / sizeof smd_any_params[0],
    .run = smd_run_any,
    .plot_script = "smd_trajectories.gp",
    .in_reproduce = 0,
};

// ---- (h, k) stability map ----------------------------------------------------------

static int smd_run_map(const xp_params *prm, xp_results *out, xp_progress *progress,
                       xp_error *err) {
  smd_params base = {.b = xp_params_real(prm, "b"), .f = 0};
  smd_params_read(prm, &base);
  const double h_lo = xp_params_real(prm, "h_min"), h_hi = xp_params_real(prm, "h_max");
  const double k_lo = xp_params_real(prm, "k_min"), k_hi = xp_params_real(prm, "k_max");
  const size_t nh = (size_t)xp_params_int(prm, "n_h"), nk = (size_t)xp_params_int(prm, "n_k");
  const size_t steps = (size_t)xp_params_int(prm, "steps");
  if (!(h_hi > h_lo) || !(k_hi > k_lo) || nh < 2 || nk < 2)
    return xp_fail(err, XP_ERR_USAGE,
                   "stability map: need h_max > h_min, k_max > k_min, n_h, n_k >= 2");
  size_t np = nh * nk;
  double *buf = malloc(5 * np * sizeof *buf + 2 * nk * sizeof *buf);
  if (!buf) return xp_fail(err, XP_ERR_RUN, "out of memory");
  double *H = buf, *K = buf + np, *rho_t = buf + 2 * np, *rho_o = buf + 3 * np,
         *log_rho = buf + 4 * np, *bk = buf + 5 * np, *bh = bk + nk;
  for (int s = 0; s < SMD_SCHEME_COUNT; s++) {
    size_t agree = 0, compared = 0;
    double worst = 0;
    // k varies slowest, h fastest: the grid order `with image` expects
    for (size_t ik = 0; ik < nk; ik++) {
      double k = k_lo * pow(k_hi / k_lo, (double)ik / (double)(nk - 1));
      smd_params p = base;
      p.k = k;
      bk[ik] = k;
      // no boundary (unconditional stability) is stored as NaN: nothing to draw
      bh[ik] = smd_stability_boundary((smd_scheme)s, &p);
      if (!isfinite(bh[ik])) bh[ik] = NAN;
      for (size_t ih = 0; ih < nh; ih++) {
        double h = h_lo * pow(h_hi / h_lo, (double)ih / (double)(nh - 1));
        size_t i = ik * nh + ih;
        double A[4];
        smd_iteration_matrix((smd_scheme)s, &p, h, A);
        H[i] = h, K[i] = k;
        rho_t[i] = smd_spectral_radius(A);
        rho_o[i] = smd_simulate((smd_scheme)s, &p, h, 1.0, 0.0, steps, NULL, NULL).growth;
        // below the envelope estimator's resolution (phase bias ≲ 0.3/steps in ln) the
        // observation cannot tell growth from decay: shown as 0
        log_rho[i] = fabs(log(rho_o[i])) < 0.3 / (double)steps ? 0 : log10(rho_o[i]);
        // classification agreement away from the boundary (|log ρ| > 1e-3)
        if (fabs(log(rho_t[i])) > 1e-3 && isfinite(rho_o[i])) {
          compared++;
          agree += (rho_t[i] < 1) == (rho_o[i] < 1);
          worst = fmax(worst, fabs(log(rho_o[i]) - log(rho_t[i])));
        }
      }
      xp_progress_update(progress, ((double)s * (double)nk + (double)ik + 1) / (3.0 * (double)nk));
    }
    xp_case *c = xp_case_begin(out, smd_scheme_name((smd_scheme)s));
    xp_case_param_string(c, "scheme", smd_scheme_name((smd_scheme)s));
    xp_case_param_real(c, "b", base.b, "N*s/m");
    smd_params_case(c, &base);
    xp_case_param_real(c, "steps", (double)steps, "");
    xp_case_series(c, "h", "s", H, np);
    xp_case_series(c, "k", "N/m", K, np);
    xp_case_series(c, "rho_theory", "", rho_t, np);
    xp_case_series(c, "rho_observed", "", rho_o, np);
    xp_case_series(c, "log10_rho_resolved", "", log_rho, np);
    xp_case_series(c, "boundary_k", "N/m", bk, nk);
    xp_case_series(c, "boundary_h", "s", bh, nk);
    xp_case_stat_real(c, "points_compared", (double)compared, "");
    xp_case_stat_real(c, "classification_agreement",
                      compared ? (double)agree / (double)compared : NAN, "");
    xp_case_stat_real(c, "max_abs_log_growth_error", worst, "");
    xp_case_status(c, "ok", NULL);
    if (xp_case_end(c)) {
      free(buf);
      return xp_fail(err, XP_ERR_RUN, "%s", xp_results_error(out));
    }
  }
  free(buf);
  return XP_OK;
}

static const xp_param_def smd_map_params[] = {
    {"b", XP_REAL, "1", XP_NONNEGATIVE, "N*s/m", NULL, "damping held fixed over the map"},
    SMD_PARAM_DEFS  // m
    {"h_min", XP_REAL, "1e-6", XP_POSITIVE, "s", NULL, "smallest step"},
    {"h_max", XP_REAL, "1", XP_POSITIVE, "s", NULL, "largest step"},
    {"k_min", XP_REAL, "1", XP_POSITIVE, "N/m", NULL, "smallest stiffness"},
    {"k_max", XP_REAL, "1e12", XP_POSITIVE, "N/m", NULL, "largest stiffness"},
    {"n_h", XP_INT, "61", XP_POSITIVE, "", NULL, "grid points in h (log-spaced)"},
    {"n_k", XP_INT, "61", XP_POSITIVE, "", NULL, "grid points in k (log-spaced)"},
    {"steps", XP_INT, "4000", XP_POSITIVE, "", NULL,
     "steps per grid point for the observed growth (resolution ~0.3/steps in ln)"},
};

const xp_experiment xp_experiment_smd_map = {
    .name = "smd_map",
    .paper_ref = "Paper A §3 (stability map; not a paper figure)",
    .summary = "observed growth over (h, k) for the three Euler schemes, theory boundary drawn",
    .params = smd_map_params,
    .n_params = sizeof smd_map_params / sizeof smd_map_params[0],
    .run = smd_run_map,
    .plot_script = "smd_map.gp",
    .in_reproduce = 1,
};
