# SPDX-License-Identifier: MIT
# Paper A Figs 1–2: x(t) of the spring–mass–damper, one panel per case. Panels whose |x| grows
# past 100 m (an unstable scheme) switch to a log scale of |x|.
load plotsdir.'/common.gp'
ncols = (ncases > 2) ? 2 : ncases
nrows = int(ceil(ncases / (ncols * 1.0)))
do for [fmt in "png svg"] {
  eval setterm(fmt, 560 * ncols, 380 * nrows)
  set multiplot layout nrows, ncols title stem.": spring-mass-damper x(t), one panel per case" font ',12' noenhanced
  do for [i = 1:ncases] {
    c = word(cases, i)
    stats csv(c) using (abs(column("x"))) nooutput
    set title pretty(c)
    set xlabel 't [s]'
    if (STATS_max > 100) {
      set logscale y
      set format y '10^{%T}'
      set ylabel '|x| [m]'
      plot csv(c) using "t":(abs(column("x"))) with lines lw 1.2 lc rgb '#c0392b' title 'unstable: |x|'
      unset logscale y
      set format y '% h'
    } else {
      set ylabel 'x [m]'
      plot csv(c) using "t":"x" with linespoints lw 1.2 pt 7 ps 0.3 lc rgb '#1f77b4' title 'x'
    }
  }
  unset multiplot
}
