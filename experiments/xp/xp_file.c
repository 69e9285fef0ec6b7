// SPDX-License-Identifier: MIT
// Reading results files (layout in xp_results.c) for `info`, `export` and `plot`.
#include "xp/xp_file.h"
#include "xp/xp_sweep.h"
#include "xp_internal.h"

#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME XP_NAME_MAX

struct xp_file {
  hid_t file;
  size_t n_cases;
  char (*case_names)[MAX_NAME];
};

// ---- attributes as text -----------------------------------------------------

// reads only what xp_h5_attr_shape accepts (one value): a scalar buffer never receives an array
static int attr_to_text(hid_t attr, char *buf, size_t len) {
  char why[128];
  if (xp_h5_attr_shape(attr, why, sizeof why) != 0) return -1;
  hid_t type = H5Aget_type(attr);
  H5T_class_t cls = H5Tget_class(type);
  int rc = 0;
  if (cls == H5T_STRING) {
    if (H5Tis_variable_str(type) > 0) {
      char *value = NULL;
      hid_t mem = H5Tcopy(H5T_C_S1);
      H5Tset_size(mem, H5T_VARIABLE);
      rc = H5Aread(attr, mem, &value) < 0 ? -1 : 0;
      if (!rc) snprintf(buf, len, "%s", value ? value : "");
      if (value) H5free_memory(value);
      H5Tclose(mem);
    } else {
      size_t size = H5Tget_size(type);
      char *tmp = calloc(size + 1, 1);
      rc = (!tmp || H5Aread(attr, type, tmp) < 0) ? -1 : 0;
      if (!rc) snprintf(buf, len, "%s", tmp);
      free(tmp);
    }
  } else if (cls == H5T_INTEGER) {
    long v = 0;
    rc = H5Aread(attr, H5T_NATIVE_LONG, &v) < 0 ? -1 : 0;
    if (!rc) snprintf(buf, len, "%ld", v);
  } else if (cls == H5T_FLOAT) {
    double v = 0;
    rc = H5Aread(attr, H5T_NATIVE_DOUBLE, &v) < 0 ? -1 : 0;
    if (!rc) snprintf(buf, len, "%.17g", v);
  } else {
    snprintf(buf, len, "?");
  }
  H5Tclose(type);
  return rc;
}

static int attr_text_by_name(hid_t obj, const char *name, char *buf, size_t len) {
  if (H5Aexists(obj, name) <= 0) return -1;
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  if (attr < 0) return -1;
  int rc = attr_to_text(attr, buf, len);
  H5Aclose(attr);
  return rc;
}

int xp_h5_attr_read_string(hid_t obj, const char *name, char *buf, size_t len) {
  return attr_text_by_name(obj, name, buf, len);
}

static int attr_double_by_name(hid_t obj, const char *name, double *value) {
  if (H5Aexists(obj, name) <= 0) return -1;
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  if (attr < 0) return -1;
  char why[128];
  if (xp_h5_attr_shape(attr, why, sizeof why) != 0) {
    H5Aclose(attr);
    return -1;
  }
  hid_t type = H5Aget_type(attr);
  H5T_class_t cls = H5Tget_class(type);
  int rc = (cls == H5T_FLOAT || cls == H5T_INTEGER)
               ? (H5Aread(attr, H5T_NATIVE_DOUBLE, value) < 0 ? -1 : 0)
               : -1;
  H5Tclose(type);
  H5Aclose(attr);
  return rc;
}

// ---- names of links and attributes in creation (or name) order ------------

typedef struct name_list {
  char (*names)[MAX_NAME];
  size_t n, cap;
} name_list;

static void name_list_add(name_list *l, const char *name) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->names[i], name) == 0) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    void *grown = realloc(l->names, cap * sizeof *l->names);
    if (!grown) return;
    l->names = grown;
    l->cap = cap;
  }
  snprintf(l->names[l->n++], MAX_NAME, "%s", name);
}

static herr_t collect_link(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  (void)g;
  (void)info;
  name_list_add(data, name);
  return 0;
}

static herr_t collect_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data) {
  (void)obj;
  (void)info;
  if (!strstr(name, ".unit")) name_list_add(data, name);
  return 0;
}

static void list_links(hid_t g, name_list *out) {
  hsize_t idx = 0;
  // creation order when tracked, otherwise by name
  if (H5Literate(g, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_link, out) < 0) {
    idx = 0;
    H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_link, out);
  }
}

static void list_attrs(hid_t obj, name_list *out) {
  hsize_t idx = 0;
  H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_attr, out);
}

// ---- file -----------------------------------------------------------------

xp_file *xp_file_open(const char *path, xp_error *err) {
  xp_h5_quiet();
  if (H5Fis_hdf5(path) <= 0) {
    FILE *probe = fopen(path, "rb");
    if (!probe) {
      xp_fail(err, XP_ERR_USAGE, "cannot read '%s': no such file or not readable", path);
    } else {
      fclose(probe);
      xp_fail(err, XP_ERR_USAGE, "'%s' is not an HDF5 file (or it is corrupt)", path);
    }
    return NULL;
  }
  if (xp_h5_probe(path, err) != XP_OK) return NULL;  // libhdf5 itself crashes on some files
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) {
    xp_fail(err, XP_ERR_USAGE, "cannot open '%s' as HDF5 (corrupt?)", path);
    return NULL;
  }
  if (H5Aexists(file, "format_version") <= 0 || H5Lexists(file, "cases", H5P_DEFAULT) <= 0) {
    xp_fail(err, XP_ERR_USAGE, "'%s' is not a stabcon results file (no format_version/cases)",
            path);
    H5Fclose(file);
    return NULL;
  }
  // every object the readers below touch is checked first: nothing unexpected is read
  if (xp_file_check(file, path, err) != XP_OK) {
    H5Fclose(file);
    return NULL;
  }
  xp_file *f = calloc(1, sizeof *f);
  f->file = file;
  hid_t cases = H5Gopen2(file, "cases", H5P_DEFAULT);
  name_list names = {0};
  list_links(cases, &names);
  H5Gclose(cases);
  f->case_names = names.names;
  f->n_cases = names.n;
  return f;
}

void xp_file_close(xp_file *f) {
  if (!f) return;
  free(f->case_names);
  H5Fclose(f->file);
  free(f);
}

int xp_file_attr(const xp_file *f, const char *name, char *buf, size_t len) {
  return attr_text_by_name(f->file, name, buf, len);
}

int xp_file_param(const xp_file *f, const char *key, char *buf, size_t len) {
  hid_t g = H5Gopen2(f->file, "params", H5P_DEFAULT);
  if (g < 0) return -1;
  int rc = attr_text_by_name(g, key, buf, len);
  H5Gclose(g);
  return rc;
}

size_t xp_file_case_count(const xp_file *f) { return f->n_cases; }

const char *xp_file_case_name(const xp_file *f, size_t i) {
  return i < f->n_cases ? f->case_names[i] : NULL;
}

// opens /cases/<case>/<sub> (sub may be "" for the case group itself)
static hid_t case_open(const xp_file *f, const char *case_name, const char *sub) {
  char path[2 * MAX_NAME + 16];
  snprintf(path, sizeof path, "cases/%s%s%s", case_name, sub[0] ? "/" : "", sub);
  if (H5Lexists(f->file, "cases", H5P_DEFAULT) <= 0) return -1;
  htri_t ok = H5Lexists(f->file, path, H5P_DEFAULT);
  if (ok <= 0) return -1;
  return H5Oopen(f->file, path, H5P_DEFAULT);
}

int xp_file_case_status(const xp_file *f, const char *case_name, char *buf, size_t len) {
  hid_t g = case_open(f, case_name, "");
  if (g < 0) return -1;
  int rc = attr_text_by_name(g, "status", buf, len);
  H5Oclose(g);
  return rc;
}

static int case_number(const xp_file *f, const char *case_name, const char *sub, const char *key,
                       double *value) {
  hid_t g = case_open(f, case_name, sub);
  if (g < 0) return -1;
  int rc = attr_double_by_name(g, key, value);
  H5Oclose(g);
  return rc;
}

int xp_file_case_stat(const xp_file *f, const char *case_name, const char *key, double *value) {
  return case_number(f, case_name, "stats", key, value);
}

int xp_file_case_param(const xp_file *f, const char *case_name, const char *key, double *value) {
  return case_number(f, case_name, "params", key, value);
}

long xp_file_series_read(const xp_file *f, const char *case_name, const char *series,
                         double **data) {
  char sub[MAX_NAME + 8];
  snprintf(sub, sizeof sub, "series/%s", series);
  hid_t ds = case_open(f, case_name, sub);
  if (ds < 0) return -1;
  hid_t space = H5Dget_space(ds);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  // bounded when the file was opened (xp_file_check); checked again before allocating
  if (n < 0 || n > XP_SERIES_MAX_POINTS) {
    H5Oclose(ds);
    return -1;
  }
  double *buf = malloc(((size_t)n + 1) * sizeof *buf);
  if (!buf || (n > 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)) {
    free(buf);
    H5Oclose(ds);
    return -1;
  }
  H5Oclose(ds);
  *data = buf;
  return (long)n;
}

// ---- info -------------------------------------------------------------------

static herr_t print_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data) {
  (void)info;
  char value[4096];
  if (attr_text_by_name(obj, name, value, sizeof value) == 0)
    fprintf((FILE *)data, "  %-18s %s\n", name, value);
  return 0;
}

void xp_file_info(const xp_file *f, FILE *out) {
  hsize_t idx = 0;
  fprintf(out, "provenance:\n");
  H5Aiterate2(f->file, H5_INDEX_NAME, H5_ITER_INC, &idx, print_attr, out);
  hid_t params = H5Gopen2(f->file, "params", H5P_DEFAULT);
  if (params >= 0) {
    fprintf(out, "parameters:\n");
    idx = 0;
    H5Aiterate2(params, H5_INDEX_NAME, H5_ITER_INC, &idx, print_attr, out);
    H5Gclose(params);
  }
  fprintf(out, "cases (%zu):\n", f->n_cases);
  for (size_t i = 0; i < f->n_cases; i++) {
    char status[64] = "?";
    xp_file_case_status(f, f->case_names[i], status, sizeof status);
    name_list series = {0};
    hid_t g = case_open(f, f->case_names[i], "series");
    if (g >= 0) {
      list_links(g, &series);
      H5Oclose(g);
    }
    fprintf(out, "  %-32s status=%-14s series=%zu\n", f->case_names[i], status, series.n);
    free(series.names);
  }
}

// ---- CSV export ---------------------------------------------------------------

static void csv_field(FILE *out, const char *text, int first) {
  if (!first) fputc(',', out);
  // quote only when needed
  if (strpbrk(text, ",\"\n")) {
    fputc('"', out);
    for (const char *c = text; *c; c++) {
      if (*c == '"') fputc('"', out);
      fputc(*c, out);
    }
    fputc('"', out);
  } else {
    fputs(text, out);
  }
}

int xp_file_export_summary_csv(const xp_file *f, FILE *out, xp_error *err) {
  (void)err;
  name_list params = {0}, stats = {0};
  for (size_t i = 0; i < f->n_cases; i++) {
    hid_t g = case_open(f, f->case_names[i], "params");
    if (g >= 0) list_attrs(g, &params), H5Oclose(g);
    g = case_open(f, f->case_names[i], "stats");
    if (g >= 0) list_attrs(g, &stats), H5Oclose(g);
  }
  csv_field(out, "case", 1);
  csv_field(out, "status", 0);
  for (size_t j = 0; j < params.n; j++) csv_field(out, params.names[j], 0);
  for (size_t j = 0; j < stats.n; j++) csv_field(out, stats.names[j], 0);
  fputc('\n', out);
  static char value[XP_ATTR_MAX_STRING + 64];  // a whole value: the export cuts nothing short
  for (size_t i = 0; i < f->n_cases; i++) {
    value[0] = '\0';
    csv_field(out, f->case_names[i], 1);
    xp_file_case_status(f, f->case_names[i], value, sizeof value);
    csv_field(out, value, 0);
    const char *subs[2] = {"params", "stats"};
    name_list *lists[2] = {&params, &stats};
    for (int s = 0; s < 2; s++) {
      hid_t g = case_open(f, f->case_names[i], subs[s]);
      for (size_t j = 0; j < lists[s]->n; j++) {
        if (g < 0 || attr_text_by_name(g, lists[s]->names[j], value, sizeof value) != 0)
          strcpy(value, "nan");
        csv_field(out, value, 0);
      }
      if (g >= 0) H5Oclose(g);
    }
    fputc('\n', out);
  }
  free(params.names);
  free(stats.names);
  return ferror(out) ? xp_fail(err, XP_ERR_RUN, "write error while exporting") : XP_OK;
}

// distinct series lengths of a case, in order of first appearance, and the series of each (as
// many as the case has: nothing is left out)
typedef struct series_groups {
  name_list names;
  long *length;    // names.n
  long *distinct;  // n_distinct of names.n
  size_t n_distinct;
} series_groups;

static void series_groups_free(series_groups *sg) {
  free(sg->names.names), free(sg->length), free(sg->distinct);
}

static int series_groups_read(const xp_file *f, const char *case_name, series_groups *sg) {
  memset(sg, 0, sizeof *sg);
  hid_t g = case_open(f, case_name, "series");
  if (g < 0) return -1;
  list_links(g, &sg->names);
  sg->length = calloc(sg->names.n + 1, sizeof *sg->length);
  sg->distinct = calloc(sg->names.n + 1, sizeof *sg->distinct);
  if (!sg->length || !sg->distinct) sg->names.n = 0;
  for (size_t j = 0; j < sg->names.n; j++) {
    hid_t ds = H5Dopen2(g, sg->names.names[j], H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    sg->length[j] = (long)H5Sget_simple_extent_npoints(space);
    H5Sclose(space);
    H5Dclose(ds);
    size_t k = 0;
    while (k < sg->n_distinct && sg->distinct[k] != sg->length[j]) k++;
    if (k == sg->n_distinct) sg->distinct[sg->n_distinct++] = sg->length[j];
  }
  H5Oclose(g);
  return sg->length && sg->distinct ? 0 : -1;
}

int xp_file_case_group_name(const xp_file *f, const char *case_name, size_t group, char *buf,
                            size_t len) {
  series_groups sg;
  if (series_groups_read(f, case_name, &sg) != 0 || group >= sg.n_distinct) {
    series_groups_free(&sg);
    return -1;
  }
  for (size_t j = 0; j < sg.names.n; j++) {
    if (sg.length[j] == sg.distinct[group]) {
      snprintf(buf, len, "%s", sg.names.names[j]);
      break;
    }
  }
  series_groups_free(&sg);
  return 0;
}

// the columns of one series group: every series of that length, read (an unreadable one is an
// error: the export holds every series or none)
static int group_columns(const xp_file *f, const char *case_name, const series_groups *sg,
                         long rows, double **cols, size_t *col_index, size_t *ncols,
                         xp_error *err) {
  *ncols = 0;
  for (size_t j = 0; j < sg->names.n; j++) {
    if (sg->length[j] != rows) continue;
    if (xp_file_series_read(f, case_name, sg->names.names[j], &cols[*ncols]) < 0)
      return xp_fail(err, XP_ERR_USAGE, "series '%s' of case '%s' cannot be read",
                     sg->names.names[j], case_name);
    col_index[(*ncols)++] = j;
  }
  return XP_OK;
}

int xp_file_export_case_csv(const xp_file *f, const char *case_name, size_t group, FILE *out,
                            size_t *n_groups, xp_error *err) {
  series_groups sg;
  if (series_groups_read(f, case_name, &sg) != 0) {
    series_groups_free(&sg);
    return xp_fail(err, XP_ERR_USAGE, "no case '%s' in the file (see `stabcon info`)", case_name);
  }
  if (n_groups) *n_groups = sg.n_distinct;
  if (group >= sg.n_distinct) {
    series_groups_free(&sg);
    return xp_fail(err, XP_ERR_USAGE, "case '%s' has no series group %zu", case_name, group);
  }
  long rows = sg.distinct[group];
  double **cols = calloc(sg.names.n + 1, sizeof *cols);
  size_t ncols = 0, *col_index = calloc(sg.names.n + 1, sizeof *col_index);
  int rc = cols && col_index ? group_columns(f, case_name, &sg, rows, cols, col_index, &ncols, err)
                             : xp_fail(err, XP_ERR_RUN, "out of memory exporting '%s'", case_name);
  for (size_t c = 0; rc == XP_OK && c < ncols; c++)
    csv_field(out, sg.names.names[col_index[c]], c == 0);
  if (rc == XP_OK) fputc('\n', out);
  for (long r = 0; rc == XP_OK && r < rows; r++) {
    for (size_t c = 0; c < ncols; c++) {
      if (c) fputc(',', out);
      double v = cols[c][r];
      if (isnan(v))
        fputs("nan", out);
      else
        fprintf(out, "%.17g", v);
    }
    fputc('\n', out);
  }
  for (size_t c = 0; cols && c < ncols; c++) free(cols[c]);
  free(cols), free(col_index);
  series_groups_free(&sg);
  if (rc != XP_OK) return rc;
  return ferror(out) ? xp_fail(err, XP_ERR_RUN, "write error while exporting") : XP_OK;
}

// ---- gnuplot datablocks (stabcon plot) -------------------------------------------

void xp_plot_block_line(FILE *out, const char *const *fields, size_t n) {
  fputc(':', out);
  for (size_t i = 0; i < n; i++) {
    if (i) fputc('\t', out);
    for (const unsigned char *c = (const unsigned char *)fields[i]; *c; c++)
      fputc(*c < 0x20 || *c == 0x7f ? '?' : *c, out);
  }
  fputc('\n', out);
}

static void block_begin(FILE *out, const char *name) { fprintf(out, "$%s << EOD\n", name); }
static void block_end(FILE *out) { fputs("EOD\n", out); }

// the `method` parameter of every case, each distinct value once in order of appearance
static void methods_block(const xp_file *f, FILE *out) {
  name_list seen = {0};
  int any = 0;
  for (size_t i = 0; i < f->n_cases; i++) {
    char value[MAX_NAME] = "nan";
    hid_t g = case_open(f, f->case_names[i], "params");
    if (g >= 0) {
      any |= attr_text_by_name(g, "method", value, sizeof value) == 0;
      H5Oclose(g);
    }
    name_list_add(&seen, value);
  }
  block_begin(out, "stabcon_methods");
  for (size_t k = 0; any && k < seen.n; k++) {
    const char *field[1] = {seen.names[k]};
    xp_plot_block_line(out, field, 1);
  }
  block_end(out);
  free(seen.names);
}

// status, then parameters not also a statistic, then statistics (summary.csv's last column wins)
static void stats_lines(const xp_file *f, const char *case_name, const char *safe, FILE *out) {
  char value[1024];
  const char *field[3] = {safe, "status", value};
  if (xp_file_case_status(f, case_name, value, sizeof value) == 0)
    xp_plot_block_line(out, field, 3);
  hid_t params = case_open(f, case_name, "params"), stats = case_open(f, case_name, "stats");
  name_list names[2] = {{0}, {0}};
  if (params >= 0) list_attrs(params, &names[0]);
  if (stats >= 0) list_attrs(stats, &names[1]);
  for (int s = 0; s < 2; s++) {
    hid_t g = s ? stats : params;
    for (size_t j = 0; j < names[s].n; j++) {
      if (s == 0 && stats >= 0 && H5Aexists(stats, names[s].names[j]) > 0) continue;
      if (attr_text_by_name(g, names[s].names[j], value, sizeof value) != 0) continue;
      field[1] = names[s].names[j];
      xp_plot_block_line(out, field, 3);
    }
    free(names[s].names);
  }
  if (params >= 0) H5Oclose(params);
  if (stats >= 0) H5Oclose(stats);
}

// case names are made filesystem-safe by construction; a file from elsewhere may hold anything
void xp_plot_case_file_name(char *out, size_t len, const char *name) {
  snprintf(out, len, "%s", name);
  for (char *c = out; *c; c++)
    if (*c == '/' || (unsigned char)*c <= ' ' || *c == 0x7f) *c = '_';
}

int xp_file_plot_blocks(const xp_file *f, FILE *out, int with_stats, xp_error *err) {
  block_begin(out, "stabcon_cases");
  for (size_t i = 0; i < f->n_cases; i++) {
    char safe[MAX_NAME];
    xp_plot_case_file_name(safe, sizeof safe, f->case_names[i]);
    const char *field[1] = {safe};
    xp_plot_block_line(out, field, 1);
  }
  block_end(out);
  methods_block(f, out);
  block_begin(out, "stabcon_stats");
  for (size_t i = 0; with_stats && i < f->n_cases; i++) {
    char safe[MAX_NAME];
    xp_plot_case_file_name(safe, sizeof safe, f->case_names[i]);
    stats_lines(f, f->case_names[i], safe, out);
  }
  block_end(out);
  return ferror(out) ? xp_fail(err, XP_ERR_RUN, "write error on the figure data") : XP_OK;
}

int xp_file_case_unit(const xp_file *f, const char *case_name, const char *key, char *buf,
                      size_t len) {
  char name[300];
  snprintf(name, sizeof name, "%s.unit", key);
  const char *subs[2] = {"stats", "params"};
  for (int s = 0; s < 2; s++) {
    hid_t g = case_open(f, case_name, subs[s]);
    if (g < 0) continue;
    int rc = attr_text_by_name(g, name, buf, len);
    H5Oclose(g);
    if (rc == 0) return 0;
  }
  return -1;
}

// ---- entries of a case, for a full comparison --------------------------------------------

size_t xp_file_case_entries(const xp_file *f, const char *case_name, const char *group,
                            char (*names)[256], size_t cap) {
  hid_t g = case_open(f, case_name, group);
  if (g < 0) return 0;
  name_list l = {0};
  if (strcmp(group, "series") == 0)
    list_links(g, &l);
  else
    list_attrs(g, &l);
  H5Oclose(g);
  size_t n = 0;
  for (size_t i = 0; i < l.n && n < cap; i++) {
    const size_t k = strlen(l.names[i]);
    if (k > 5 && strcmp(l.names[i] + k - 5, ".unit") == 0) continue;  // units go with their key
    snprintf(names[n++], 256, "%s", l.names[i]);
  }
  free(l.names);
  return n;
}

int xp_file_case_text(const xp_file *f, const char *case_name, const char *group, const char *key,
                      char *buf, size_t len) {
  hid_t g = case_open(f, case_name, group);
  if (g < 0) return -1;
  int rc = attr_text_by_name(g, key, buf, len);
  H5Oclose(g);
  return rc;
}
