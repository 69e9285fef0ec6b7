// SPDX-License-Identifier: MIT
// Test helper: the class, size and shape of one dataset of an HDF5 file, read with the library
// directly (independent of stabcon's readers), and optionally COUNT of its values from START
// (flattened, row-major).
// usage: h5probe FILE DATASET [START COUNT]
// prints "float 8 D0 D1 …" (or "integer …", "other …"), then one value a line; exit 1 if absent
//        h5probe --edit FILE DATASET delete|shrink|float32
// damages a copy for the refusal tests: removes the dataset, or writes it again as one 1 × 1 × 3
// row of doubles, or with its shape as 4-byte floats
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int edit(const char *path, const char *name, const char *how) {
  hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0 || H5Lexists(file, name, H5P_DEFAULT) <= 0) return 1;
  hid_t ds = H5Dopen2(file, name, H5P_DEFAULT), space = H5Dget_space(ds);
  hsize_t dims[H5S_MAX_RANK] = {1, 1, 3};
  int rank = H5Sget_simple_extent_dims(space, dims, NULL);
  H5Sclose(space), H5Dclose(ds);
  H5Ldelete(file, name, H5P_DEFAULT);
  int rc = 0;
  if (strcmp(how, "delete") != 0) {
    const int shrink = strcmp(how, "shrink") == 0;
    if (shrink) rank = 3, dims[0] = dims[1] = 1, dims[2] = 3;
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(file, name, shrink ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT, sp, H5P_DEFAULT,
                         H5P_DEFAULT, H5P_DEFAULT);
    rc = d < 0;
    if (d >= 0) H5Dclose(d);
    H5Sclose(sp);
  }
  H5Fclose(file);
  return rc;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "--edit") == 0) {
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return edit(argv[2], argv[3], argv[4]);
  }
  if (argc != 3 && argc != 5) {
    fprintf(stderr, "usage: h5probe FILE DATASET [START COUNT]\n");
    return 2;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return fprintf(stderr, "cannot open %s\n", argv[1]), 1;
  if (H5Lexists(file, argv[2], H5P_DEFAULT) <= 0)
    return fprintf(stderr, "no dataset %s\n", argv[2]), H5Fclose(file), 1;
  hid_t ds = H5Dopen2(file, argv[2], H5P_DEFAULT);
  if (ds < 0) return fprintf(stderr, "not a dataset: %s\n", argv[2]), H5Fclose(file), 1;
  hid_t type = H5Dget_type(ds), space = H5Dget_space(ds);
  const H5T_class_t cls = H5Tget_class(type);
  printf("%s %zu",
         cls == H5T_FLOAT     ? "float"
         : cls == H5T_INTEGER ? "integer"
                              : "other",
         H5Tget_size(type));
  hsize_t dims[H5S_MAX_RANK];
  const int rank = H5Sget_simple_extent_dims(space, dims, NULL);
  for (int k = 0; k < rank; k++) printf(" %llu", (unsigned long long)dims[k]);
  putchar('\n');
  int rc = 0;
  if (argc == 5) {
    const hssize_t n = H5Sget_simple_extent_npoints(space);
    const long start = atol(argv[3]), count = atol(argv[4]);
    double *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    if (!x || start < 0 || count < 0 || start + count > n ||
        H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) < 0)
      rc = 1;
    for (long i = start; !rc && i < start + count; i++) printf("%.17g\n", x[i]);
    free(x);
  }
  H5Sclose(space), H5Tclose(type), H5Dclose(ds), H5Fclose(file);
  return rc;
}
