#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Structural check of an XDMF file written by `stabcon export --xdmf`: it parses as XML (any
# error fails), is a temporal collection of uniform grids with increasing times, and every HDF
# data item it names exists in the HDF5 file with the declared shape and type (read by h5probe,
# which opens the dataset with libhdf5 directly); every hyperslab lies inside its source and
# selects as many values as the item declares. Prints what it checked; exit 1 on the first fault.
# usage: xdmf_check.py FILE.xdmf H5PROBE
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def dims(text):
    return [int(x) for x in text.split()]


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


probed = {}


def probe(h5, path):
    key = (h5, path)
    if key not in probed:
        r = subprocess.run([sys.argv[2], h5, path], capture_output=True, text=True)
        if r.returncode != 0:
            fail("dataset %s not in %s: %s" % (path, h5, r.stderr.strip()))
        words = r.stdout.split()
        probed[key] = (words[0], int(words[1]), [int(x) for x in words[2:]])
    return probed[key]


def check_hdf_item(item, base):
    if item.get("Format") != "HDF":
        fail("data item is not HDF: %s" % ET.tostring(item)[:200])
    ref = item.text.strip()
    fname, _, path = ref.partition(":")
    if not path.startswith("/"):
        fail("data item %r has no file:/dataset form" % ref)
    h5 = os.path.join(base, fname)
    cls, size, shape = probe(h5, path)
    want = dims(item.get("Dimensions"))
    if shape != want:
        fail("%s: declared %s, stored %s" % (path, want, shape))
    if item.get("NumberType") != "Float" or cls != "float" or int(item.get("Precision")) != size:
        fail("%s: declared %s %s, stored %s %d" % (path, item.get("NumberType"),
                                                   item.get("Precision"), cls, size))
    return shape


def check_item(item, base):
    """the values an item yields: an HDF item or a hyperslab of one"""
    declared = dims(item.get("Dimensions"))
    if item.get("ItemType") != "HyperSlab":
        check_hdf_item(item, base)
        return prod(declared)
    sel, src = list(item)
    if sel.get("Format") != "XML":
        fail("hyperslab selection is not inline XML")
    shape = check_hdf_item(src, base)
    rank = len(shape)
    s = dims(sel.text)
    if dims(sel.get("Dimensions")) != [3, rank] or len(s) != 3 * rank:
        fail("hyperslab selection of rank %d is %s" % (rank, sel.text))
    start, stride, count = s[:rank], s[rank:2 * rank], s[2 * rank:]
    for k in range(rank):
        if start[k] < 0 or stride[k] < 1 or count[k] < 1:
            fail("hyperslab %s: bad start/stride/count" % sel.text)
        if start[k] + (count[k] - 1) * stride[k] >= shape[k]:
            fail("hyperslab %s outside %s" % (sel.text, shape))
    if prod(count) != prod(declared):
        fail("hyperslab selects %d values, item declares %s" % (prod(count), declared))
    return prod(declared)


def main():
    path = sys.argv[1]
    base = os.path.dirname(path)
    root = ET.parse(path).getroot()  # raises on malformed XML
    if root.tag != "Xdmf":
        fail("root element is %s" % root.tag)
    coll = root.find("Domain/Grid")
    if coll is None or coll.get("GridType") != "Collection" or \
            coll.get("CollectionType") != "Temporal":
        fail("no temporal collection")
    grids = coll.findall("Grid")
    if not grids:
        fail("no frames")
    times, items = [], 0
    for g in grids:
        times.append(float(g.find("Time").get("Value")))
        n = int(g.find("Topology").get("NumberOfElements"))
        geo = g.find("Geometry")
        if geo.get("GeometryType") != "XYZ" or check_item(geo.find("DataItem"), base) != 3 * n:
            fail("geometry of %s is not %d points" % (g.get("Name"), n))
        items += 1
        for a in g.findall("Attribute"):
            width = {"Scalar": 1, "Vector": 3, "Matrix": None}[a.get("AttributeType")]
            got = check_item(a.find("DataItem"), base)
            if (width and got != width * n) or got % n:
                fail("attribute %s of %s: %d values for %d points" % (a.get("Name"),
                                                                     g.get("Name"), got, n))
            items += 1
    if any(b <= a for a, b in zip(times, times[1:])):
        fail("frame times do not increase")
    # the frame times are the stored t array's values
    h5, pos = next((h, p) for (h, p) in probed if p.endswith("/position"))
    tpath = pos[:-len("position")] + "t"
    r = subprocess.run([sys.argv[2], h5, tpath, "0", str(len(grids))], capture_output=True,
                       text=True)
    lines = r.stdout.split("\n")
    if r.returncode != 0 or dims(lines[0].split(None, 2)[2]) != [len(grids)]:
        fail("%s does not hold one time per frame (%d)" % (tpath, len(grids)))
    stored = [float(x) for x in lines[1:] if x]
    if stored != times:
        fail("frame times differ from %s" % tpath)
    datasets = sorted({p for (_, p) in probed})
    print("ok: %d frames, t = %g … %g, %d data items, datasets %s" %
          (len(grids), times[0], times[-1], items, " ".join(datasets)))


main()
