# SPDX-License-Identifier: MIT
# Any sweep file: y (a statistic, e.g. the error against the reference) against x (a swept
# parameter, e.g. h) on log–log axes, one curve per group (e.g. method), with the least-squares
# slope of log y on log x in the legend. Variables from `stabcon plot`: xcol, ycol, gcol
# (gcol = '' for a single curve), plus datadir/outdir/stem/plotsdir.
load plotsdir.'/common.gp'
summary = datadir.'/summary.csv'
# cases that record a method are grouped by it even when the method was not swept
if (gcol eq '' && int(system(sprintf("head -1 '%s' | tr , '\\n' | grep -cx method", summary))) > 0) { gcol = 'method' }
# distinct values of the group column, in order of appearance
groups = (gcol eq '') ? 'all' : system(sprintf("awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i==\"%s\") c=i; next} c && !seen[$c]++ {printf \"%%s \", $c}' '%s'", gcol, summary))
ngroups = words(groups)
ingroup(g) = (gcol eq '') ? 1 : (strcol(gcol) eq g)
okrow = 'strcol("status") eq "ok"'
array slope[ngroups]
set fit quiet nolog
do for [i = 1:ngroups] {
  g = word(groups, i)
  slope[i] = NaN
  a = 1; b = 1
  f(x) = a + b * x
  # fit only the finite, positive points of this group (none: no fit)
  STATS_records = 0
  stats summary using (ingroup(g) && column(ycol) > 0 ? log10(column(xcol)) : NaN):(ingroup(g) && column(ycol) > 0 ? log10(column(ycol)) : NaN) nooutput
  if (!exists("STATS_records")) { STATS_records = 0 }
  if (STATS_records >= 2) {
    fit f(x) summary using (ingroup(g) && column(ycol) > 0 ? log10(column(xcol)) : NaN):(ingroup(g) && column(ycol) > 0 ? log10(column(ycol)) : NaN) via a, b
    slope[i] = b
  }
}
# each group's drawable points (positive x and y; a reference case or a failed point has none)
# into a datablock, so a curve is not broken by the rows in between
do for [i = 1:ngroups] {
  g = word(groups, i)
  eval sprintf('set table $grp%d', i)
  plot summary using (column(xcol)):(column(ycol)) with table if (ingroup(g) && column(xcol) > 0 && column(ycol) > 0)
  unset table
}
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set key top left
do for [fmt in "png svg"] {
  eval setterm(fmt, 900, 620)
  set title sprintf("%s: %s against %s", stem, ycol, xcol) noenhanced
  set xlabel (xunit eq '' ? xcol : sprintf('%s [%s]', xcol, xunit)) noenhanced
  set ylabel (yunit eq '' ? ycol : sprintf('%s [%s]', ycol, yunit)) noenhanced
  # the datablocks are whitespace-separated tables without a header line
  set datafile separator whitespace
  set datafile nocolumnheaders
  plot for [i = 1:ngroups] sprintf('$grp%d', i) using 1:2 \
       smooth unique with linespoints lw 1.5 pt 7 title sprintf("%s (slope %.2f)", word(groups, i), slope[i]) noenhanced
  set datafile separator ','
  set datafile columnheaders
}
