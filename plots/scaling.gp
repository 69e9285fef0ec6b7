# SPDX-License-Identifier: MIT
# Cost per step against problem size: one panel per scenario (foundation: elements;
# stack: spheres), one curve per method (minimum wall time over the repeats; the median as a
# thin line), with the least-squares exponent p of cost ∝ size^p in the legend. Each curve's
# points go to a datablock first (the fit and the line read it).
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
# the distinct scenarios and methods in the order the cases ran, from the cases' parameters
# (common.gp's stat: data, never a command)
scen = ''; methods = ''; pairs = ' '
do for [i = 1:ncases] {
  c = word(cases, i); sv = stat(c, 'scenario'); mv = stat(c, 'method')
  if (sv ne '' && strstrt(' '.scen.' ', ' '.sv.' ') == 0) { scen = scen.' '.sv }
  if (mv ne '' && strstrt(' '.methods.' ', ' '.mv.' ') == 0) { methods = methods.' '.mv }
  if (sv ne '' && mv ne '' && strstrt(pairs, ' '.sv.'|'.mv.' ') == 0) { pairs = pairs.sv.'|'.mv.' ' }
}
# whether method j ran on scenario i (a peer runs only where the scenario describes its scene)
present(i, j) = strstrt(pairs, ' '.word(scen, i).'|'.word(methods, j).' ') > 0
ns = words(scen)
nm = words(methods)
sel(s, m) = strcol("scenario") eq s && strcol("method") eq m
do for [i = 1:ns] {
  do for [j = 1:nm] {
    s = word(scen, i); m = word(methods, j)
    eval sprintf('set print $d_%d_%d', i, j)  # a block to append to (one missing point)
    print 'nan nan nan'
    unset print
    eval sprintf('set table $d_%d_%d append', i, j)
    plot summary using (column("size")):(column("wall_step_min")):(column("wall_step_median")) with table \
      if (sel(s, m) && column("wall_step_min") > 0)
    unset table
  }
}
set datafile separator whitespace
set datafile nocolumnheaders
blk(i, j) = sprintf('$d_%d_%d', i, j)
array p[ns * nm]
do for [i = 1:ns] {
  do for [j = 1:nm] {
    k = (i - 1) * nm + j
    p[k] = NaN
    if (present(i, j)) {
      stats blk(i, j) using (log10($1)):(log10($2)) nooutput
      if (exists("STATS_records") && STATS_records >= 3 && STATS_stddev_x > 0) { p[k] = STATS_slope }
      undefine STATS_*
    }
  }
}
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set key outside right top vertical font ',8'
do for [fmt in "png svg"] {
  eval setterm(fmt, 1400, 480 * ns)
  set multiplot layout ns, 1 title 'Cost per step against problem size (minimum over repeats; thin line: median)'
  do for [i = 1:ns] {
    s = word(scen, i)
    set title (s eq 'foundation' ? 'cube on elastic foundation (E = 1e7 Pa, 5 N)' : 'resting sphere stack (E = 1e11 Pa, μ = 0.5)')
    set xlabel (s eq 'foundation' ? 'foundation elements' : 'spheres N')
    set ylabel 'wall time per step [s] (ODE: per 0.01 s output interval)'
    js = ''
    do for [j = 1:nm] { if (present(i, j)) { js = js.' '.j } }
    # the x axis spans this scenario's sizes
    xl = NaN; xh = NaN
    do for [jj in js] {
      stats blk(i, jj + 0) using 1 nooutput
      xl = (xl == xl && xl < STATS_min) ? xl : STATS_min
      xh = (xh == xh && xh > STATS_max) ? xh : STATS_max
      undefine STATS_*
    }
    set xrange [xl / 1.3 : xh * 1.3]
    plot for [jj in js] blk(i, jj + 0) using 1:2 with linespoints lw 1.5 \
           pt mpoint(word(methods, jj + 0)) dt mdash(word(methods, jj + 0)) \
           lc rgb mcolour(word(methods, jj + 0)) title sprintf('%s (p = %.2f)', word(methods, jj + 0), \
           p[(i - 1) * nm + jj]) noenhanced, \
         for [jj in js] blk(i, jj + 0) using 1:3 with lines lw 0.5 lc rgb mcolour(word(methods, jj + 0)) notitle
  }
  unset multiplot
}
