# SPDX-License-Identifier: MIT
# Any sweep file: y (a statistic, e.g. the error against the reference) against x (a swept
# parameter, e.g. h) on log–log axes, one curve per group (e.g. method), with the least-squares
# slope of log y on log x in the legend. Variables from `stabcon plot`: xcol, ycol, gcol
# (gcol = '' for a single curve), plus datadir/outdir/stem/plotsdir.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
# cases that record a method are grouped by it even when the method was not swept
if (gcol eq '' && nmethods > 0) { gcol = 'method' }
# distinct values of the group column (the method), in order of appearance
ngroups = (gcol eq '') ? 1 : nmethods
group(i) = (gcol eq '') ? 'all' : method(i)
ingroup(g) = (gcol eq '') ? 1 : (strcol(gcol) eq g)
# each group's drawable points (positive x and y; a reference case or a failed point has none)
# into a datablock: the fit and the curve both read it, and rows in between break no curve.
# Groups without a point (e.g. a reference that has no error) are left out.
array npts[ngroups]
nonempty = ''
do for [i = 1:ngroups] {
  g = group(i)
  eval sprintf('set print $grp%d', i)  # an empty block to append to
  unset print
  eval sprintf('set table $grp%d append', i)
  plot summary using (column(xcol)):(column(ycol)) with table if (ingroup(g) && column(xcol) > 0 && column(ycol) > 0)
  unset table
  eval sprintf('npts[%d] = |$grp%d|', i, i)
  if (npts[i] > 0) { nonempty = nonempty.sprintf(' %d', i) }
}
nshow = words(nonempty)
gi(k) = int(word(nonempty, k))
# the datablocks are whitespace-separated tables without a header line
set datafile separator whitespace
set datafile nocolumnheaders
# least-squares slope of log y on log x per group (stats' linear regression; fewer than 2
# points, or all at one x: no slope)
array slope[ngroups]
do for [i = 1:ngroups] {
  slope[i] = NaN
  if (npts[i] >= 2) {
    stats sprintf('$grp%d', i) using (log10($1)):(log10($2)) nooutput
    if (STATS_stddev_x > 0) { slope[i] = STATS_slope }
  }
}
# a statistic's name in words: "wall_time" → "wall time", "us_per_step" → "µs per step"
unders(s) = strstrt(s, '_') ? s[1:strstrt(s, '_') - 1].' '.unders(s[strstrt(s, '_') + 1:]) : s
words_of(s) = unders((s[1:3] eq 'us_') ? 'µs_'.s[4:] : s)
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set key top left
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 620)
  set title sprintf("%s against %s (sweep %s)", words_of(ycol), words_of(xcol), stem) noenhanced
  set xlabel (xunit eq '' ? words_of(xcol) : sprintf('%s [%s]', words_of(xcol), xunit)) noenhanced
  set ylabel (yunit eq '' ? words_of(ycol) : sprintf('%s [%s]', words_of(ycol), yunit)) noenhanced
  plot for [k = 1:nshow] sprintf('$grp%d', gi(k)) using 1:2 smooth unique with linespoints \
       lw 1.5 pt 7 lc k title sprintf("%s (slope %.2f)", group(gi(k)), slope[gi(k)]) noenhanced
}
