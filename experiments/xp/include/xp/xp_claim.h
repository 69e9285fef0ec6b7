// SPDX-License-Identifier: MIT
// Paper claims as data (SPEC §8): the paper's words and number, the stored measurements that test
// the claim (results file, case, statistic), the rule that decides, and the verdict the rule
// computes from the results files alone. One writer renders the table (REPORT.md, `verdicts`).
#ifndef XP_XP_CLAIM_H
#define XP_XP_CLAIM_H

#include <stddef.h>
#include <stdio.h>

#include "xp/xp.h"

typedef enum xp_verdict {
  XP_VERDICT_NOT_RUN,         // a measurement is missing (file, case or statistic absent, NaN)
  XP_VERDICT_REPRODUCED,      // the rule holds for every measurement
  XP_VERDICT_DIFFERENT,       // "measured different": it holds for some, or only loosely
  XP_VERDICT_NOT_REPRODUCED,  // it holds for none, not even loosely: the behaviour is absent
} xp_verdict;

// The verdict's words ("reproduced", "measured different", "not reproduced", "not run").
const char *xp_verdict_name(xp_verdict v);

// How a claim is decided. Each measurement holds (the paper's statement) or is near (loosely:
// the direction or the order of magnitude is right); the verdict is reproduced when every
// measurement holds, measured different when some holds or every one is near, else not
// reproduced.
typedef enum xp_rule_kind {
  XP_RULE_RATIO,     // holds: m ≥ a (upper = 0) or m ≤ a (upper = 1); near: the same against b;
                     // strict = 1 excludes the bound (m > a, m < a; near likewise), e.g. a
                     // spectral radius > 1 (unstable) or a ratio < 1 (more stable)
  XP_RULE_RELATIVE,  // holds: |m/p − 1| ≤ a; near: m/p within a factor b of 1
  XP_RULE_INTERVAL,  // holds: m in [a, b]; near: m in [la, lb]
  XP_RULE_ALL_OK,    // holds: the case's status is ok (m = 1); never near
  XP_RULE_MONOTONE,  // on the measurements in order: holds when each step moves in the direction
                     // `upper` (+1 rising, −1 falling); near when the last moves from the first so
} xp_rule_kind;

typedef struct xp_rule {
  xp_rule_kind kind;
  double a, b, la, lb;
  int upper;
  int strict;  // XP_RULE_RATIO only: the bounds a and b themselves fail
} xp_rule;

// How one measurement is read from the results files of a directory.
typedef enum xp_meas_op {
  XP_MEAS_STAT,     // file/cas/stat
  XP_MEAS_RATIO,    // file/cas/stat ÷ file2/cas2/stat2
  XP_MEAS_OK,       // 1 if the case's status is "ok", 0 otherwise (NaN when absent)
  XP_MEAS_SLOPE,    // log–log slope of stat against the case parameter stat2 over the cases of
                    // file whose names start with cas and end with cas2 (least squares)
  XP_MEAS_MAX,      // largest stat over the cases whose names start with cas
  XP_MEAS_MIN,      // smallest stat over those cases
  XP_MEAS_FORMULA,  // a closed form (no file): formula()
} xp_meas_op;

typedef struct xp_meas {
  const char *label;  // what it is, e.g. "50 N ÷ 5 N, E = 1e7"
  xp_meas_op op;
  const char *file, *cas, *stat;  // file: the results file's stem in the directory ("foundation")
  const char *file2, *cas2, *stat2;
  double paper;  // the paper's number for it (NaN: none)
  const char *unit;
  double (*formula)(void);
  double scale;      // the value read is multiplied by this (0: 1), e.g. 1/T for a speed
  int undecided_ok;  // 1: absent means the study could not decide this item (e.g. no method
                     // reached any accuracy level): the rule judges the others, the evidence
                     // says "undecidable"; 0: absent means not run
  int digits;        // significant digits shown (0: 3), e.g. 7 for a growth factor near 1
} xp_meas;

typedef struct xp_claim {
  const char *where;  // "Table 1", "§6.4"
  const char *words;  // the paper's words
  xp_rule rule;
  const xp_meas *meas;  // judged by the rule
  size_t n_meas;
  const xp_meas *context;  // shown beside them, not judged
  size_t n_context;
  const char *note;  // the mechanism or protocol (fixed text: never a verdict or a number)
} xp_claim;

// Static tables of claims and measurements: an array's length, and a claim's measurements or
// context given as one array
#define XP_COUNT(a) (sizeof(a) / sizeof *(a))
#define XP_CLAIM_MEAS(m) .meas = m, .n_meas = XP_COUNT(m)
#define XP_CLAIM_CONTEXT(c) .context = c, .n_context = XP_COUNT(c)

// Results files of one directory, opened on first use.
typedef struct xp_claim_files xp_claim_files;
xp_claim_files *xp_claim_files_open(const char *dir);
void xp_claim_files_close(xp_claim_files *fs);

// The value of one measurement (NaN if its file, case or statistic is absent).
double xp_meas_value(xp_claim_files *fs, const xp_meas *m);
// The verdict of a claim from its measured values (n = claim->n_meas).
xp_verdict xp_rule_decide(const xp_rule *r, const xp_meas *meas, const double *values, size_t n);
// 1 if rule r holds for the single value of measurement meas (its verdict: reproduced): a report
// word for one case decided as the claims decide it, not by a retyped comparison.
int xp_rule_holds(const xp_rule *r, const xp_meas *meas, double value);
// The verdict of a claim read from the files.
xp_verdict xp_claim_verdict(xp_claim_files *fs, const xp_claim *c);
// The rule in words, e.g. "every ratio ≥ 2".
void xp_rule_describe(const xp_rule *r, char *buf, size_t len);

// The verdict table (markdown: claim, paper, verdict, measured) of claims[0..n) from the results
// files in dir; the files read are named in the line above it.
void xp_claims_table(FILE *out, const xp_claim *claims, size_t n, const char *dir);

// A titled list of claims (one paper, or one part of it).
typedef struct xp_claim_set {
  const char *title;
  const xp_claim *claims;
  size_t n;
} xp_claim_set;

// Each set's title as a heading, then its verdict table (xp_claims_table).
void xp_claim_sets_write(FILE *out, const xp_claim_set *sets, size_t nsets, const char *dir);

// The README's generated results block lies between these two lines (each alone on its line).
#define XP_README_BEGIN "<!-- results: generated by `stabcon reproduce --gallery`; do not edit -->"
#define XP_README_END "<!-- results: end -->"

// Replaces the README's generated block (between XP_README_BEGIN and XP_README_END) by the
// verdict table of claims[0..n) from the results files in dir, headed by their provenance;
// the rest of the file is kept byte for byte. The file is rewritten through "<path>.partial".
// XP_OK, XP_ERR_USAGE (no block in the file), XP_ERR_RUN (I/O).
int xp_claims_readme_update(const char *readme, const xp_claim_set *sets, size_t nsets,
                            const char *dir, xp_error *err);
// Replaces the text between the lines begin and end of readme (each alone on its line) by what
// body(out, ctx) writes, the rest kept byte for byte; rewritten through "<readme>.partial".
// XP_OK, XP_ERR_USAGE (no such block), XP_ERR_RUN (I/O).
int xp_readme_block_replace(const char *readme, const char *begin, const char *end,
                            void (*body)(FILE *out, const void *ctx), const void *ctx,
                            xp_error *err);
// The block's body as written by xp_claims_readme_update.
void xp_claims_readme_block(FILE *out, const xp_claim_set *sets, size_t nsets, const char *dir);

// The claims of paper A judged by `reproduce` and `stabcon verdicts` (defined by the claims study).
const xp_claim *xp_paper_claims(size_t *n);
// Paper A §3.1's statements on Figs 1–3, the Euler schemes on the spring–mass–damper (defined by
// the smd studies).
const xp_claim *xp_paper_a_smd_claims(size_t *n);
// Paper B §II's claims on the θ-method family (defined by the spring–cylinder study).
const xp_claim *xp_paper_b_claims(size_t *n);
// The number of sets xp_claim_sets_all writes.
#define XP_CLAIM_SETS 3
// Every judged claim, paper A's and paper B's, as sets (into sets[0..XP_CLAIM_SETS)); their count.
size_t xp_claim_sets_all(xp_claim_set *sets);

#endif  // XP_XP_CLAIM_H
