# SPDX-License-Identifier: MIT
# The evidence behind the Fig 6 verdict (paper A §5.4): energy kept through the k = 1e12 impact
# of the range-of-motion pendulum against the step size near 1e-5 s — the step grid's phase
# relative to the impact, not h, sets it.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
set print $fig6
print 'nan nan'
unset print
set table $fig6 append
plot summary using (column("h")):(column("energy_ratio_T")) with table \
  if (strcol("case") eq sprintf("fig6_h=%s", substr(strcol("case"), 8, 40)) && column("energy_ratio_T") >= 0)
unset table
set datafile separator whitespace
set datafile nocolumnheaders
set xlabel 'step size h [µs]'
set ylabel 'energy kept E(T)/E(0)'
# headroom above the elastic line for the legend
set yrange [0:1.3]
set key top left
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 560)
  set title 'Fig 6 claim: range-of-motion pendulum, k = 1e12 N·m/rad, b = 0, paper A step (relaxed)'
  plot $fig6 using (1e6 * $1):2 with linespoints lw 1.5 pt 7 lc rgb mcolour('paperA-relaxed') title 'energy kept through the impact', \
       1 with lines dt 2 lc rgb 'gray' title 'elastic (b = 0)'
}
