// SPDX-License-Identifier: MIT
// Hostile sweep parts and full disks: parts of another sweep, of
// another grid point, single-run files and dangling links are set aside and recomputed; a merge
// without room exits 1 and keeps every part; a full disk leaves no empty or temporary file. The
// full-disk cases need a tmpfs (root): without one they are skipped and say so.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
// cmocka.h needs the four headers above first
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_test_util.h"
#include "hostile_util.h"

#define GRID "h=1e-3,2e-3,3e-3"

// sweep smd over GRID (T = 0.01 s) into out, with --resume if resume; returns the exit code
static int sweep(const char *out, int resume) {
  const char *args[] = {
      "sweep", "smd", "--set", GRID, "--set", "T=0.01", "-o", out, resume ? "--resume" : NULL,
      NULL};
  return test_run(args);
}

static int compare(const char *a, const char *b) {
  int rc = test_run((const char *[]){"compare", a, b, NULL});
  printf("  compare %s %s -> %d: %s", a, b, rc, test_output);
  return rc;
}

static void copy_file(const char *from, const char *to) {
  char a[600];
  test_path(a, sizeof a, from);
  assert_int_equal(hostile_copy(a, to), 0);
}

static void set_string(const char *file, const char *attr, const char *value) {
  hid_t f = hostile_h5_open(file);
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(value) + 1);
  hostile_attr_replace(f, "/", attr, t, 0, NULL, value);
  H5Tclose(t);
  H5Fclose(f);
}

static void set_long(const char *file, const char *attr, long value) {
  hid_t f = hostile_h5_open(file);
  hostile_attr_replace(f, "/", attr, H5T_NATIVE_LONG, 0, NULL, &value);
  H5Fclose(f);
}

// the reference sweep, its description, and a single-run file
static void reference(char *description, size_t len) {
  assert_int_equal(sweep("ref.h5", 0), 0);
  hid_t f = hostile_h5_open("ref.h5");
  hid_t a = H5Aopen(f, "sweep", H5P_DEFAULT);
  hid_t t = H5Aget_type(a);
  char *buf = calloc(H5Tget_size(t) + 1, 1);
  H5Aread(a, t, buf);
  snprintf(description, len, "%s", buf);
  free(buf);
  H5Tclose(t);
  H5Aclose(a);
  H5Fclose(f);
  assert_int_equal(test_run((const char *[]){"run", "smd", "--set", "h=1e-3", "--set", "T=0.01",
                                             "-o", "single.h5", NULL}),
                   0);
}

// Foreign parts are named, set aside (renamed) and recomputed
static void test_resume_foreign_parts(void **state) {
  (void)state;
  char description[4096];
  reference(description, sizeof description);
  char dir[600];
  test_path(dir, sizeof dir, "c.h5.parts");
  assert_int_equal(mkdir(dir, 0755), 0);
  // point 0: a part of another sweep; point 1: this sweep's point 2; point 2: a single run
  copy_file("single.h5", "c.h5.parts/g00000.h5");
  set_string("c.h5.parts/g00000.h5", "sweep_part", "smd h=9,8,7 [T=0.01]");
  set_long("c.h5.parts/g00000.h5", "grid_index", 0);
  copy_file("single.h5", "c.h5.parts/g00001.h5");
  set_string("c.h5.parts/g00001.h5", "sweep_part", description);
  set_long("c.h5.parts/g00001.h5", "grid_index", 2);
  copy_file("single.h5", "c.h5.parts/g00002.h5");
  file_state kept[3] = {hostile_state("c.h5.parts/g00000.h5"),
                        hostile_state("c.h5.parts/g00001.h5"),
                        hostile_state("c.h5.parts/g00002.h5")};
  int rc = sweep("c.h5", 1);
  printf("resume over foreign parts -> exit %d\n%s", rc, test_output);
  assert_int_equal(rc, 0);
  assert_true(hostile_says("g00000.h5' set aside", "belongs to another sweep",
                           "g00001.h5' set aside", "holds grid point 2, not 1",
                           "g00002.h5' set aside", "not a sweep part", NULL));
  // set aside, not deleted: the very same files under their new names
  assert_true(hostile_unchanged("c.h5.parts/g00000.h5.rejected", &kept[0]));
  assert_true(hostile_unchanged("c.h5.parts/g00001.h5.rejected", &kept[1]));
  assert_true(hostile_unchanged("c.h5.parts/g00002.h5.rejected", &kept[2]));
  assert_int_equal(compare("ref.h5", "c.h5"), 0);
}

// A dangling link among the parts is named as such
static void test_dangling_part(void **state) {
  (void)state;
  char dir[600], link[600];
  test_path(dir, sizeof dir, "d.h5.parts");
  assert_int_equal(mkdir(dir, 0755), 0);
  test_path(link, sizeof link, "d.h5.parts/g00001.h5");
  assert_int_equal(symlink("/nonexistent/part.h5", link), 0);
  int rc = sweep("d.h5", 1);
  printf("resume over a dangling link -> exit %d\n%s", rc, test_output);
  assert_int_equal(rc, 0);
  assert_true(
      hostile_says("g00001.h5' set aside", "symbolic link", "No such file or directory", NULL));
  assert_false(strstr(test_output, "disk full"));
  file_state aside = hostile_state("d.h5.parts/g00001.h5.rejected");
  assert_true(aside.exists && S_ISLNK(aside.mode));
  assert_int_equal(compare("ref.h5", "d.h5"), 0);
}

// A merge without room exits 1 and keeps the parts; once there is room, --resume
// completes the same file
static void test_merge_full_disk(void **state) {
  (void)state;
  if (hostile_tmpfs_mount("full", 2048) != 0) skip();  // prints why: not root / no tmpfs
  // free space grows by 16 kB per attempt: the parts fit before the merge does (the merge needs
  // 1.1 × the parts + 64 kB), so some attempt computes every part and is refused the merge
  hostile_filler("full/filler", 4096);
  struct stat st;
  char filler[600];
  test_path(filler, sizeof filler, "full/filler");
  int refused = 0, rc = 0;
  for (int k = 0; k < 200 && !refused; k++) {
    assert_int_equal(stat(filler, &st), 0);
    if (st.st_size < 16384) break;
    assert_int_equal(truncate(filler, st.st_size - 16384), 0);
    rc = sweep("full/x.h5", k > 0);
    refused = rc == 1 && strstr(test_output, "not enough free space to merge") != NULL;
    if (rc == 0) break;
    assert_int_equal(rc, 1);  // a point that did not fit: exit 1, --resume continues
  }
  printf("merge on a full disk -> exit %d\n%s", rc, test_output);
  assert_true(refused);
  for (int i = 0; i < 3; i++) {
    char part[64];
    snprintf(part, sizeof part, "full/x.h5.parts/g%05d.h5", i);
    assert_true(hostile_state(part).exists);
  }
  assert_true(hostile_absent("full/x.h5") && hostile_absent("full/x.h5.partial"));
  unlink(filler);
  assert_int_equal(sweep("full/x.h5", 1), 0);
  assert_int_equal(compare("ref.h5", "full/x.h5"), 0);
  hostile_tmpfs_umount("full");
}

// A full disk leaves no empty results file, no temporary sweep description
static void test_full_disk_leaves_nothing(void **state) {
  (void)state;
  if (hostile_tmpfs_mount("zero", 256) != 0) skip();
  hostile_filler("zero/filler", 1024);  // stops when the disk is full: 0 bytes free
  int rc = test_run((const char *[]){"run", "smd_explicit", "-o", "zero/x.h5", NULL});
  printf("run on a full disk -> exit %d: %s", rc, test_output);
  assert_int_equal(rc, 1);
  assert_true(hostile_says("No space left on device", NULL));
  assert_true(hostile_absent("zero/x.h5") && hostile_absent("zero/x.h5.partial"));
  rc = sweep("zero/y.h5", 0);
  printf("sweep on a full disk -> exit %d: %s", rc, test_output);
  assert_int_equal(rc, 1);
  assert_true(hostile_says("No space left on device", NULL));
  assert_true(hostile_absent("zero/y.h5.parts/sweep.txt.tmp") && hostile_absent("zero/y.h5"));
  rc = test_run((const char *[]){"export", "ref.h5", "-o", "zero/e.csv", NULL});
  assert_int_equal(rc, 1);
  assert_true(hostile_absent("zero/e.csv") && hostile_absent("zero/e.csv.partial"));
  hostile_tmpfs_umount("zero");
}

static int setup(void **state) {
  (void)state;
  return test_dir_create("hostile-sweep");
}

static int teardown(void **state) {
  (void)state;
  hostile_tmpfs_umount("full");  // if a failed assertion left it mounted
  hostile_tmpfs_umount("zero");
  return test_dir_remove();
}

int main(int argc, char **argv) {
  if (argc < 2 || hostile_init(argv[1]) != 0) {
    fprintf(stderr, "usage: test_hostile_sweep PATH-TO-STABCON\n");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resume_foreign_parts),
      cmocka_unit_test(test_dangling_part),
      cmocka_unit_test(test_merge_full_disk),
      cmocka_unit_test(test_full_disk_leaves_nothing),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
