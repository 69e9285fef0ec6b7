# SPDX-License-Identifier: MIT
# Restitution of the Hertz sphere drop against impact speed per dissipation law: measured e at
# each step size (points), the undamped run's e₀ (the step's own loss), and each law's
# small-damping closed form (dashed, hertz.h).
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
laws = 'none paper hunt-crossley sap'
titles = "'no damping (loss of the step itself)' 'paper A: constant B' 'Hunt-Crossley (alpha)' 'SAP (tau_d)'"
stats summary using (column("h")) nooutput
hmin = STATS_min
hmax = STATS_max
undefine STATS_*
stats summary using (column("v0")) nooutput
vmin = STATS_min
vmax = STATS_max
undefine STATS_*
do for [i = 1:4] {
  do for [k = 1:2] {
    eval sprintf('set print $r_%d_%d', i, k)
    print 'nan nan nan'
    unset print
    eval sprintf('set table $r_%d_%d append', i, k)
    plot summary using (column("v0")):(column("restitution")):(column("restitution_small_damping")) \
      with table if (strcol("dissipation") eq word(laws, i) && \
                     column("h") == (k == 1 ? hmin : hmax))
    unset table
  }
}
set datafile separator whitespace
set datafile nocolumnheaders
blk(i, k) = sprintf('$r_%d_%d', i, k)
set logscale x
set xrange [vmin / 1.3 : vmax * 1.3]
set xlabel 'impact speed v_0 [m/s]'
set ylabel 'coefficient of restitution e = v_{out}/v_{in}'
set key bottom left font ',9'
do for [fmt in "png svg"] {
  eval setterm(fmt, 1000, 620)
  set title sprintf("Hertz sphere dropped on the ground (E* = 1e7 Pa, r = 0.1 m, 1 kg), paper A's step (relaxed)\nfilled: h = %g s, open: h = %g s; dashed: each law's small-damping closed form", hmin, hmax) font ',10'
  plot for [i = 1:4] blk(i, 1) using 1:2 with linespoints lw 1.5 pt 7 lc i title word(titles, i), \
       for [i = 1:4] blk(i, 2) using 1:2 with points pt 6 lc i notitle, \
       for [i = 2:4] blk(i, 1) using 1:3 with lines dt 2 lw 1.2 lc i notitle
}
