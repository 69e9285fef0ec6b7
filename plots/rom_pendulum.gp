# SPDX-License-Identifier: MIT
# Paper A Fig 6: pendulum against a k = 1e12 range-of-motion limit (theta >= 0), theta(t) for each
# step size on one axes with the perfectly elastic rigid-limit reference; then a zoom around the
# impact (every step) with theta and the limit torque lambda.
load plotsdir.'/common.gp'
base = stem

stem = base
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 560)
  set title 'range-of-motion pendulum, k = 10^{12} N m/rad, b = 0 (paper A Fig 6)'
  set xlabel 't [s]'
  set ylabel '{/Symbol q} [rad]'
  # the empty corner: before the impact the curves run from top left to the middle
  set key bottom left
  plot for [i = 1:ncases] csv(word(cases, i)) using "t":"theta" with lines lw 1.8 dt i \
       title pretty(word(cases, i)) noenhanced, \
       csv(word(cases, 1)) using "t":"theta_elastic" with lines lw 1.5 lc rgb 'black' dt 3 \
       title 'elastic rigid limit |{/Symbol a}(t)|'
}

stem = base.'_zoom'
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 800)
  set multiplot layout 2, 1 title 'impact zoom: every step (t = 0 at the exact impact time)' font ',12'
  set title ''
  set xlabel 't - t_{impact} [{/Symbol m}s]'
  set ylabel '{/Symbol q} [rad]'
  plot for [i = 1:ncases] csv2(word(cases, i), 't_zoom') using "dt_impact_zoom":"theta_zoom" \
       with linespoints lw 1.5 pt 7 ps 0.5 dt i title pretty(word(cases, i)) noenhanced, \
       csv2(word(cases, 1), 't_zoom') using "dt_impact_zoom":"theta_elastic_zoom" with lines \
       lw 1.5 lc rgb 'black' dt 3 title 'elastic rigid limit'
  set ylabel '{/Symbol l} [N m]'
  plot for [i = 1:ncases] csv2(word(cases, i), 't_zoom') using "dt_impact_zoom":"lambda_zoom" \
       with linespoints lw 1.5 pt 7 ps 0.5 dt i title pretty(word(cases, i)) noenhanced
  unset multiplot
}
stem = base
