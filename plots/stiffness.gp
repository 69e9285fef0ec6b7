# SPDX-License-Identifier: MIT
# Cost across stiffness regimes: one row per scenario; columns: wall time against the
# contact stiffness at paper A's settings (a), at matched accuracy (b), and the error at T of the
# paper-setting runs. One curve per method, in the method's style (common.gp); runs without a
# value on the log axis (over the budget, target not reached, error zero) are drawn at the
# panel's axis floor with a cross in the method's colour. Each curve's points go to a datablock
# first so that the rows of other cases do not break its line.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
# the distinct scenarios (of cases with a protocol) and methods (of the paper-protocol cases), in
# the order the cases ran, from the cases' parameters (common.gp's stat: data, never a command)
# One pass over the summary's rows (a stat() lookup per case scans every statistic: with ~900
# cases that took minutes).
scen = ''; methods = ''
addw(list, w) = (w ne '' && strstrt(' '.list.' ', ' '.w.' ') == 0) ? list.' '.w : list
stats summary using (pv = strcol("protocol"), sv = strcol("scenario"), mv = strcol("method"), \
                     scen = (pv ne '' ? addw(scen, sv) : scen), \
                     methods = (pv eq 'paper' ? addw(methods, mv) : methods), 0) nooutput
ns = words(scen)
nm = words(methods)
# the x axis spans the stiffnesses run
stats summary using (column("E") > 0 ? column("E") : NaN) nooutput
Elo = STATS_min; Ehi = STATS_max
undefine STATS_*
okst(s) = (s eq "ok" || s eq "degraded")
sel(sc, m, p) = strcol("scenario") eq sc && strcol("method") eq m && strcol("protocol") eq p && okst(strcol("status"))
# panel k: protocol and statistic
pp(k) = (k == 2) ? "matched" : "paper"
yy(k) = (k == 1) ? "wall_min" : (k == 2) ? "wall_time" : "error_abs"
do for [i = 1:ns] {
  do for [j = 1:nm] {
    do for [k = 1:3] {
      s = word(scen, i); m = word(methods, j); p = pp(k); y = yy(k)
      eval sprintf('set print $d_%d_%d_%d', i, j, k)  # a block to append to (one missing point)
      print 'nan nan'
      unset print
      eval sprintf('set table $d_%d_%d_%d append', i, j, k)
      plot summary using (column("E")):(column(y)) with table if (sel(s, m, p) && column(y) > 0)
      unset table
      eval sprintf('set print $x_%d_%d_%d', i, j, k)
      print 'nan nan'
      unset print
      eval sprintf('set table $x_%d_%d_%d append', i, j, k)
      plot summary using (column("E")):(1) with table \
        if (strcol("scenario") eq s && strcol("method") eq m && strcol("protocol") eq p && \
            !(okst(strcol("status")) && column(y) > 0))
      unset table
    }
  }
}
set datafile separator whitespace
set datafile nocolumnheaders
set logscale xy
set xrange [Elo / 2 : Ehi * 2]
set format x '10^{%T}'
set format y '10^{%T}'
set xlabel 'contact stiffness E [Pa]'
blk(i, j, k) = sprintf('$d_%d_%d_%d', i, j, k)
xblk(i, j, k) = sprintf('$x_%d_%d_%d', i, j, k)
# each panel's y range from its values; the floor a decade under the smallest
array ylo[ns * 3]
array yhi[ns * 3]
array nx[ns * 3]
do for [i = 1:ns] {
  do for [k = 1:3] {
    lo = NaN; hi = NaN; cnt = 0
    do for [j = 1:nm] {
      eval sprintf('npts = |$d_%d_%d_%d|', i, j, k)
      if (npts > 1) {
        stats blk(i, j, k) using 2 nooutput
        lo = (lo == lo && lo < STATS_min) ? lo : STATS_min
        hi = (hi == hi && hi > STATS_max) ? hi : STATS_max
        undefine STATS_*
      }
      eval sprintf('cnt = cnt + |$x_%d_%d_%d| - 1', i, j, k)
    }
    ylo[(i - 1) * 3 + k] = (lo == lo) ? 10 ** (floor(log10(lo)) - 1) : 1e-3
    yhi[(i - 1) * 3 + k] = (hi == hi) ? 10 ** ceil(log10(hi)) : 1
    nx[(i - 1) * 3 + k] = cnt
  }
}
# the methods with points in panel (i, k): empty curves are left out
array shown[ns * 3]
do for [i = 1:ns] {
  do for [k = 1:3] {
    list = ''
    do for [j = 1:nm] {
      eval sprintf('npts = |$d_%d_%d_%d|', i, j, k)
      if (npts > 1) { list = list.sprintf(' %d', j) }
    }
    shown[(i - 1) * 3 + k] = list
  }
}
do for [fmt in "png svg"] {
  eval setterm(fmt, 1500, 380 * ns + 40)
  # fixed margins: every panel the same width, the legends in the right margin
  set multiplot layout ns, 3 title 'Cost and error against contact stiffness (error = ‖q(T) − q_{ref}(T)‖ at T)' \
    margins 0.05, 0.84, 0.07, 0.93 spacing 0.06, 0.1
  do for [i = 1:ns] {
    s = word(scen, i)
    do for [k = 1:3] {
      L = shown[(i - 1) * 3 + k]
      X = ''  # the methods with runs at the axis floor in this panel
      do for [j = 1:nm] {
        eval sprintf('nxp = |$x_%d_%d_%d|', i, j, k)
        if (nxp > 1) { X = X.sprintf(' %d', j) }
      }
      if (k < 3) { unset key } else { set key outside right top vertical font ',8' box }
      set ylabel (k < 3 ? 'wall time [s]' : error_label)
      pk = (i - 1) * 3 + k
      yf = ylo[pk]
      set yrange [yf / 2 : yhi[pk]]
      set title (k == 1 ? sprintf('%s: (a) paper settings (h = 0.01 s; rtol 1e-3)', s) : \
                 k == 2 ? sprintf('%s: (b) matched accuracy', s) : \
                          sprintf('%s: error at T, paper settings', s)) noenhanced
      # the methods' curves, then (where any) the runs without a value at the axis floor
      curves = 'for [jj in L] blk(i, int(jj), k) using 1:2 with linespoints lw 1.5 ' . \
        'pt mpoint(word(methods, int(jj))) dt mdash(word(methods, int(jj))) ' . \
        'lc rgb mcolour(word(methods, int(jj))) title word(methods, int(jj)) noenhanced'
      floors = 'for [jj in X] xblk(i, int(jj), k) using 1:(yf) with points pt 2 ps 1.4 ' . \
        'lc rgb mcolour(word(methods, int(jj))) notitle'
      legend = "NaN with points pt 2 ps 1.4 lc rgb 'gray30' title 'no value (at axis floor)'"
      rowx = nx[pk - k + 1] + nx[pk - k + 2] + nx[pk - k + 3]
      if (words(L) > 0 && words(X) > 0) {
        eval 'plot '.curves.', '.floors.', '.legend
      } else { if (words(L) > 0) {
        eval 'plot '.curves.(rowx > 0 ? ', '.legend : '')
      } else { if (words(X) > 0) {
        eval 'plot '.floors.', '.legend
      } else {
        set label 99 'no run met its settings' at graph 0.5, 0.5 center
        plot NaN notitle
        unset label 99
      } } }
    }
  }
  unset multiplot
}
