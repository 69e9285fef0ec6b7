# SPDX-License-Identifier: MIT
# Work–precision diagram: error at T against median wall time, one curve per method (the
# constraint solver over a sweep of h, the ODE integrators over a sweep of tolerances) —
# methods compared at matched accuracy, not at matched settings. Points at the reference's
# error floor are drawn hollow.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
nm = nmethods
stats summary using "floor_abs" nooutput
floorv = STATS_min
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set key bottom left
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 620)
  set title 'Work-precision: cube on elastic foundation (error of q at T vs reference)' noenhanced
  set xlabel 'median wall time [s]'
  set ylabel 'error ‖q - q_{ref}‖ [m, 1]'
  plot for [i = 1:nm] summary using (strcol("method") eq method(i) && strcol("status") eq "ok" ? column("wall_time") : NaN):(column("error_abs")) \
         with linespoints lw 1.5 pt 7 title method(i) noenhanced, \
       floorv with lines dt 3 lc rgb 'gray' title 'reference floor'
}
