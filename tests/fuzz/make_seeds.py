#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the small seed corpora under corpus/ (deterministic; re-run after changing fuzz_input.h)."""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def quarter(v):  # fz_float selector >= 0x60: int8 / 4
    return bytes([0x60, int(round(v * 4)) & 0xFF])


def special(i):  # fz_float selector 0x20 | i: the table in fuzz_input.h
    return bytes([0x20 | i])


def raw(v):  # fz_float selector 0: any bit pattern
    return b"\x00" + struct.pack("<f", v)


def radius(v):  # fz_radius: the value, then a byte whose low bits keep it non-negative
    return quarter(v) + b"\x01"


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def scene_issue():
    # per-query intervals (h bit 2); one circle (0, 0, 10); a segment and a line from -1e18
    # to 1e18 (|d| (r + q) = 2e19: the entry time used to overflow)
    out = bytes([0x04, 1, 2])
    out += quarter(0) + quarter(0) + radius(10) + b"\x00"
    for tsel in (2, 0):
        out += special(3) + quarter(0) + raw(2e18) + quarter(0) + bytes([tsel])
    return out + b"\x01"


def scene_subnormal_cells():
    # per-query intervals (h bit 2); circles of radius 0 at (2^-149, 0) and three at the origin
    # (cells below FLT_MIN: an infinite float inverse); the point t = 0 of a query heading down
    # from the origin: the grid missed the circle at 2^-149, which the kernels' underflowing
    # squared distances count as touching
    tiny = struct.unpack("<f", struct.pack("<I", 1))[0]
    out = bytes([0x04, 4, 1])
    out += raw(tiny) + quarter(0) + radius(0) + b"\x00"
    for _ in range(3):
        out += quarter(0) + quarter(0) + radius(0) + b"\x00"
    out += quarter(0) + quarter(0) + quarter(0) + quarter(-0.25)  # a, d
    out += bytes([3]) + quarter(0) + quarter(0)  # any interval: [0, 0]
    return out + b"\x01"


def scene_bad_rebuild(field, value):
    # four unit circles along y = 0, then the same arrays with circle 2's x, y or r replaced by a
    # special value (the frame loop's moved arrays): the rebuild must be refused, the grid kept
    def circles(bad):
        out = b""
        for k, x in enumerate((0, 5, 10, 15)):
            xs, ys, rs = quarter(x), quarter(0), radius(1)
            if bad and k == 2:
                v = special(value) if value is not None else quarter(-1)
                if field == 0:
                    xs = v
                elif field == 1:
                    ys = v
                else:
                    rs = v + b"\x00"  # low bits 0: the sign is kept
            out += xs + ys + rs + b"\x00"
        return out
    out = bytes([0x00, 4]) + circles(False)
    out += bytes([0x00, 4, 1]) + circles(True)
    out += quarter(-8) + quarter(0) + quarter(31) + quarter(0)  # a segment through all four
    return out + b"\x00"


def scene_walls(thick, skip_start, circles):
    # walls touching end to end, a collinear query along one, a query ending on one, a ray
    # through two walls' shared end, a line through a zero-length wall; thin or thickened by
    # 1/4, with a circle at the shared end or none
    out = bytes([0x04, 1 if circles else 0, 4])  # per-query intervals
    if circles:
        out += quarter(0) + quarter(0) + radius(0.5) + b"\x00"
    for a, d, tsel in (((0, 0), (4, 0), 2), ((2, -2), (0, 2), 2), ((-1, 1), (2, -2), 1),
                       ((5, 0), (0, 1), 0)):
        out += quarter(a[0]) + quarter(a[1]) + quarter(d[0]) + quarter(d[1]) + bytes([tsel])
    out += bytes([(1 if thick else 0) | (4 if skip_start else 0), 4])
    walls = (((1, 0), 0, (3, 0)), ((9, 9), 1, (3, 2)), ((0, 0), 0, (0, -1)), ((5, 5), 0, (5, 5)))
    for a, shape, b in walls:
        out += quarter(a[0]) + quarter(a[1]) + bytes([shape]) + quarter(b[0]) + quarter(b[1])
        if thick:
            out += radius(0.25)
        out += b"\x00"
    return out


def main():
    rnd = random.Random(20240607)
    lib = ["batch", "rebuild", "pairs", "overlap", "workspace", "scalar", "isa", "walls"]
    for t in lib:
        for k in range(6):
            write(t, "random%d" % k, bytes(rnd.randrange(256) for _ in range(rnd.randrange(64, 600))))
        # dense quarter-integer scenes: tangencies everywhere
        dense = bytes([rnd.randrange(256), 24, 24])
        for _ in range(24 * 4 + 24 * 6):
            dense += quarter(rnd.randrange(-32, 32) / 2)
        write(t, "dense", dense)
    write("batch", "huge_entry_time", scene_issue())
    write("rebuild", "huge_entry_time", scene_issue())
    write("batch", "subnormal_cells", scene_subnormal_cells())
    write("rebuild", "bad_inf_x", scene_bad_rebuild(0, 10))
    write("rebuild", "bad_nan_y", scene_bad_rebuild(1, 12))
    write("rebuild", "bad_range_x", scene_bad_rebuild(0, 14))
    write("rebuild", "bad_negative_r", scene_bad_rebuild(2, None))
    write("walls", "touching_thin", scene_walls(False, False, False))
    write("walls", "touching_thick", scene_walls(True, False, True))
    write("walls", "touching_skip_start", scene_walls(False, True, True))

    # .npy: prefix byte 1 asks for 2 columns
    def npy(major, shape, data, descr="<f4"):
        hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
        lenfmt = "<H" if major == 1 else "<I"
        pre = 10 if major == 1 else 12
        pad = (64 - (pre + len(hdr) + 1) % 64) % 64
        hdr = hdr + " " * pad + "\n"
        return b"\x93NUMPY" + bytes([major, 0]) + struct.pack(lenfmt, len(hdr)) + hdr.encode() + data

    vals = struct.pack("<6f", 1.0, -2.5, 1e18, 0.0, float("nan"), 3.25)
    write("npy", "v1_3x2", b"\x01" + npy(1, "(3, 2)", vals))
    write("npy", "v2_3x2", b"\x01" + npy(2, "(3, 2)", vals))
    write("npy", "v1_empty", b"\x01" + npy(1, "(0, 2)", b""))
    write("npy", "v1_f8", b"\x01" + npy(1, "(1, 2)", struct.pack("<2d", 1, 2), "<f8"))

    write("csv", "header", b"\x01x,y\n1,2\n3.5, -4e3\n")
    write("csv", "bom_crlf", b"\x01\xef\xbb\xbf1,2\r\n\r\n3,4\r\n")
    write("csv", "three", b"\x02x,y,r\n0,0,1\n1e18,-1e18,0\n")
    write("csv", "bad", b"\x01x,y\n1,\n,2\n1e39,0\n")
    write("csv", "no_header", b"\x0b1,2\n3,4\n")  # cols 2, --no-header
    write("csv", "escapes", b"\x01\x1b[31mx\n,y\n")


if __name__ == "__main__":
    main()
