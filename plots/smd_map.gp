# SPDX-License-Identifier: MIT
# Stability map over (h, k) at fixed b: colour = L = log10 of the growth factor per step observed
# in the simulated trajectory (red grows, blue decays), on a symmetric log scale so that both
# the barely unstable (L ~ 1e-5) and the violently unstable (L ~ 1) show; white where |L| is
# below what the run can resolve; black line = the theoretical boundary ρ(A) = 1 from the Jury
# conditions (none for implicit Euler).
load plotsdir.'/common.gp'
set palette defined (-1 '#2166ac', -0.001 '#d1e5f0', 0 '#f7f7f7', 0.001 '#fddbc7', 1 '#b2182b')
set cbrange [-1:1]
set cbtics ("-1" -1, "-10^{-3}" -0.4, "0" 0, "10^{-3}" 0.4, "1" 1)
# symmetric log: |L| in [1e-5, 1] ↦ [0, 1], sign kept
symlog(v) = (v == 0 || abs(v) < 1e-5) ? 0 : sgn(v) * (abs(v) > 1 ? 1 : (log10(abs(v)) + 5) / 5)
stats datadir.'/summary.csv' using "b" nooutput
bval = STATS_min
stats datadir.'/summary.csv' using "m" nooutput
mval = STATS_min
do for [fmt in "png svg"] {
  eval setterm(fmt, 1500, 520)
  set multiplot layout 1, ncases title sprintf("Observed growth per step of the Euler schemes on m x'' + b x' + k x = 0 (b = %g N s/m, m = %g kg); white: |L| unresolved", bval, mval) font ',12' noenhanced margins 0.05, 0.92, 0.12, 0.86 spacing 0.11
  do for [i = 1:ncases] {
    c = word(cases, i)
    set title sprintf('%s Euler', c)
    if (i == ncases) { set cblabel 'L = log_{10} observed growth per step (symlog)' } else { unset cblabel }
    set xlabel 'log_{10} h [s]'
    set ylabel 'log_{10} k [N/m]'
    stats csv(c) using (log10(column("h"))):(log10(column("k"))) nooutput
    set xrange [STATS_min_x:STATS_max_x]
    set yrange [STATS_min_y:STATS_max_y]
    plot csv(c) using (log10(column("h"))):(log10(column("k"))):(symlog(column("log10_rho_resolved"))) \
           with image notitle, \
         csv2(c, 'boundary_k') using (log10(column("boundary_h"))):(log10(column("boundary_k"))) \
           with lines lw 2.5 lc rgb 'black' title 'theory: ρ(A) = 1'
  }
  unset multiplot
}
