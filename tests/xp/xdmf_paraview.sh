#!/bin/sh
# SPDX-License-Identifier: MIT
# ParaView (Debian python3-paraview) opens the XDMF of a dropped stack written by `export
# --xdmf`: it sees every frame, and the last frame's positions it reads equal the results file's
# (read by h5probe with libhdf5) to the last bit. Skipped (77) where ParaView's Python is absent.
# usage: xdmf_paraview.sh STABCON H5PROBE
set -eu
stabcon=$(realpath "$1")
probe=$(realpath "$2")
py=
for cand in pvpython /usr/bin/python3 python3; do
  if command -v "$cand" > /dev/null 2>&1 &&
     "$cand" -c "import paraview.simple" > /dev/null 2>&1; then py=$cand; break; fi
done
if [ -z "$py" ]; then echo "ParaView's Python (python3-paraview) not installed: skipped"; exit 77; fi
dir=$(mktemp -d /tmp/stabcon-pv-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$stabcon" run stack --set n=5 --set repeats=1 --set T=0.5 --set settle_T=0.1 --set pile_n=0 \
  --set frames=11 -o stack.h5 > /dev/null
xdmf=$("$stabcon" export stack.h5 --case cost_N=5 --xdmf)
cat > read.py << 'PY'
import sys
from paraview import servermanager as sm
from paraview.simple import XDMFReader
r = XDMFReader(FileNames=[sys.argv[1]])
ts = list(r.TimestepValues)
r.UpdatePipeline(ts[-1])
d = sm.Fetch(r)
if d.IsA("vtkMultiBlockDataSet"):
    d = d.GetBlock(0)
print("frames", len(ts), "t_last", repr(ts[-1]), "points", d.GetNumberOfPoints())
print("arrays", " ".join(sorted(d.GetPointData().GetArrayName(k)
                                for k in range(d.GetPointData().GetNumberOfArrays()))))
for i in range(d.GetNumberOfPoints()):
    print("%.17g %.17g %.17g" % d.GetPoint(i))
PY
"$py" read.py "$xdmf" > pv.txt 2> pv_err.txt || { cat pv_err.txt; exit 1; }
cat pv.txt
head -1 pv.txt | grep -q "^frames 11 t_last 0.5 points 5$"
sed -n 2p pv.txt | grep -q "^arrays force orientation radius velocity$"
# the stored last frame: position [11, 5, 3] from entry 10·15
"$probe" stack.h5 /cases/cost_N=5/bodies/position 150 15 | tail -n +2 | paste -d' ' - - - > h5.txt
tail -n +3 pv.txt > pv_pos.txt
echo "HDF5 last frame:"; cat h5.txt
awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
     { split(a[FNR], p, " "); for (k = 1; k <= 3; k++) if (p[k] + 0 != $k + 0) {
         print "point " FNR - 1 ": ParaView " a[FNR] ", HDF5 " $0; bad = 1 } }
     END { if (bad || FNR != n) exit 1 }' pv_pos.txt h5.txt
echo "ParaView's last frame equals the stored positions"
