# SPDX-License-Identifier: MIT
# Paper A §6.5, Fig 10: a column of N Hertz spheres dropped in mid-air. Wall time to simulate T
# against N and the per-step cost with its fitted exponent (log–log), the statics of the settled
# stack (load per contact against the weight above it), and the largest speed over time in the
# statics run (the stack settles).
load plotsdir.'/common.gp'
num(s) = (s eq 'nan' || s eq '') ? NaN : real(s)
# the first case named settle_…
settle = ''
do for [i = 1:|$stabcon_cases|] { if (settle eq '' && strstrt($stabcon_cases[i], ':settle_') == 1) { settle = $stabcon_cases[i][2:] } }
expo = num(stat('scaling', 'fitted_exponent'))
expor = num(stat('scaling', 'fitted_exponent_rest'))
settle_n = num(stat(settle, 'N'))
nmin = num(stat('scaling', 'fit_n_min'))
T = num(stat('cost_N=1', 'T'))
do for [fmt in "png svg"] {
  eval setterm(fmt, 1300, 1000)
  set multiplot layout 2, 2 title sprintf("Stack of spheres (paper A §6.5, Fig 10): E = 10^{11} Pa, B = 1 N·s/m, h = 0.01 s, formulation %s", stat('cost_N=1', 'formulation')) font ',13'
  set logscale xy
  set format x '10^{%T}'
  set format y '10^{%T}'
  set xlabel 'number of spheres N'
  set title sprintf('wall time to simulate T = %g s', T)
  set ylabel 'wall time [s]'
  set key top left
  plot csv('scaling') using "N":"wall_time" with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'dropped in mid-air (single thread)', \
       csv('scaling') using "N":"wall_time_rest" with linespoints lw 2 pt 5 lc rgb '#e67e22' title 'from the resting stack'
  set title sprintf('cost per step (fitted exponents over N ≥ %g)', nmin)
  set ylabel 'µs per step'
  stats csv('scaling') using (column("N") >= nmin ? log(column("N")) : NaN):(log(column("us_per_step_rest"))) nooutput
  b0 = STATS_intercept
  s0 = STATS_slope
  plot csv('scaling') using "N":"us_per_step" with linespoints lw 2 pt 7 lc rgb '#1f77b4' title sprintf('dropped: exponent %.2f', expo), \
       csv('scaling') using "N":"us_per_step_rest" with linespoints lw 2 pt 5 lc rgb '#e67e22' title sprintf('resting: exponent %.2f', expor), \
       csv('scaling') using "N":(column("N") >= nmin ? exp(b0 + s0 * log(column("N"))) : NaN) with lines dt 2 lw 1.5 lc rgb 'black' title sprintf('fit ∝ N^{%.2f} (resting)', s0)
  unset logscale xy
  set format x '% h'
  set format y '% h'
  set title sprintf('stack of N = %g dropped in mid-air, at its end: load per contact', settle_n)
  set xlabel 'contact c (0 = ground)'
  set ylabel 'normal force [N]'
  set key top right
  plot csv2(settle, 'contact') using "contact":"lambda_n" with points pt 7 ps 1.3 lc rgb '#1f77b4' title 'λ_n (measured)', \
       csv2(settle, 'contact') using "contact":"statics" with lines lw 1.5 lc rgb 'black' title '(N − c) m g (statics)'
  set title sprintf('N = %g dropped in mid-air: largest speed of any sphere over time', settle_n)
  set xlabel 't [s]'
  set ylabel 'max speed [m/s]'
  set logscale y
  set format y '10^{%T}'
  set yrange [1e-16:1e2]
  plot csv(settle) using "t":(column("vmax") > 0 ? column("vmax") : NaN) with lines lw 1.8 lc rgb '#1f77b4' title 'max_i ‖v_i‖_∞'
  unset logscale y
  unset yrange
  unset multiplot
}
