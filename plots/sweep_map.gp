# SPDX-License-Identifier: MIT
# Stability map from a sweep over h and k (stabcon sweep … --set h=… --set k=…): colour = log10
# of the growth factor per step observed in each simulated case (symmetric log scale; red grows,
# blue decays), one panel per method; black points = the theoretical boundary h*(k) each case
# stores (statistic stability_boundary_h), where one exists.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
# one panel per method when the method was swept
ng = (gcol eq '') ? 1 : nmethods
group(i) = (gcol eq '') ? 'all' : method(i)
ingroup(g) = (gcol eq '') ? 1 : (strcol(gcol) eq g)
symlog(v) = (v != v) ? NaN : (abs(v) < 1e-5 ? 0 : sgn(v) * (abs(v) > 1 ? 1 : (log10(abs(v)) + 5) / 5))
set palette defined (-1 '#2166ac', -0.001 '#d1e5f0', 0 '#f7f7f7', 0.001 '#fddbc7', 1 '#b2182b')
set cbrange [-1:1]
set cbtics ("-1" -1, "-10^{-3}" -0.4, "0" 0, "10^{-3}" 0.4, "1" 1)
stats summary using (log10(column("h"))) nooutput
set xrange [STATS_min:STATS_max]
set xlabel 'log_{10} h [s]'
set ylabel 'log_{10} k [N/m]'
do for [fmt in "png svg"] {
  eval setterm(fmt, 520 * ng, 480)
  set multiplot layout 1, ng title sprintf('%s: observed growth per step over (h, k)', stem) noenhanced
  do for [i = 1:ng] {
    g = group(i)
    set title g noenhanced
    set cblabel (i == ng ? 'log_{10} growth per step (symlog)' : '')
    plot summary using (ingroup(g) ? log10(column("h")) : NaN):(log10(column("k"))):(symlog(log10(column("growth_observed")))) \
           with points pt 5 ps 1.3 palette notitle, \
         summary using (ingroup(g) ? log10(column("stability_boundary_h")) : NaN):(log10(column("k"))) \
           with points pt 7 ps 0.5 lc rgb 'black' title 'theory: ρ(A) = 1'
  }
  unset multiplot
}
