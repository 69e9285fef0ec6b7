// SPDX-License-Identifier: MIT
// stabcon — command-line front end: list, run, reproduce, plot, info, export (and solver tools).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_commands.h"
#include "sim/sim.h"
#include "stabcon_config.h"
#include "stabcon_git.h"
#include "xp/xp.h"
#include "xp/xp_bodies.h"
#include "xp/xp_file.h"
#include "xp/xp_maros.h"
#include "xp/xp_path.h"
#include "xp/xp_report.h"
#include "xp/xp_sweep.h"

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "stabcon %s: ", cmd);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see `stabcon %s --help`)\n", cmd);
  return XP_ERR_USAGE;
}

static int is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

// an option that takes a value given last, or anything else unexpected: the message says which
static int unexpected_argument(const char *cmd, const char *arg, const char *value_options) {
  char padded[128], pattern[128];
  snprintf(padded, sizeof padded, " %s ", value_options);
  snprintf(pattern, sizeof pattern, " %.100s ", arg);
  if (arg[0] == '-' && strstr(padded, pattern))
    return usage_error(cmd,
                       strcmp(arg, "--set") == 0
                           ? "'%s' needs a value: --set key=value (e.g. --set h=1e-3)"
                           : "'%s' needs a value",
                       arg);
  return usage_error(cmd, "unexpected argument '%s'", arg);
}

// ---- list -----------------------------------------------------------------

// display width of a UTF-8 string in code points (continuation bytes 10xxxxxx not counted)
static size_t utf8_width(const char *s) {
  size_t n = 0;
  for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

// the name `run` takes for a scenario's method matrix: NAME_methods where a paper experiment has
// the scenario's name, else NAME
static const char *scenario_run_name(const sim_scenario *sc, char buf[96]) {
  snprintf(buf, 96, xp_experiment_find(sc->name) ? "%s_methods" : "%s", sc->name);
  return buf;
}

static int cmd_list(int argc, char **argv) {
  if (argc > 1 && is_help(argv[1])) {
    puts(
        "usage: stabcon list [--methods]\n\nLists the paper experiments with the figure or table "
        "each regenerates,\nthen the scenarios (each runs any applicable method).\nA '*' marks "
        "those run by `stabcon reproduce`.\n--methods prints the "
        "method matrix instead: which method applies to which scenario\n(`stabcon run SCENARIO "
        "--set method=a,b,…` runs any of them).");
    return XP_OK;
  }
  if (argc > 1 && strcmp(argv[1], "--methods") == 0) {
    sim_print_matrix(stdout);
    return XP_OK;
  }
  if (argc > 1) return unexpected_argument("list", argv[1], "");
  // pad by UTF-8 code points (the references hold § and —), to the widest entry
  size_t wn = strlen("experiment"), wr = strlen("regenerates");
  for (size_t i = 0; xp_experiments[i]; i++) {
    wn = utf8_width(xp_experiments[i]->name) > wn ? utf8_width(xp_experiments[i]->name) : wn;
    wr = utf8_width(xp_experiments[i]->paper_ref) > wr ? utf8_width(xp_experiments[i]->paper_ref)
                                                       : wr;
  }
  for (size_t i = 0; sim_scenarios[i]; i++) {
    char buf[96];
    const size_t w = utf8_width(scenario_run_name(sim_scenarios[i], buf));
    wn = w > wn ? w : wn;
  }
  printf("%s%*s  %s%*s    %s\n", "experiment", (int)(wn - 10), "", "regenerates", (int)(wr - 11),
         "", "summary ('*': run by reproduce)");
  for (size_t i = 0; xp_experiments[i]; i++) {
    const xp_experiment *x = xp_experiments[i];
    printf("%s%*s  %s%*s  %s%s\n", x->name, (int)(wn - utf8_width(x->name)), "", x->paper_ref,
           (int)(wr - utf8_width(x->paper_ref)), "", x->in_reproduce ? "* " : "  ", x->summary);
  }
  // the scenarios: each runs any applicable method (a scenario that shares its name with a paper
  // experiment is run as NAME_methods)
  printf("\n%s%*s  %s%*s    %s\n", "scenario", (int)(wn - 8), "", "regenerates", (int)(wr - 11), "",
         "summary (`stabcon run NAME --set method=a,b,…`; list --methods: which apply)");
  for (size_t i = 0; sim_scenarios[i]; i++) {
    const sim_scenario *sc = sim_scenarios[i];
    char buf[96];
    const char *name = scenario_run_name(sc, buf), *ref = "method matrix (SPEC §7)";
    printf("%s%*s  %s%*s    %s\n", name, (int)(wn - utf8_width(name)), "", ref,
           (int)(wr - utf8_width(ref)), "", sc->summary);
  }
  return XP_OK;
}

static const xp_experiment *file_experiment(const char *path);

// ---- run ------------------------------------------------------------------

// every runnable name (paper experiments, scenarios and their SCENARIO_methods form) for the
// did-you-mean of an unknown one; returns how many were written
static size_t runnable_names(const char **names, char (*buf)[64], size_t cap) {
  size_t n = 0;
  for (size_t i = 0; xp_experiments[i] && n < cap; i++) names[n++] = xp_experiments[i]->name;
  for (size_t i = 0; sim_scenarios[i] && n + 1 < cap; i++) {
    names[n++] = sim_scenarios[i]->name;
    snprintf(buf[i], 64, "%s_methods", sim_scenarios[i]->name);
    names[n++] = buf[i];
  }
  return n;
}

static int unknown_experiment(const char *name) {
  enum { CAP = 128 };
  const char *names[CAP];
  char buf[CAP][64], hint[XP_DID_YOU_MEAN_MAX];
  xp_did_you_mean(xp_suggest(name, names, runnable_names(names, buf, CAP)), hint);
  fprintf(stderr, "stabcon run: unknown experiment or scenario '%s'%s\n", name, hint);
  fputs("(see `stabcon list` and `stabcon list --methods`)\n", stderr);
  return XP_ERR_USAGE;
}

// a bad argument of `run NAME`: its own --help lists the parameters
static int run_error(const xp_experiment *x, const char *fmt, const char *arg) {
  fputs("stabcon run: ", stderr);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see `stabcon run %s --help`, which lists its parameters)\n", x->name);
  return XP_ERR_USAGE;
}

// The experiment `run NAME` means: the paper experiment NAME, else the method matrix of
// scenario NAME (also reachable as NAME_methods, the only name where a paper experiment takes it)
static const xp_experiment *find_experiment(const char *name) {
  const xp_experiment *x = xp_experiment_find(name);
  return x ? x : sim_experiment_for(name);
}

// the experiment's defaults are its declarations with its own `defaults` applied
static void print_experiment_help(const xp_experiment *x) {
  xp_params defaults;
  xp_error err = {.code = 0};
  if (xp_experiment_params_init(x, &defaults, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  printf("usage: stabcon run %s [--set key=value ...] [-o FILE] [--plot DIR]\n\n", x->name);
  printf("%s — %s\n\n", x->paper_ref, x->summary);
  printf(
      "Parameters (defaults are the paper's values or SPEC defaults; those marked (list) take\n"
      "comma-separated values, one case each):\n");
  for (size_t i = 0; i < x->n_params; i++) {
    const xp_param_def *d = &x->params[i];
    const char *range = d->range == XP_POSITIVE      ? " (>0)"
                        : d->range == XP_NONNEGATIVE ? " (>=0)"
                                                     : "";
    char unit[40] = "";
    if (d->unit && d->unit[0]) snprintf(unit, sizeof unit, " [%s]", d->unit);
    const char *list = d->kind == XP_REAL_LIST || d->kind == XP_REAL_TUPLE ? " (list)" : "";
    printf("  %-14s = %-18s %s%s%s%s%s%s\n", d->key, defaults.text[i], d->help, unit, range, list,
           d->choices ? "  one of " : "", d->choices ? d->choices : "");
  }
  printf("\nOutput: results/%s.h5 unless -o is given; --plot DIR also draws its figures.\n",
         x->name);
}

// runs one experiment into path; the file appears only if the run succeeds
static int run_experiment(const xp_experiment *x, const xp_params *params, const char *path,
                          int argc, char **argv, xp_error *err) {
  // the path passed xp_output_check: failing to create the file now is a run failure (disk full)
  xp_results *out = xp_results_create(path, x, params, argc, argv, err);
  if (!out) return XP_ERR_RUN;
  xp_progress progress;
  xp_progress_begin(&progress, x->name);
  double t0 = xp_now();
  int rc = x->run(params, out, &progress, err);
  xp_progress_end(&progress);
  if (rc != XP_OK) {
    xp_results_abort(out);
    return rc;
  }
  rc = xp_results_commit(out, err);
  if (rc == XP_OK) fprintf(stderr, "%s: wrote %s (%.2f s)\n", x->name, path, xp_now() - t0);
  return rc;
}

static int cmd_run(int argc, char **argv) {
  if (argc < 2 || is_help(argv[1])) {
    puts(
        "usage: stabcon run EXPERIMENT [--set key=value ...] [-o FILE] [--plot DIR]\n\n"
        "Runs one experiment and writes one HDF5 results file (default results/EXPERIMENT.h5).\n"
        "`stabcon run EXPERIMENT --help` lists its parameters; `stabcon list` the experiments.");
    return argc < 2 ? XP_ERR_USAGE : XP_OK;
  }
  const xp_experiment *x = find_experiment(argv[1]);
  if (!x) return unknown_experiment(argv[1]);
  xp_params params;
  xp_error err = {.code = 0};
  if (xp_experiment_params_init(x, &params, &err)) {
    fprintf(stderr, "stabcon run: %s\n", err.message);
    return XP_ERR_RUN;
  }
  char path[1024];
  snprintf(path, sizeof path, "results/%s.h5", x->name);
  const char *plot_dir = NULL;
  int explicit_output = 0;
  for (int i = 2; i < argc; i++) {
    if (is_help(argv[i])) {
      print_experiment_help(x);
      return XP_OK;
    } else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      if (xp_params_set(&params, argv[++i], &err)) return run_error(x, "%s", err.message);
    } else if (strncmp(argv[i], "--set=", 6) == 0) {
      if (xp_params_set(&params, argv[i] + 6, &err)) return run_error(x, "%s", err.message);
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      if (snprintf(path, sizeof path, "%s", argv[++i]) >= (int)sizeof path)
        return run_error(x, "output path '%.60s…' is too long", argv[i]);
      explicit_output = 1;
    } else if (strcmp(argv[i], "--plot") == 0 && i + 1 < argc) {
      plot_dir = argv[++i];
    } else {
      if (strcmp(argv[i], "--set") == 0)
        return run_error(x, "'%s' needs a value: --set key=value (e.g. --set h=1e-3)", argv[i]);
      if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--plot") == 0)
        return run_error(x, "'%s' needs a value", argv[i]);
      return run_error(x, "unexpected argument '%s'", argv[i]);
    }
  }
  if (!explicit_output && xp_mkdir_p("results") != 0)
    return usage_error("run", "cannot create directory 'results': %s", strerror(errno));
  if (xp_output_check("-o", path, NULL, 0, &err)) return run_error(x, "%s", err.message);
  int rc = run_experiment(x, &params, path, argc, argv, &err);
  if (rc == XP_OK && plot_dir) rc = xp_plot_file(path, x, plot_dir, &err);
  if (rc != XP_OK) fprintf(stderr, "stabcon run: %s\n", err.message);
  return rc;
}

// ---- reproduce --------------------------------------------------------------

static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  if (!in) return -1;
  FILE *out = fopen(to, "wb");
  if (!out) {
    fclose(in);
    return -1;
  }
  char buf[65536];
  size_t n;
  int rc = 0;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n) rc = -1;
  fclose(in);
  if (fclose(out) != 0) rc = -1;
  return rc;
}

static int in_list(const char *list, const char *name) {
  char haystack[1100], pattern[160];
  snprintf(haystack, sizeof haystack, ",%s,", list);
  snprintf(pattern, sizeof pattern, ",%s,", name);
  return strstr(haystack, pattern) != NULL;
}

// every file reproduce will write is checked before the first experiment runs
static int reproduce_check_outputs(const char *results_dir, const char *report_path,
                                   const char *only, xp_error *err) {
  if (xp_output_check("--results", report_path, NULL, 0, err)) return XP_ERR_USAGE;
  for (size_t i = 0; xp_experiments[i]; i++) {
    const xp_experiment *x = xp_experiments[i];
    if (!x->in_reproduce || (only && !in_list(only, x->name))) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.h5", results_dir, x->name);
    if (xp_output_check("--results", path, NULL, 0, err)) return XP_ERR_USAGE;
  }
  return XP_OK;
}

// --only: every item must name a reproduced experiment ("a,,b", "," or "" select nothing);
// 0, or XP_ERR_USAGE after the message
static int check_only_list(const char *only) {
  char list[1024];
  if (strlen(only) >= sizeof list)
    return usage_error("reproduce", "--only '%.60s…' is too long", only);
  snprintf(list, sizeof list, "%s", only);
  for (char *tok = list, *next; tok; tok = next) {
    next = strchr(tok, ',');
    if (next) *next++ = '\0';
    const xp_experiment *x = xp_experiment_find(tok);
    if (!tok[0]) return usage_error("reproduce", "--only '%s': empty item", only);
    if (!x) return usage_error("reproduce", "unknown experiment '%s' in --only", tok);
    if (!x->in_reproduce)
      return usage_error("reproduce",
                         "'%s' in --only is not a reproduced experiment (see `stabcon list`)", tok);
  }
  return XP_OK;
}

typedef struct reproduce_dirs {
  const char *results, *figures, *gallery;  // gallery NULL: not refreshed
} reproduce_dirs;

// one experiment of `reproduce`: run, figures, gallery copy, its REPORT section; XP_OK or the
// failure (reported on stderr and in REPORT)
static int reproduce_one(const xp_experiment *x, const reproduce_dirs *d, int full, FILE *md,
                         int argc, char **argv) {
  xp_params params;
  xp_error err = {.code = 0};
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.h5", d->results, x->name);
  double t_case = xp_now();
  int rc = xp_experiment_params_init(x, &params, &err);
  for (size_t k = 0; rc == XP_OK && full && x->full_size && x->full_size[k]; k++)
    rc = xp_params_set(&params, x->full_size[k], &err);
  if (rc == XP_OK) rc = run_experiment(x, &params, path, argc, argv, &err);
  double seconds = xp_now() - t_case;
  if (rc == XP_OK) rc = xp_plot_file(path, x, d->figures, &err);
  if (rc != XP_OK) {
    fprintf(stderr, "stabcon reproduce: %s: %s\n", x->name, err.message);
    xp_report_experiment(md, x, path, NULL, 1, seconds);
    return rc;
  }
  char from[1200], to[1200], rel[1300];
  snprintf(from, sizeof from, "%s/%s.png", d->figures, x->name);
  snprintf(to, sizeof to, "%s/%s.png", d->gallery ? d->gallery : "", x->name);
  if (d->gallery && access(from, R_OK) == 0 && copy_file(from, to) != 0)
    fprintf(stderr, "stabcon reproduce: cannot copy %s to %s\n", from, to);
  // the report lives in the results folder: link figures relative to it when both are relative
  if (d->figures[0] != '/' && d->results[0] != '/')
    snprintf(rel, sizeof rel, "../%s/%s.png", d->figures, x->name);
  else
    snprintf(rel, sizeof rel, "%s", from);
  xp_report_experiment(md, x, path, access(from, R_OK) == 0 ? rel : NULL, 0, seconds);
  char link_dir[1100];
  snprintf(link_dir, sizeof link_dir, "%s%s", rel[0] == '.' ? "../" : "", d->figures);
  xp_snapshot_report(md, path, d->figures, link_dir, x->name);
  return XP_OK;
}

// two runs into one folder would replace each other's files half-written: the second stops
// here (a POSIX lock on <results>/.reproduce.lock, gone with the process, so a killed run leaves
// none behind); the descriptor that holds it, or -1 (said)
static int reproduce_lock(const char *results_dir) {
  char lock_path[1100];
  snprintf(lock_path, sizeof lock_path, "%s/.reproduce.lock", results_dir);
  const int fd = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  if (fd >= 0 && fcntl(fd, F_SETLK, &whole) == 0) return fd;
  fprintf(stderr, "stabcon reproduce: %s '%s' (%s)\n",
          fd < 0 ? "cannot open the lock file" : "another reproduce is writing into",
          fd < 0 ? lock_path : results_dir,
          fd < 0 ? strerror(errno) : "it holds .reproduce.lock there");
  if (fd >= 0) close(fd);
  return -1;
}

static int cmd_reproduce(int argc, char **argv) {
  const char *results_dir = "results", *figures_dir = "plots/out", *gallery_dir = "plots/gallery";
  const char *only = NULL;
  int full = 0, gallery = 0;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      puts(
          "usage: stabcon reproduce [--full] [--gallery] [--only NAME[,NAME…]] [--results DIR] "
          "[--figures DIR]\n\n"
          "Runs every registered paper experiment (`stabcon list`, marked '*') at its default\n"
          "size, writes results/NAME.h5, draws each figure into plots/out/ (PNG and SVG) and\n"
          "ends by writing results/REPORT.md: each figure and table beside what the paper\n"
          "reports, the verdicts on its claims, with an environment footer. None of these is\n"
          "tracked by git.\n"
          "--gallery also copies each main PNG into the tracked plots/gallery/ and rewrites the\n"
          "README.md's results block (`stabcon verdicts`) from the new results (default\n"
          "directories only).\n"
          "--full uses the paper's exact sizes where the default is reduced (slower).");
      return XP_OK;
    } else if (strcmp(argv[i], "--full") == 0) {
      full = 1;
    } else if (strcmp(argv[i], "--gallery") == 0) {
      gallery = 1;
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (strcmp(argv[i], "--results") == 0 && i + 1 < argc) {
      results_dir = argv[++i];
    } else if (strcmp(argv[i], "--figures") == 0 && i + 1 < argc) {
      figures_dir = argv[++i];
    } else {
      return unexpected_argument("reproduce", argv[i], "--only --results --figures");
    }
  }
  if (only && check_only_list(only)) return XP_ERR_USAGE;
  // the tracked gallery and README block are refreshed only on request, from a default run: with
  // --results or --figures every output stays under the directories given
  if (gallery && (strcmp(results_dir, "results") != 0 || strcmp(figures_dir, "plots/out") != 0))
    return usage_error("reproduce", "%s",
                       "--gallery refreshes the tracked gallery from the default results/ and "
                       "plots/out/: it cannot be combined with --results or --figures");
  if (!gallery) gallery_dir = NULL;
  char report_path[1100], report_tmp[1200];
  snprintf(report_path, sizeof report_path, "%s/REPORT.md", results_dir);
  snprintf(report_tmp, sizeof report_tmp, "%s.partial", report_path);
  // an existing results folder may hold links or directories where files will go: checked first
  xp_error check = {.code = 0};
  struct stat rd;
  if (stat(results_dir, &rd) == 0 &&
      reproduce_check_outputs(results_dir, report_path, only, &check))
    return usage_error("reproduce", "%s", check.message);
  if (xp_mkdir_p(results_dir) || xp_mkdir_p(figures_dir) ||
      (gallery_dir && xp_mkdir_p(gallery_dir)))
    return usage_error("reproduce", "cannot create output directories: %s", strerror(errno));
  const int lock_fd = reproduce_lock(results_dir);
  if (lock_fd < 0) return XP_ERR_RUN;
  int md_fd = xp_partial_create(report_tmp);
  FILE *md = md_fd >= 0 ? fdopen(md_fd, "w") : NULL;
  if (!md) return close(lock_fd), usage_error("reproduce", "cannot write '%s'", report_tmp);
  xp_report_begin(md, full);
  int failures = 0;
  double t0 = xp_now();
  const reproduce_dirs dirs = {results_dir, figures_dir, gallery_dir};
  for (size_t i = 0; xp_experiments[i]; i++) {
    const xp_experiment *x = xp_experiments[i];
    if (!x->in_reproduce || (only && !in_list(only, x->name))) continue;
    failures += reproduce_one(x, &dirs, full, md, argc, argv) != XP_OK;
  }
  xp_maros_report(md, results_dir);  // bench maros's stored scores, if any (not rerun: long)
  xp_report_end(md, xp_now() - t0);
  if (fclose(md) != 0 || rename(report_tmp, report_path) != 0) {
    fprintf(stderr, "stabcon reproduce: cannot write %s\n", report_path);
    failures++;
  }
  if (gallery && cli_readme_refresh("README.md", results_dir) != XP_OK) failures++;
  fprintf(stderr, "reproduce: %s in %.1f s; results and REPORT.md in %s/, figures in %s/\n",
          failures ? "FAILED" : "done", xp_now() - t0, results_dir, figures_dir);
  close(lock_fd);
  return failures ? XP_ERR_RUN : XP_OK;
}

// ---- plot / info / export --------------------------------------------------------

static int cmd_plot(int argc, char **argv) {
  const char *file = NULL, *outdir = "plots/out", *ycol = NULL;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      puts(
          "usage: stabcon plot FILE.h5 [-d DIR] [--y STAT]\n\nDraws the figures of a stored "
          "results file "
          "(no re-run) into DIR (default plots/out):\nDIR/STEM*.png and .svg, with the exported "
          "CSV data in DIR/data/STEM/.\nSweep files: the experiment's error (or --y STAT, e.g. "
          "wall_time for cost against N)\nagainst the first swept parameter, log-log, fitted "
          "slopes in the legend; sweeps over h and k\nare drawn as stability maps.");
      return XP_OK;
    } else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
      outdir = argv[++i];
    } else if (strcmp(argv[i], "--y") == 0 && i + 1 < argc) {
      ycol = argv[++i];
    } else if (!file && argv[i][0] != '-') {
      file = argv[i];
    } else {
      return unexpected_argument("plot", argv[i], "-d --y");
    }
  }
  if (!file) return usage_error("plot", "%s", "missing FILE");
  xp_error err = {.code = 0};
  int rc = xp_plot_file_y(file, file_experiment(file), outdir, ycol, &err);
  if (rc != XP_OK)
    fprintf(stderr, "stabcon plot: %s\n", err.message);
  else
    fprintf(stderr, "stabcon plot: figures in %s/\n", outdir);
  return rc;
}

// the experiment a results file names in its `experiment` attribute (NULL: unreadable or unknown)
static const xp_experiment *file_experiment(const char *path) {
  xp_error err = {.code = 0};
  xp_file *f = xp_file_open(path, &err);
  if (!f) return NULL;
  char name[128] = "";
  xp_file_attr(f, "experiment", name, sizeof name);
  xp_file_close(f);
  return xp_experiment_find(name);
}

static int cmd_info(int argc, char **argv) {
  if (argc < 2 || is_help(argv[1])) {
    puts(
        "usage: stabcon info FILE.h5\n\nPrints provenance, run parameters and the cases with "
        "their status.");
    return argc < 2 ? XP_ERR_USAGE : XP_OK;
  }
  xp_error err = {.code = 0};
  xp_file *f = xp_file_open(argv[1], &err);
  if (!f) {
    fprintf(stderr, "stabcon info: %s\n", err.message);
    return XP_ERR_USAGE;
  }
  xp_file_info(f, stdout);
  xp_file_close(f);
  return XP_OK;
}

// export --xdmf: the description is written beside the results file it points into
static int export_xdmf(const char *file, const char *case_name, const char *output) {
  if (!case_name) return usage_error("export", "%s", "--xdmf needs --case NAME");
  if (output) return usage_error("export", "%s", "--xdmf writes beside FILE.h5; -o is not taken");
  xp_error err = {.code = 0};
  char written[2048];
  const int rc = xp_xdmf_export(file, case_name, written, sizeof written, &err);
  if (rc != XP_OK) fprintf(stderr, "stabcon export: %s\n", err.message);
  if (rc == XP_OK) printf("%s\n", written);
  return rc;
}

static int cmd_export(int argc, char **argv) {
  const char *file = NULL, *case_name = NULL, *format = "csv", *output = NULL;
  long group = 0;
  int xdmf = 0;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      puts(
          "usage: stabcon export FILE.h5 [--case NAME [--group K | --xdmf]] [--format csv] [-o "
          "OUT]\n\n"
          "Without --case: one CSV row per case (case, status, parameters, statistics).\n"
          "With --case: that case's series as CSV columns (header = series names). Series of\n"
          "different lengths form groups (0: the first, usually the time series; e.g. the stack's\n"
          "per-sphere history); --group K exports group K (`stabcon info` counts them).\n"
          "--xdmf: writes FILE.<case>.xdmf beside FILE.h5, an XDMF description of the case's\n"
          "per-body history (positions, orientations, velocities, contact forces, radii per\n"
          "frame) pointing into FILE.h5, which ParaView or VisIt open as an animation.");
      return XP_OK;
    } else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
      case_name = argv[++i];
    } else if (strcmp(argv[i], "--group") == 0 && i + 1 < argc) {
      char *end = NULL;
      group = strtol(argv[++i], &end, 10);
      if (!end || end == argv[i] || *end || group < 0 || group > 1000)
        return usage_error("export", "--group '%s' is not a group number 0..1000", argv[i]);
    } else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
      format = argv[++i];
    } else if (strcmp(argv[i], "--xdmf") == 0) {
      xdmf = 1;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      output = argv[++i];
    } else if (!file && argv[i][0] != '-') {
      file = argv[i];
    } else {
      return unexpected_argument("export", argv[i], "--case --group --format -o");
    }
  }
  if (!file) return usage_error("export", "%s", "missing FILE");
  if (xdmf) return export_xdmf(file, case_name, output);
  if (strcmp(format, "csv") != 0) return usage_error("export", "unknown format '%s' (csv)", format);
  // never write over the results file being read, under either name the output will have
  xp_error err = {.code = 0};
  const char *inputs[1] = {file};
  if (output && xp_output_check("-o", output, inputs, 1, &err))
    return usage_error("export", "%s", err.message);
  char partial[4200];
  if (output) snprintf(partial, sizeof partial, "%s.partial", output);
  xp_file *f = xp_file_open(file, &err);
  if (!f) {
    fprintf(stderr, "stabcon export: %s\n", err.message);
    return XP_ERR_USAGE;
  }
  // written as OUT.partial and renamed into place: a failure never touches an existing OUT
  int fd = output ? xp_partial_create(partial) : -1;
  FILE *out = output ? (fd >= 0 ? fdopen(fd, "w") : NULL) : stdout;
  if (!out) {
    xp_file_close(f);
    return usage_error("export", "cannot write '%s'", partial);
  }
  int rc = case_name ? xp_file_export_case_csv(f, case_name, (size_t)group, out, NULL, &err)
                     : xp_file_export_summary_csv(f, out, &err);
  if (rc == XP_OK && (fflush(out) != 0 || ferror(out)))
    rc = xp_fail(&err, XP_ERR_RUN, "write error on %s (disk full?)", output ? partial : "stdout");
  if (output && fclose(out) != 0 && rc == XP_OK)
    rc = xp_fail(&err, XP_ERR_RUN, "write error on %s (disk full?)", partial);
  if (output && rc == XP_OK && rename(partial, output) != 0)
    rc = xp_fail(&err, XP_ERR_RUN, "cannot rename %s to %s", partial, output);
  if (rc != XP_OK) {
    fprintf(stderr, "stabcon export: %s\n", err.message);
    if (output) remove(partial);
  }
  xp_file_close(f);
  return rc;
}

// ---- sweep / compare ------------------------------------------------------------

static int cmd_sweep(int argc, char **argv) {
  if (argc < 2 || is_help(argv[1])) {
    puts(
        "usage: stabcon sweep EXPERIMENT [--method M[,M…]] [--set "
        "key=LIST|start:stop:count[:log]]…\n"
        "                     [-o FILE] [--resume]\n\n"
        "Runs the Cartesian grid of the swept parameters (first --set varies slowest; --method\n"
        "sweeps the experiment's `method` parameter) and gathers every case into one HDF5 file\n"
        "(default results/EXPERIMENT-sweep.h5), cases named gNNNNN_<case> with the grid values\n"
        "in their parameters. A single value is a fixed setting. Each finished point is kept in\n"
        "FILE.parts/ as it completes: after an interruption (Ctrl-C, kill, full disk) run the\n"
        "same command with --resume to compute only the missing points (a first Ctrl-C lets\n"
        "the running point finish, a second stops at once). A point that fails is\n"
        "recorded with status \"failed\" and the sweep goes on.\n\n"
        "example: stabcon sweep smd --method explicit,implicit --set h=1e-5:1e-2:7:log --set "
        "k=1e6");
    return argc < 2 ? XP_ERR_USAGE : XP_OK;
  }
  const xp_experiment *x = xp_experiment_find(argv[1]);
  if (!x) return usage_error("sweep", "unknown experiment '%s' (see `stabcon list`)", argv[1]);
  static xp_sweep_spec spec;
  memset(&spec, 0, sizeof spec);
  spec.experiment = x;
  xp_error err = {.code = 0};
  if (xp_experiment_params_init(x, &spec.base, &err)) {
    fprintf(stderr, "stabcon sweep: %s\n", err.message);
    return XP_ERR_RUN;
  }
  char output[1024];
  snprintf(output, sizeof output, "results/%s-sweep.h5", x->name);
  int resume = 0, explicit_output = 0;
  for (int i = 2; i < argc; i++) {
    char assignment[2100];
    int len = 0;
    if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      len = snprintf(assignment, sizeof assignment, "%s", argv[++i]);
    } else if (strcmp(argv[i], "--method") == 0 && i + 1 < argc) {
      len = snprintf(assignment, sizeof assignment, "method=%s", argv[++i]);
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      if (snprintf(output, sizeof output, "%s", argv[++i]) >= (int)sizeof output)
        return usage_error("sweep", "output path '%.60s…' is too long (1023 characters at most)",
                           argv[i]);
      explicit_output = 1;
      continue;
    } else if (strcmp(argv[i], "--resume") == 0) {
      resume = 1;
      continue;
    } else {
      return unexpected_argument("sweep", argv[i], "--set --method -o");
    }
    if (len >= (int)sizeof assignment)
      return usage_error("sweep", "'%.40s…' is too long (2099 characters at most)", assignment);
    if (xp_sweep_add_axis(&spec, assignment, &err)) return usage_error("sweep", "%s", err.message);
  }
  if (!explicit_output && xp_mkdir_p("results") != 0)
    return usage_error("sweep", "cannot create directory 'results': %s", strerror(errno));
  if (xp_output_check("-o", output, NULL, 0, &err)) return usage_error("sweep", "%s", err.message);
  xp_sweep_options opt = {
      .output = output, .resume = resume, .rank = 0, .ranks = 1, .argc = argc, .argv = argv};
  double t0 = xp_now();
  int rc = cli_sweep_execute(&spec, &opt, &err);
  if (rc != XP_OK) {
    if (err.message[0]) fprintf(stderr, "stabcon sweep: %s\n", err.message);  // rank 0 speaks
    return rc;
  }
  if (opt.rank == 0)
    fprintf(stderr, "sweep: %zu points on %d rank%s → %s (%.2f s)\n", xp_sweep_size(&spec),
            opt.ranks, opt.ranks > 1 ? "s" : "", output, xp_now() - t0);
  return XP_OK;
}

static int cmd_compare(int argc, char **argv) {
  if (argc != 3 || is_help(argv[1])) {
    puts(
        "usage: stabcon compare A.h5 B.h5\n\nCompares two results files case by case (names, "
        "status, message, parameters,\nstatistics, series bit for bit) and prints every "
        "difference, one a line: changed\n(A → B), only in A, only in B, and 'not compared' for "
        "an entry that cannot be\nread (counted as a difference). Timings (statistics and series "
        "whose names hold\ntime, wall, cpu or us_per_step) and the provenance (root attributes) "
        "are not\ncompared. Exit 0 if equal, 1 if not.");
    return argc == 2 && is_help(argv[1]) ? XP_OK : XP_ERR_USAGE;
  }
  xp_error err = {.code = 0};
  long n = xp_results_compare_report(argv[1], argv[2], stdout, &err);
  if (n < 0) {
    fprintf(stderr, "stabcon compare: %s\n", err.message);
    return XP_ERR_USAGE;
  }
  if (n == 0)
    printf("identical (timings and provenance not compared)\n");
  else
    printf("%ld difference%s\n", n, n == 1 ? "" : "s");
  if (fflush(stdout) != 0 || ferror(stdout)) return XP_ERR_RUN;
  return n ? XP_ERR_RUN : XP_OK;
}

// ---- main -------------------------------------------------------------------

typedef struct command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"list", cmd_list, "experiments and the paper figure/table each regenerates"},
    {"run", cmd_run, "run one experiment → HDF5 results file"},
    {"reproduce", cmd_reproduce, "every paper experiment at default size → results/, plots/"},
    {"plot", cmd_plot, "draw the figures of a stored results file"},
    {"info", cmd_info, "provenance, parameters and cases of a results file"},
    {"export", cmd_export, "series and summaries as CSV"},
    {"sweep", cmd_sweep, "a resumable grid of cases over h, k, N, methods → one HDF5 file"},
    {"compare", cmd_compare, "compare two results files (timings aside)"},
    STABCON_EXTRA_COMMANDS};

static void print_help(void) {
  printf("stabcon %s — research harness for stiff multibody constraint solvers\n\n",
         STABCON_VERSION);
  puts("usage: stabcon COMMAND [ARGS…]    (stabcon COMMAND --help for details)\n\ncommands:");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    printf("  %-10s %s\n", commands[i].name, commands[i].summary);
  puts("\nExit status: 0 success, 1 run failure, 2 bad usage or input.");
}

// output lost on a full or closed stdout is a run failure, not a success (`info > /dev/full`)
static int stdout_finish(int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "stabcon: cannot write to standard output: %s\n", strerror(errno));
    return rc == XP_OK ? XP_ERR_RUN : rc;
  }
  return rc;
}

// The one conversion of the libraries' error codes (sc_error.h) into exit codes: 0 ok, 2 bad
// input (an argument, a parameter, a file's contents), 1 any other failure.
static int exit_code(int code) { return code == XP_OK ? 0 : sc_error_is_input(code) ? 2 : 1; }

static int run_command(int argc, char **argv) {
  if (argc < 2) {
    print_help();
    return XP_ERR_USAGE;
  }
  if (is_help(argv[1])) {
    print_help();
    return XP_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("stabcon %s (git %s)\n", STABCON_VERSION, STABCON_GIT);
    return XP_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return stdout_finish(commands[i].fn(argc - 1, argv + 1));
  fprintf(stderr, "stabcon: unknown command '%s' (see `stabcon --help`)\n", argv[1]);
  return XP_ERR_USAGE;
}

int main(int argc, char **argv) {
  xp_library_init();
  return exit_code(run_command(argc, argv));
}
