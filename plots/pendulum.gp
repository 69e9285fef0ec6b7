# SPDX-License-Identifier: MIT
# Paper A Fig 4: deviation |phi|(t) of the pendulum joint (k = 1e15, b = 1), one panel per step
# size (the paper's two panels have different scales); then the energy, the swing angle against
# the exact elliptic solution, and the IDA rigid reference against the elliptic solution.
load plotsdir.'/common.gp'
base = stem
# simulation cases: every case but "reference" and the long-horizon pair ("long_…")
sims = ''
longs = ''
do for [i = 1:ncases] { c = word(cases, i); if (c ne 'reference') { if (strstrt(c, 'long_') == 1) { longs = longs.' '.c } else { sims = sims.' '.c } } }
nsims = words(sims)
has_ref = (strstrt(cases, 'reference') > 0)
ncols = (nsims > 2) ? 2 : (nsims > 0 ? nsims : 1)
nrows = int(ceil(nsims / (ncols * 1.0)))

# Fig 4: |phi|(t), one panel per case
stem = base
do for [fmt in "png svg"] {
  eval setterm(fmt, 520 * ncols, 380 * nrows)
  set multiplot layout nrows, ncols title 'pendulum joint deviation |{/Symbol f}|(t) (paper A Fig 4)' font ',12'
  do for [i = 1:nsims] {
    c = word(sims, i)
    set title pretty(c) noenhanced
    set xlabel 't [s]'
    set ylabel '|{/Symbol f}| [m]'
    set format y '%.2g'  # (%.1te%T drew a zero tick as "0.0e0")
    unset key
    plot csv(c) using "t":"phi_abs" with linespoints lw 1.5 pt 7 ps 0.4 lc rgb '#1f77b4' notitle
  }
  unset multiplot
  set format y '% h'
  set key
}

# energy E(t) - E(0) of every case on one axes
stem = base.'_energy'
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 560)
  set title 'pendulum mechanical energy E = T + V (E(0) = 0 at the horizontal release)'
  set xlabel 't [s]'
  set ylabel 'E(t) [J]'
  set key top left  # the energy of the large step climbs to the top right
  plot for [i = 1:nsims] csv(word(sims, i)) using "t":"energy" with lines lw 1.5 dt i \
       title pretty(word(sims, i)) noenhanced
}

# swing angle against the exact solution, and the position error
stem = base.'_angle'
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 800)
  set multiplot layout 2, 1 title 'pendulum swing angle against the exact (elliptic) solution' font ',12'
  set title ''
  set xlabel 't [s]'
  set ylabel '{/Symbol a} [rad] (0 = hanging)'
  set key bottom left  # the swing runs from top left to bottom right
  plot for [i = 1:nsims] csv(word(sims, i)) using "t":"alpha" with linespoints lw 1.2 pt 7 ps 0.3 dt i \
       title pretty(word(sims, i)) noenhanced, \
       csv(word(sims, nsims)) using "t":"alpha_exact" with lines lw 2 lc rgb 'black' dt 2 title 'exact (elliptic)'
  set logscale y
  set format y '10^{%T}'
  set ylabel 'position error |x - x_{exact}| [m]'
  set key bottom right  # the errors start at round-off and rise within the first steps
  plot for [i = 1:nsims] csv(word(sims, i)) using "t":(column("pos_error") > 0 ? column("pos_error") : NaN) \
       with lines lw 1.5 dt i title pretty(word(sims, i)) noenhanced
  unset logscale y
  set format y '% h'
  unset multiplot
  set key top right
}

# the reference itself: IDA (rigid joint, GGL index-2) against the elliptic solution
if (has_ref) {
  stem = base.'_reference'
  do for [fmt in "png svg"] {
    eval setterm(fmt, 900, 560)
    set title 'reference check: IDA rigid-joint solution against the exact elliptic solution'
    set xlabel 't [s]'
    set ylabel 'position difference [m]'
    set logscale y
    set format y '10^{%T}'
    plot csv('reference') using "t":(column("ida_vs_exact") > 0 ? column("ida_vs_exact") : NaN) \
         with linespoints lw 1.5 pt 7 ps 0.4 title '|x_{IDA} - x_{exact}|', \
         csv('reference') using "t":(column("phi_abs") > 0 ? column("phi_abs") : NaN) \
         with lines lw 1.5 dt 2 title 'IDA |{/Symbol f}|'
    unset logscale y
    set format y '% h'
  }
}
stem = base

# long horizon (b = 0): paper A's velocity target (h·Ġv0, eq. 50) against the variant without it
if (words(longs) > 0) {
  stem = base.'_long'
  do for [fmt in "png svg"] {
    eval setterm(fmt, 900, 560)
    set title "pendulum energy over a long horizon, b = 0: paper A's target vs gdot_target = 0" noenhanced
    set xlabel 't [s]'
    set ylabel 'E(t) [J]  (E(0) = 0; off-scale values: divergence)'
    set yrange [-12:30]
    plot for [i = 1:words(longs)] csv(word(longs, i)) using "t":"energy" with lines lw 2 dt i \
         title pretty(word(longs, i)) noenhanced
    set autoscale y
  }
}
