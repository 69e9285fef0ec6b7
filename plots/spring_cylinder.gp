# SPDX-License-Identifier: MIT
# Paper B §VI.B, the spring–cylinder: energy of the horizontal oscillator ½mẋ² + ½Iω² + ½k_s x²
# against time for each θ-scheme (and paper A's step) with μ = 1 (rolling) and μ = 0 (sliding),
# the midpoint rule's energy deviation and the rolling slip against paper B's estimate σμgδt,
# and the position error e_q against δt (log–log) with the least-squares orders in the legend
# (fitted only inside each scheme's window, drawn with filled markers).
load plotsdir.'/common.gp'
# a stored statistic or parameter of case c from summary.csv ("nan" if absent)
ok(c) = has(c) && stat(c, 'status') eq 'ok'
num(s) = (s eq 'nan' || s eq '') ? NaN : real(s)
schemes = "explicit symplectic implicit midpoint"
# the θ schemes in the method styles of every figure (common.gp); paper A's step grey, dashed
colour(i) = (i == 5) ? '#555555' : mcolour('theta-'.word(schemes, i))
dash(i) = (i == 5) ? 2 : 1
label(i) = (i == 5) ? "paper A" : word(schemes, i).((i == 4) ? " rule" : " Euler")
ecase(mu, i) = (i == 5) ? 'paperA_energy_mu='.mu : 'energy_mu='.mu.'_'.word(schemes, i)
ocase(mu, i) = (i == 5) ? 'paperA_order_mu='.mu : 'order_mu='.mu.'_'.word(schemes, i)
dt = num(stat('energy_mu=1_midpoint', 'dt'))
sigma_mu_g = num(stat('energy_mu=1_midpoint', 'g')) * num(stat('energy_mu=1_midpoint', 'mu'))
# paper B's σ is a run parameter; the stored slip ratio gives it back: σμgδt = max slip / ratio
ms = num(stat('energy_mu=1_midpoint', 'max_slip'))
ratio = num(stat('energy_mu=1_midpoint', 'slip_ratio_sigma_mu_g_dt'))
slip_estimate = ms / ratio
do for [fmt in "png svg"] {
  eval setterm(fmt, 1300, 1250)
  set multiplot layout 3, 2 title sprintf("Spring–cylinder (paper B §VI.B): θ-method family, δt = %g s for the energy panels", dt) font ',13'
  # energy E/E0 for μ = 1 and μ = 0
  do for [m = 1:2] {
    mu = (m == 1) ? '1' : '0'
    set title (m == 1) ? 'μ = 1: rolling (m_{eff} = 1.5 m)' : 'μ = 0: sliding (m_{eff} = m)'
    set xlabel 't [s]'
    set ylabel 'E / E_0  (E = ½mẋ² + ½Iω² + ½k_s x²)'
    set yrange [0:1.6]
    set key top right font ',9'
    plot for [i = 1:5] (ok(ecase(mu, i)) ? csv(ecase(mu, i)) : '/dev/null') using "t":(1 + column("energy_rel")) \
           with lines lw (i == 4 ? 2.5 : 1.5) dt dash(i) lc rgb colour(i) \
           title (ok(ecase(mu, i)) ? sprintf("%s: peak-to-peak %.3g %%", label(i), 100 * num(stat(ecase(mu, i), 'energy_peak_to_peak_rel'))) \
                  : ''), \
         keyentry with lines lw 1.5 dt 2 lc rgb colour(5) \
           title (has(ecase(mu, 5)) && !ok(ecase(mu, 5)) ? sprintf("paper A: %s (see stabcon info)", stat(ecase(mu, 5), 'status')) : '')
    unset yrange
  }
  # midpoint energy deviation in percent, and the rolling slip
  set title 'midpoint rule: energy deviation (E − E_0)/E_0'
  set xlabel 't [s]'
  set ylabel '(E − E_0)/E_0 [%]'
  set key bottom left
  plot csv(ecase('1', 4)) using "t":(100 * column("energy_rel")) with lines lw 2 lc rgb colour(4) title 'μ = 1 (rolling)', \
       csv(ecase('0', 4)) using "t":(100 * column("energy_rel")) with lines lw 2 dt 2 lc rgb '#e67e22' title 'μ = 0 (sliding)'
  set title 'μ = 1: slip velocity of the contact point'
  set ylabel '|ẋ − Rω| [m/s]'
  set logscale y
  set format y '10^{%T}'
  # the curves reach 1e4 m/s: the decades above are left free for the key
  set key top left opaque font ',9'
  set yrange [1e-8:1e9]
  plot for [i = 1:5] (ok(ecase('1', i)) ? csv(ecase('1', i)) : '/dev/null') using "t":(abs(column("slip"))) \
         with lines lw 1.5 dt dash(i) lc rgb colour(i) title label(i), \
       slip_estimate with lines lw 2 dt 3 lc rgb 'black' title sprintf("paper B's estimate σμgδt = %.3g m/s", slip_estimate)
  unset logscale y
  unset yrange
  set format y '% h'
  # convergence of e_q
  do for [m = 1:2] {
    mu = (m == 1) ? '1' : '0'
    set title sprintf('μ = %s: e_q = ((1/T)∫(x − x_{exact})² dt)^{½}, T = 5 s', mu)
    set xlabel 'δt [s]'
    set ylabel 'e_q [m]'
    set logscale xy
    set format x '10^{%T}'
    set format y '10^{%T}'
    set yrange [1e-8:1]
    set key bottom right font ',9'  # the lower right is empty: small errors sit at small δt
    plot for [i = 1:5] (ok(ocase(mu, i)) ? csv(ocase(mu, i)) : '/dev/null') using "dt":"e_q" \
           with linespoints lw 1.2 dt dash(i) pt 6 ps 0.8 lc rgb colour(i) \
           title (ok(ocase(mu, i)) ? sprintf("%s: fitted order %.2f", label(i), num(stat(ocase(mu, i), 'fitted_order'))) \
                  : ''), \
         for [i = 1:5] (ok(ocase(mu, i)) ? csv(ocase(mu, i)) : '/dev/null') \
           using "dt":((column("dt") >= 0.999 * num(stat(ocase(mu, i), 'fit_dt_min')) && column("dt") <= 1.001 * num(stat(ocase(mu, i), 'fit_dt_max'))) ? column("e_q") : NaN) \
           with points pt 7 ps 0.9 lc rgb colour(i) notitle
    unset logscale xy
    unset yrange
    set format x '% h'
    set format y '% h'
  }
  unset multiplot
}
