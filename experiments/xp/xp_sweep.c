// SPDX-License-Identifier: MIT
// Sweeps: a Cartesian grid over an experiment's parameters. Each grid point is run into its own
// part file "<output>.parts/gNNNNN.h5", written atomically, so an interruption at any moment
// (Ctrl-C, kill, even SIGKILL or a full disk) leaves every finished point readable and
// `--resume` recomputes only the missing ones. The merge copies the parts, in grid order, into
// the single output file; with MPI each rank runs every ranks-th point and rank 0 merges, which
// gives the same file as a serial sweep.
#include "xp/xp_sweep.h"

#include <dirent.h>
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "xp/xp_file.h"
#include "xp_internal.h"

static volatile sig_atomic_t sweep_interrupted = 0;
// what a second interrupt needs, prepared before any signal can arrive: the running point's
// partial file (removed; --resume computes the point again) and the message
static char sweep_partial[1300], sweep_stop_msg[1600];

// the first interrupt finishes the running point, the second stops at once: finished points
// are complete part files already, so nothing is lost but the running point
static void sweep_on_signal(int sig) {
  (void)sig;
  if (sweep_interrupted) {
    if (sweep_partial[0]) unlink(sweep_partial);
    ssize_t w = write(STDERR_FILENO, sweep_stop_msg, strlen(sweep_stop_msg));
    (void)w;
    _exit(1);
  }
  sweep_interrupted = 1;
  static const char msg[] =
      "\nsweep: interrupted: finishing the running point (interrupt again to stop at once)\n";
  ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)w;
}

// the running point's partial file ("" when none), written with the interrupts held so the
// handler never sees half a name
static void sweep_running(const char *part) {
  sigset_t block, prev;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigprocmask(SIG_BLOCK, &block, &prev);
  if (part)
    snprintf(sweep_partial, sizeof sweep_partial, "%s.partial", part);
  else
    sweep_partial[0] = '\0';
  sigprocmask(SIG_SETMASK, &prev, NULL);
}

static const xp_param_def *param_def(const xp_experiment *x, const char *key) {
  for (size_t i = 0; i < x->n_params; i++)
    if (strcmp(x->params[i].key, key) == 0) return &x->params[i];
  return NULL;
}

// start:stop:count[:log] → values as text
static int parse_range(xp_sweep_axis *axis, const char *text, xp_error *err) {
  char buf[256], *save = NULL, *parts[4];
  int n = 0;
  if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf)
    return xp_fail(err, XP_ERR_USAGE, "--set %s: range '%.40s…' longer than %zu characters",
                   axis->key, text, sizeof buf - 1);
  for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
    if (n == 4)
      return xp_fail(err, XP_ERR_USAGE, "--set %s=%s: expected start:stop:count[:log]", axis->key,
                     text);
    parts[n++] = tok;
  }
  int log_spaced = n == 4 && strcmp(parts[3], "log") == 0;
  char *end1, *end2, *end3;
  double a = n >= 3 ? strtod(parts[0], &end1) : NAN, b = n >= 3 ? strtod(parts[1], &end2) : NAN;
  long count = n >= 3 ? strtol(parts[2], &end3, 10) : 0;
  if (n < 3 || (n == 4 && !log_spaced) || *end1 || *end2 || *end3 || !isfinite(a) || !isfinite(b) ||
      count < 1 || count > XP_SWEEP_MAX_VALUES)
    return xp_fail(err, XP_ERR_USAGE,
                   "--set %s=%s: expected start:stop:count[:log] with finite numbers and "
                   "1 <= count <= %d",
                   axis->key, text, XP_SWEEP_MAX_VALUES);
  if (log_spaced && !(a > 0 && b > 0))
    return xp_fail(err, XP_ERR_USAGE, "--set %s=%s: a log range needs start, stop > 0", axis->key,
                   text);
  axis->n = (size_t)count;
  for (long i = 0; i < count; i++) {
    double f = count == 1 ? 0 : (double)i / (double)(count - 1);
    double v = log_spaced ? a * pow(b / a, f) : a + (b - a) * f;
    if (i == count - 1) v = b;  // the end point exactly as given
    snprintf(axis->values[i], sizeof axis->values[i], "%.17g", v);
  }
  return XP_OK;
}

int xp_sweep_add_axis(xp_sweep_spec *spec, const char *assignment, xp_error *err) {
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment)
    return xp_fail(err, XP_ERR_USAGE, "--set '%s': expected key=value", assignment);
  xp_sweep_axis axis;
  memset(&axis, 0, sizeof axis);
  snprintf(axis.key, sizeof axis.key, "%.*s", (int)(eq - assignment), assignment);
  const xp_param_def *def = param_def(spec->experiment, axis.key);
  if (!def)
    return xp_fail(err, XP_ERR_USAGE, "--set '%s': experiment %s has no parameter '%s'", assignment,
                   spec->experiment->name, axis.key);
  const char *text = eq + 1;
  if (strchr(text, ':') && def->kind != XP_STRING) {
    if (parse_range(&axis, text, err)) return XP_ERR_USAGE;
  } else {
    char buf[2048], *save = NULL;
    if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf)
      return xp_fail(err, XP_ERR_USAGE, "--set %s: list longer than %zu characters", axis.key,
                     sizeof buf - 1);
    for (const char *c = text; *c; c++)  // "1,,2" or a trailing comma: an empty item
      if (*c == ',' && (c == text || c[1] == ',' || c[1] == '\0'))
        return xp_fail(err, XP_ERR_USAGE, "--set %s=%s: empty list item", axis.key, text);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      if (axis.n == XP_SWEEP_MAX_VALUES)
        return xp_fail(err, XP_ERR_USAGE, "--set %s: more than %d values", axis.key,
                       XP_SWEEP_MAX_VALUES);
      if (snprintf(axis.values[axis.n++], sizeof axis.values[0], "%s", tok) >=
          (int)sizeof axis.values[0])
        return xp_fail(err, XP_ERR_USAGE, "--set %s: value '%.40s…' longer than %zu characters",
                       axis.key, tok, sizeof axis.values[0] - 1);
    }
  }
  if (axis.n == 0) return xp_fail(err, XP_ERR_USAGE, "--set %s: no values", axis.key);
  // every value must be valid for the parameter on its own
  for (size_t i = 0; i < axis.n; i++) {
    xp_params probe = spec->base;
    char one[128];
    snprintf(one, sizeof one, "%s=%s", axis.key, axis.values[i]);
    if (xp_params_set(&probe, one, err)) return XP_ERR_USAGE;
  }
  if (axis.n == 1) {  // a single value is a fixed setting, not an axis
    char one[128];
    snprintf(one, sizeof one, "%s=%s", axis.key, axis.values[0]);
    return xp_params_set(&spec->base, one, err);
  }
  for (size_t a = 0; a < spec->n_axes; a++)
    if (strcmp(spec->axes[a].key, axis.key) == 0)
      return xp_fail(err, XP_ERR_USAGE, "--set %s given twice", axis.key);
  if (spec->n_axes == XP_SWEEP_MAX_AXES)
    return xp_fail(err, XP_ERR_USAGE, "more than %d swept parameters", XP_SWEEP_MAX_AXES);
  if (xp_sweep_size(spec) > XP_SWEEP_MAX_POINTS / axis.n)
    return xp_fail(err, XP_ERR_USAGE, "--set %s: the grid would exceed %d points", axis.key,
                   XP_SWEEP_MAX_POINTS);
  spec->axes[spec->n_axes++] = axis;
  return XP_OK;
}

size_t xp_sweep_size(const xp_sweep_spec *spec) {
  size_t n = 1;
  for (size_t a = 0; a < spec->n_axes; a++) n *= spec->axes[a].n;
  return n;
}

size_t xp_sweep_describe(const xp_sweep_spec *spec, char *buf, size_t len) {
  // appends like snprintf and counts what did not fit, so a caller can detect truncation
  size_t used = 0;
#define XP_DESCRIBE(...)                                                                          \
  do {                                                                                            \
    int k_ = snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, __VA_ARGS__); \
    used += k_ > 0 ? (size_t)k_ : 0;                                                              \
  } while (0)
  XP_DESCRIBE("%s", spec->experiment->name);
  for (size_t i = 0; i < spec->base.n; i++)
    XP_DESCRIBE(" [%s=%s]", spec->base.defs[i].key, spec->base.text[i]);
  for (size_t a = 0; a < spec->n_axes; a++) {
    XP_DESCRIBE(" %s=", spec->axes[a].key);
    for (size_t i = 0; i < spec->axes[a].n; i++)
      XP_DESCRIBE("%s%s", i ? "," : "", spec->axes[a].values[i]);
  }
#undef XP_DESCRIBE
  return used;
}

// axis values of grid point i (first axis slowest) applied to a copy of the base parameters
static int grid_params(const xp_sweep_spec *spec, size_t i, xp_params *out, xp_error *err) {
  *out = spec->base;
  size_t stride = xp_sweep_size(spec);
  for (size_t a = 0; a < spec->n_axes; a++) {
    stride /= spec->axes[a].n;
    char one[128];
    snprintf(one, sizeof one, "%s=%s", spec->axes[a].key,
             spec->axes[a].values[(i / stride) % spec->axes[a].n]);
    if (xp_params_set(out, one, err)) return XP_ERR_USAGE;
  }
  return XP_OK;
}

static void part_path(const xp_sweep_options *opt, size_t i, char *buf, size_t len) {
  snprintf(buf, len, "%s.parts/g%05zu.h5", opt->output, i);
}

// every part records the sweep it belongs to and its grid point, so --resume and the merge can
// tell a part of this sweep from a file of another sweep, another point or a single run
static int part_mark(xp_results *r, const xp_sweep_spec *spec, size_t i) {
  char *text = malloc(XP_SWEEP_DESCRIBE_MAX);
  int rc = text ? 0 : -1;
  if (text) xp_sweep_describe(spec, text, XP_SWEEP_DESCRIBE_MAX);
  if (!rc) rc = xp_h5_attr_string(xp_results_file_id(r), "sweep_part", text);
  if (!rc) rc = xp_h5_attr_int(xp_results_file_id(r), "grid_index", (long)i);
  free(text);
  return rc;
}

static const char *part_kind(mode_t mode) {
  return S_ISLNK(mode) ? "a symbolic link" : S_ISDIR(mode) ? "a directory" : "not a regular file";
}

// 1: no part for point i; 0: a valid part of this sweep; -1: something else (why says what)
static int part_check(const xp_sweep_spec *spec, size_t i, const char *path, char *why,
                      size_t len) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return 1;
    snprintf(why, len, "cannot inspect it: %s", strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    struct stat target;
    int dangling = S_ISLNK(st.st_mode) && stat(path, &target) != 0;
    snprintf(why, len, "it is %s%s%s", part_kind(st.st_mode),
             dangling ? " whose target fails: " : "", dangling ? strerror(errno) : "");
    return -1;
  }
  xp_error err = {.code = 0};
  xp_file *f = xp_file_open(path, &err);
  if (!f) {
    snprintf(why, len, "%s", err.message);
    return -1;
  }
  char *text = malloc(XP_SWEEP_DESCRIBE_MAX), *mine = malloc(XP_SWEEP_DESCRIBE_MAX), index[64] = "";
  int rc = -1;
  if (!text || !mine) {
    snprintf(why, len, "out of memory");
  } else if (xp_file_attr(f, "sweep_part", text, XP_SWEEP_DESCRIBE_MAX) != 0) {
    snprintf(why, len, "it is not a sweep part (no sweep_part attribute)");
  } else if (xp_sweep_describe(spec, mine, XP_SWEEP_DESCRIBE_MAX), strcmp(text, mine) != 0) {
    snprintf(why, len, "it belongs to another sweep (%.200s)", text);
  } else if (xp_file_attr(f, "grid_index", index, sizeof index) != 0 ||
             strtol(index, NULL, 10) != (long)i) {
    snprintf(why, len, "it holds grid point %s, not %zu", index[0] ? index : "?", i);
  } else {
    rc = 0;
  }
  free(text);
  free(mine);
  xp_file_close(f);
  return rc;
}

// renames a rejected part to <part>.rejected[N] (kept for inspection, never deleted)
static int part_set_aside(const char *path, const char *why, xp_error *err) {
  char aside[1300];
  struct stat st;
  for (int k = 0; k < 1000; k++) {
    if (k == 0)
      snprintf(aside, sizeof aside, "%s.rejected", path);
    else
      snprintf(aside, sizeof aside, "%s.rejected%d", path, k);
    if (lstat(aside, &st) != 0 && errno == ENOENT) break;
  }
  if (rename(path, aside) != 0)
    return xp_fail(err, XP_ERR_RUN, "sweep part '%s' is unusable (%s) and cannot be set aside: %s",
                   path, why, strerror(errno));
  fprintf(stderr, "sweep: part '%s' set aside as '%s' and recomputed: %s\n", path, aside, why);
  return XP_OK;
}

// records a point whose run failed as one case with status "failed"
static int write_failed_part(const xp_sweep_spec *spec, size_t i, const xp_params *p,
                             const char *path, const char *message, const xp_sweep_options *opt,
                             xp_error *err) {
  xp_results *r = xp_results_create(path, spec->experiment, p, opt->argc, opt->argv, err);
  if (!r) return XP_ERR_RUN;
  if (part_mark(r, spec, i)) {
    xp_results_abort(r);
    return xp_fail(err, XP_ERR_RUN, "cannot write sweep part '%s'", path);
  }
  xp_case *c = xp_case_begin(r, "failed");
  xp_case_status(c, "failed", message);
  xp_case_end(c);
  return xp_results_commit(r, err);
}

// the parts folder records which sweep it belongs to
int xp_sweep_prepare(const xp_sweep_spec *spec, const xp_sweep_options *opt, xp_error *err) {
  static char text[XP_SWEEP_DESCRIBE_MAX], old[XP_SWEEP_DESCRIBE_MAX];
  char dir[1100], path[1200];
  old[0] = '\0';
  snprintf(dir, sizeof dir, "%s.parts", opt->output);
  snprintf(path, sizeof path, "%s/sweep.txt", dir);
  if (xp_sweep_describe(spec, text, sizeof text) >= sizeof text)
    return xp_fail(err, XP_ERR_USAGE, "sweep description longer than %zu characters",
                   sizeof text - 1);
  FILE *f = fopen(path, "r");
  if (f) {
    size_t got = fread(old, 1, sizeof old - 1, f);
    old[got] = '\0';
    fclose(f);
    old[strcspn(old, "\n")] = '\0';
    if (!opt->resume)
      return xp_fail(err, XP_ERR_USAGE,
                     "an unfinished sweep is in '%s': continue it with --resume, or remove it",
                     dir);
    if (strcmp(old, text) != 0)
      return xp_fail(err, XP_ERR_USAGE,
                     "--resume: '%s' holds a different sweep (%s) than this one (%s)", dir, old,
                     text);
    return XP_OK;
  }
  if (xp_mkdir_p(dir) != 0)
    return xp_fail(err, XP_ERR_USAGE, "cannot create '%s': %s", dir, strerror(errno));
  char tmp[1300];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  f = fopen(tmp, "w");
  int bad = !f || fprintf(f, "%s\n", text) < 0;
  int saved = errno;
  if (f && fclose(f) != 0 && !bad) bad = 1, saved = errno;
  if (!bad && rename(tmp, path) != 0) bad = 1, saved = errno;
  if (bad) {
    unlink(tmp);  // a full disk leaves no half-written description (nor an empty folder) behind
    rmdir(dir);
    return xp_fail(err, XP_ERR_RUN, "cannot write '%s': %s", path, strerror(saved));
  }
  return XP_OK;
}

int xp_sweep_run(const xp_sweep_spec *spec, const xp_sweep_options *opt, xp_error *err) {
  int rc = XP_OK;
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = sweep_on_signal;
  sweep_partial[0] = '\0';
  snprintf(sweep_stop_msg, sizeof sweep_stop_msg,
           "sweep: stopped; finished points are kept in '%s.parts': run the same command with "
           "--resume to complete it\n",
           opt->output);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  sweep_interrupted = 0;
  size_t total = xp_sweep_size(spec), mine = 0, done = 0, skipped = 0;
  for (size_t i = (size_t)opt->rank; i < total; i += (size_t)opt->ranks) mine++;
  xp_progress bar, quiet = {0};
  xp_progress_begin(&bar, "sweep");
  for (size_t i = (size_t)opt->rank; i < total && rc == XP_OK; i += (size_t)opt->ranks) {
    char path[1200];
    part_path(opt, i, path, sizeof path);
    char why[512] = "";
    const int found = part_check(spec, i, path, why, sizeof why);
    if (found == 0) {  // finished by an earlier run
      skipped++;
    } else {
      xp_params p;
      if (found < 0 && (rc = part_set_aside(path, why, err))) break;
      if ((rc = grid_params(spec, i, &p, err))) break;
      sweep_running(path);
      xp_results *r = xp_results_create(path, spec->experiment, &p, opt->argc, opt->argv, err);
      if (!r) {
        rc = XP_ERR_RUN;
        break;
      }
      if (part_mark(r, spec, i)) {
        xp_results_abort(r);
        rc = xp_fail(err, XP_ERR_RUN, "cannot write sweep part '%s': %s", path, strerror(errno));
        break;
      }
      xp_error run_err = {.code = 0};
      const int run_rc = spec->experiment->run(&p, r, &quiet, &run_err);
      if (run_rc == XP_OK) {
        rc = xp_results_commit(r, err);
      } else if (run_rc == XP_ERR_RUN) {
        // writing or memory failed (a full disk): no part, so --resume computes the point again
        xp_results_abort(r);
        rc = xp_fail(err, XP_ERR_RUN,
                     "point %zu: %s; finished points are kept in '%s.parts': run the same command "
                     "with --resume once the problem is fixed",
                     i, run_err.message, opt->output);
      } else {  // the point's parameters cannot run: recorded as a failed case, the sweep goes on
        xp_results_abort(r);
        rc = write_failed_part(spec, i, &p, path, run_err.message, opt, err);
      }
    }
    sweep_running(NULL);
    done++;
    xp_progress_update(&bar, (double)done / (double)mine);
    if (rc == XP_OK && sweep_interrupted && done < mine)
      rc = xp_fail(err, XP_ERR_RUN,
                   "interrupted after %zu of %zu points: finished points are kept in '%s.parts'; "
                   "run the same command with --resume to complete it",
                   done, mine, opt->output);
  }
  xp_progress_end(&bar);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (rc == XP_OK && skipped)
    fprintf(stderr, "sweep: %zu of %zu points already done, %zu computed\n", skipped, mine,
            mine - skipped);
  return rc;
}

// ---- merge ------------------------------------------------------------------

static herr_t collect_name(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  (void)g, (void)info;
  char(*names)[256] = ((char(*)[256])((void **)data)[0]);
  size_t *n = ((void **)data)[1];
  if (*n < 512) snprintf(names[(*n)++], 256, "%s", name);
  return 0;
}

// grid values of point i as case parameters (unless the run already recorded them)
static int annotate_case(hid_t group, const xp_sweep_spec *spec, size_t i) {
  hid_t params = H5Gopen2(group, "params", H5P_DEFAULT);
  if (params < 0) return -1;
  int rc = 0;
  size_t stride = xp_sweep_size(spec);
  for (size_t a = 0; a < spec->n_axes; a++) {
    stride /= spec->axes[a].n;
    const char *value = spec->axes[a].values[(i / stride) % spec->axes[a].n];
    if (H5Aexists(params, spec->axes[a].key) > 0) continue;
    char *end;
    double v = strtod(value, &end);
    rc |= *end == '\0' ? xp_h5_attr_double(params, spec->axes[a].key, v)
                       : xp_h5_attr_string(params, spec->axes[a].key, value);
  }
  rc |= xp_h5_attr_int(params, "grid_index", (long)i);
  H5Gclose(params);
  return rc;
}

// libhdf5 (1.10) crashes inside H5Ocopy when the disk fills mid-copy, so the merge starts only
// when the output's file system has room for every part (the merged file is smaller: the parts'
// provenance is not copied) plus a margin
static int merge_space_check(const xp_sweep_options *opt, size_t total, xp_error *err) {
  double need = 65536;
  char path[1200];
  for (size_t i = 0; i < total; i++) {
    struct stat st;
    part_path(opt, i, path, sizeof path);
    if (stat(path, &st) == 0) need += 1.1 * (double)st.st_size;
  }
  snprintf(path, sizeof path, "%s.parts", opt->output);
  struct statvfs fs;
  if (statvfs(path, &fs) != 0) return XP_OK;  // unknown: let the writes tell
  const double avail = (double)fs.f_bavail * (double)fs.f_frsize;
  if (avail >= need) return XP_OK;
  return xp_fail(err, XP_ERR_RUN,
                 "not enough free space to merge the sweep into '%s': about %.0f kB needed, %.0f "
                 "kB free; the parts are kept in '%s': run the same command with --resume once "
                 "there is room",
                 opt->output, need / 1024, avail / 1024, path);
}

typedef struct merge_job {
  const xp_sweep_spec *spec;
  const xp_sweep_options *opt;
} merge_job;

// the merge proper (run in a child process: xp_sweep_merge): every part's cases copied into
// "<output>.partial", renamed onto the output only when every write and close succeeded
static int merge_write(void *arg, xp_error *err) {
  const xp_sweep_spec *spec = ((const merge_job *)arg)->spec;
  const xp_sweep_options *opt = ((const merge_job *)arg)->opt;
  size_t total = xp_sweep_size(spec);
  char path[1200];
  xp_results *r =
      xp_results_create(opt->output, spec->experiment, &spec->base, opt->argc, opt->argv, err);
  if (!r) return XP_ERR_RUN;
  static char text[XP_SWEEP_DESCRIBE_MAX];
  xp_sweep_describe(spec, text, sizeof text);  // fits: checked by xp_sweep_prepare
  int rc = xp_h5_attr_string(xp_results_file_id(r), "sweep", text) < 0 ? XP_ERR_RUN : XP_OK;
  static char names[512][256];
  hid_t ocpl = H5Pcreate(H5P_OBJECT_COPY);
  for (size_t i = 0; i < total && rc == XP_OK; i++) {
    part_path(opt, i, path, sizeof path);
    hid_t part = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t cases = part >= 0 ? H5Gopen2(part, "cases", H5P_DEFAULT) : -1;
    if (cases < 0) {
      rc = xp_fail(err, XP_ERR_RUN, "cannot read sweep part '%s' (corrupt?)", path);
      if (part >= 0) H5Fclose(part);
      break;
    }
    size_t n = 0;
    void *data[2] = {names, &n};
    hsize_t idx = 0;
    if (H5Literate(cases, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_name, data) < 0) {
      idx = 0;
      H5Literate(cases, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, data);
    }
    for (size_t c = 0; c < n && rc == XP_OK; c++) {
      char target[300];
      snprintf(target, sizeof target, "g%05zu_%s", i, names[c]);
      if (H5Ocopy(cases, names[c], xp_results_cases_id(r), target, ocpl, H5P_DEFAULT) < 0) {
        rc = xp_fail(err, XP_ERR_RUN, "cannot copy case '%s' of '%s' (disk full?)", names[c], path);
        break;
      }
      hid_t g = H5Gopen2(xp_results_cases_id(r), target, H5P_DEFAULT);
      if (g < 0 || annotate_case(g, spec, i) != 0)
        rc = xp_fail(err, XP_ERR_RUN, "cannot annotate case '%s'", target);
      if (g >= 0 && H5Gclose(g) < 0 && rc == XP_OK)
        rc = xp_fail(err, XP_ERR_RUN, "cannot write case '%s' (disk full?)", target);
    }
    H5Gclose(cases);
    H5Fclose(part);
  }
  H5Pclose(ocpl);
  if (rc != XP_OK) {
    xp_results_abort(r);
    return rc;
  }
  return xp_results_commit(r, err);
}

int xp_sweep_merge(const xp_sweep_spec *spec, const xp_sweep_options *opt, xp_error *err) {
  size_t total = xp_sweep_size(spec);
  char path[1200];
  for (size_t i = 0; i < total; i++) {
    part_path(opt, i, path, sizeof path);
    char why[512] = "";
    const int found = part_check(spec, i, path, why, sizeof why);
    if (found > 0)
      return xp_fail(err, XP_ERR_RUN, "sweep incomplete: '%s' is missing (run with --resume)",
                     path);
    if (found < 0)
      return xp_fail(err, XP_ERR_RUN,
                     "sweep part '%s' is unusable: %s; run with --resume to set it aside and "
                     "recompute it",
                     path, why);
  }
  if (merge_space_check(opt, total, err)) return XP_ERR_RUN;
  // libhdf5 (1.10) may crash when a write fails inside H5Ocopy: the merge runs in a child, and
  // whatever it dies of, the previous output and every part stay as they were
  merge_job job = {spec, opt};
  int died = 0;
  xp_error child = {.code = 0};
  if (xp_isolated(merge_write, &job, 0, &died, &child) != XP_OK) {
    char partial[1300];
    snprintf(partial, sizeof partial, "%s.partial", opt->output);
    if (died) unlink(partial);
    return xp_fail(err, child.code ? child.code : XP_ERR_RUN,
                   "merging the sweep into '%s' failed: %s%s; the parts are kept in '%s.parts' "
                   "(run the same command with --resume to merge again)",
                   opt->output, died ? "libhdf5 crashed writing it: " : "", child.message,
                   opt->output);
  }
  // the output is complete: the parts are no longer needed
  for (size_t i = 0; i < total; i++) {
    part_path(opt, i, path, sizeof path);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s.parts/sweep.txt", opt->output);
  unlink(path);
  snprintf(path, sizeof path, "%s.parts", opt->output);
  rmdir(path);
  return XP_OK;
}
