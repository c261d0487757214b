#!/usr/bin/env python3
"""Compares two PNG screenshots pixel by pixel, with Python's standard library only (zlib).

Usage: compare-png.py REFERENCE ACTUAL [TOLERANCE]
Prints the share of pixels whose colour differs by more than 32 in any channel; exits 0 when both images have
the same size and that share is at most TOLERANCE (default 0.01), 1 otherwise, 2 when a file is no PNG it reads
(8-bit greyscale, RGB or RGBA, not interlaced: what Chromium writes).
"""
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def decode(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
        position += 12 + length
    if header is None:
        raise ValueError(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace != 0:
        raise ValueError(f"{path}: depth {depth}, colour type {colour}, interlace {interlace} not read")
    step = CHANNELS[colour]
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up = previous[x]
            corner = previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                a, b, c = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if a <= b and a <= c else up if b <= c else corner
                line[x] = (line[x] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, step, rows


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    tolerance = float(sys.argv[3]) if len(sys.argv) == 4 else 0.01
    try:
        reference, actual = decode(sys.argv[1]), decode(sys.argv[2])
    except (OSError, ValueError, zlib.error) as error:
        print(error, file=sys.stderr)
        return 2
    if reference[:2] != actual[:2]:
        print(f"size {actual[0]}x{actual[1]}, expected {reference[0]}x{reference[1]}")
        return 1
    width, height = reference[:2]
    channels = min(reference[2], actual[2], 3)
    differing = 0
    for y in range(height):
        first, second = reference[3][y], actual[3][y]
        for x in range(width):
            a, b = x * reference[2], x * actual[2]
            if any(abs(first[a + c] - second[b + c]) > 32 for c in range(channels)):
                differing += 1
    share = differing / (width * height)
    print(f"{share:.5f} of the pixels differ (tolerance {tolerance})")
    return 0 if share <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
