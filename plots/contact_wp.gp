# SPDX-License-Identifier: MIT
# Work-precision on contact scenes: one panel per scene, error against CPU time, one curve per
# method over its accuracy knob (h, or tolerance) in cost order. Runs that failed, blew up or gave
# no measure are drawn at the panel's floor with their own marker; the reference's floor is the
# dotted grey line, the three accuracy levels of the matched-accuracy table thin dashed lines.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
nm = nmethods
# the scenes: the cases named <scene>_reference
scenes = ''
do for [i = 1:|$stabcon_cases|] {
  c = $stabcon_cases[i][2:]
  n = strlen(c)
  if (n > 10) { if (c[n - 9:n] eq '_reference') { scenes = scenes.' '.c[1:n - 10] } }
}
nsc = words(scenes)
cols = 3
rows = int(ceil((nsc + 1) / 3.0))
# the peers and the methods common.gp has no style for
extra_methods = 'mujoco-stiff mujoco-solref ode-step ode-quickstep simbody'
extra_colours = '#636363 #9e9ac8 #e6550d #fdae6b #31a354'
extra_points = '12 13 14 15 5'
xindex(m) = sum [k = 1:words(extra_methods)] (word(extra_methods, k) eq m ? k : 0)
mcol(m) = (mindex(m) > 0) ? mcolour(m) : (xindex(m) > 0 ? word(extra_colours, xindex(m)) : '#999999')
mpt(m) = (mindex(m) > 0) ? mpoint(m) : (xindex(m) > 0 ? int(word(extra_points, xindex(m))) : 1)
plotted(m) = m ne 'reference' && m ne 'matched'
okrun(sc, m) = strcol("scene") eq sc && strcol("method") eq m && strcol("status") eq "ok" && column("error") > 0
badrun(sc) = strcol("scene") eq sc && plotted(strcol("method")) && strcol("status") ne "ok" && column("cpu_time") >= 0
do for [fmt in "png svg"] {
  eval setterm(fmt, 1500, 460 * rows)
  set multiplot layout rows, cols title "Work-precision on contact scenes: error against CPU time per method (matched accuracy, SPEC §8)" font ',12'
  do for [p = 1:nsc] {
    sc = word(scenes, p)
    ref = sc.'_reference'
    floorv = real(stat(ref, 'floor'))
    t1 = real(stat(ref, 'target_1')); t2 = real(stat(ref, 'target_2')); t3 = real(stat(ref, 'target_3'))
    # stats filters by the current ranges: the previous panel's must not clip this one's
    set autoscale xy
    stats summary using ((strcol("scene") eq sc && strcol("status") eq "ok" && column("error") > 0) ? column("error") : NaN) nooutput
    emin = STATS_min; emax = STATS_max
    undefine STATS_*
    stats summary using ((strcol("scene") eq sc && column("cpu_time") > 0 && plotted(strcol("method"))) ? column("cpu_time") : NaN) nooutput
    cmin = STATS_min; cmax = STATS_max
    undefine STATS_*
    lo = (floorv > 0 && floorv < emin) ? floorv : emin
    lo = (t3 > 0 && t3 < lo) ? t3 : lo
    ybot = 10 ** (floor(log10(lo)) - 1)
    set logscale xy
    set format x '10^{%T}'
    set format y '10^{%T}'
    set xrange [cmin / 2 : cmax * 2]
    set yrange [ybot / 2 : 10 ** ceil(log10(2 * emax))]
    set xlabel 'CPU time [s]'
    set ylabel (strstrt(sc, 'hertz_damped') ? 'relative error (overlap, rebound speed)' : \
                strstrt(sc, 'hertz') ? 'relative error (overlap, contact time)' : \
                strstrt(sc, 'settled') ? 'relative error (mean height, energy dissipated)' : \
                strstrt(sc, 'incline') ? 'distance error [m]' : \
                strstrt(sc, 'rolling') ? 'e_q, RMS error of x [m]' : 'RMS position error [m]') noenhanced
    set title sc noenhanced
    unset key
    plot for [i = 1:nm] summary using (okrun(sc, method(i)) ? column("cpu_time") : NaN):(column("error")) \
           smooth unique with linespoints lw 1.3 pt mpt(method(i)) lc rgb mcol(method(i)) notitle, \
         summary using (badrun(sc) ? column("cpu_time") : NaN):(ybot) with points @floor_point notitle, \
         (floorv > 0 ? floorv : NaN) with lines dt 3 lw 1.5 lc rgb 'gray40' notitle, \
         t1 with lines dt 2 lw 0.6 lc rgb '#aaaaaa' notitle, \
         t2 with lines dt 2 lw 0.6 lc rgb '#aaaaaa' notitle, \
         t3 with lines dt 2 lw 0.6 lc rgb '#aaaaaa' notitle
  }
  # the legend panel
  unset logscale; unset border; unset tics; unset xlabel; unset ylabel; unset title
  set xrange [0 : 1]; set yrange [0 : 1]
  set key inside left center font ',8' maxrows 11 width -6 samplen 2 spacing 0.9 nobox
  plot for [i = 1:nm] (plotted(method(i)) ? NaN : 1 / 0) with linespoints lw 1.3 pt mpt(method(i)) \
         lc rgb mcol(method(i)) title (plotted(method(i)) ? method(i) : '') noenhanced, \
       NaN with points @floor_point title 'failed, blew up or no measure (at the floor)', \
       NaN with lines dt 3 lw 1.5 lc rgb 'gray40' title 'reference floor', \
       NaN with lines dt 2 lw 0.6 lc rgb '#aaaaaa' title 'accuracy levels'
  unset multiplot
  set border; set tics
}
