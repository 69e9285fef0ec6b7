// SPDX-License-Identifier: MIT
// `stabcon verdicts`: the verdict table on paper A's claims from stored results files alone.
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_commands.h"
#include "xp/xp.h"
#include "xp/xp_claim.h"

int cli_readme_refresh(const char *readme, const char *dir) {
  xp_claim_set sets[XP_CLAIM_SETS];
  const size_t n = xp_claim_sets_all(sets);
  xp_error err = {.code = 0};
  const int rc = xp_claims_readme_update(readme, sets, n, dir, &err);
  if (rc != XP_OK) fprintf(stderr, "stabcon: %s\n", err.message);
  return rc;
}

int cli_cmd_verdicts(int argc, char **argv) {
  const char *dir = "results", *readme = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf(
          "usage: stabcon verdicts [--results DIR] [--readme FILE]\n\n"
          "Prints the verdict on each claim of papers A and B (the tables REPORT.md carries),\n"
          "computed from the results files in DIR (default results/) by each claim's rule;\n"
          "runs nothing.\n"
          "A missing file or case makes its verdicts \"%s\".\n"
          "--readme FILE rewrites FILE's generated results block with the table instead.\n",
          xp_verdict_name(XP_VERDICT_NOT_RUN));
      return XP_OK;
    } else if (strcmp(argv[i], "--results") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else if (strcmp(argv[i], "--readme") == 0 && i + 1 < argc) {
      readme = argv[++i];
    } else {
      fprintf(stderr,
              "stabcon verdicts: unexpected argument '%s'\n(see `stabcon verdicts --help`)\n",
              argv[i]);
      return XP_ERR_USAGE;
    }
  }
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "stabcon verdicts: --results '%s' is not a directory\n", dir);
    return XP_ERR_USAGE;
  }
  if (!readme) {
    xp_claim_set sets[XP_CLAIM_SETS];
    xp_claim_sets_write(stdout, sets, xp_claim_sets_all(sets), dir);
    return XP_OK;
  }
  return cli_readme_refresh(readme, dir);
}
