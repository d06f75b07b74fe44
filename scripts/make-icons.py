#!/usr/bin/env python3
"""Draws the app icons (www/icons/icon-192.png, icon-512.png, maskable-512.png) and icon.svg:
eight bit cells (1 0 0 1 0 1 1 0) over an orange sign-extension bar on the accent blue.
Plain Python (zlib), so the icons can be redrawn anywhere: python3 scripts/make-icons.py"""
import os
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'www', 'icons')
BLUE, WHITE, ORANGE = (0x1A, 0x62, 0xC4), (0xFF, 0xFF, 0xFF), (0xF2, 0x8C, 0x4A)
BITS = [1, 0, 0, 1, 0, 1, 1, 0]


def shapes(inset):
    """Rectangles in a 512-unit square: (x0, y0, x1, y1, colour, filled)."""
    s = (512 - 2 * inset) / 512
    def r(x0, y0, x1, y1, c, filled=True):
        return (inset + x0 * s, inset + y0 * s, inset + x1 * s, inset + y1 * s, c, filled)
    out = []
    cell, gap, left = 46, 8, (512 - (8 * 46 + 7 * 8)) / 2
    for i, b in enumerate(BITS):
        x = left + i * (cell + gap)
        out.append(r(x, 176, x + cell, 176 + 84, WHITE, b == 1))
    out.append(r(left, 300, 512 - left, 336, ORANGE))
    return out


def png(size, maskable):
    inset = 64 if maskable else 0
    radius = 0 if maskable else 96
    px = bytearray()
    rects = shapes(inset)
    k = size / 512
    for y in range(size):
        px.append(0)
        for x in range(size):
            ux, uy = (x + 0.5) / k, (y + 0.5) / k
            # Rounded square (transparent corners) unless maskable (full bleed).
            cx = min(max(ux, radius), 512 - radius)
            cy = min(max(uy, radius), 512 - radius)
            inside = radius == 0 or (ux - cx) ** 2 + (uy - cy) ** 2 <= radius ** 2
            colour, alpha = BLUE, 255 if inside else 0
            for (x0, y0, x1, y1, c, filled) in rects:
                if x0 <= ux < x1 and y0 <= uy < y1:
                    edge = min(ux - x0, x1 - ux, uy - y0, y1 - uy)
                    if filled or edge < 6:
                        colour = c
            px.extend(colour + (alpha,))
    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(bytes(px), 9)) + chunk(b'IEND', b''))


def svg():
    hexc = lambda c: '#%02x%02x%02x' % c
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
             '<rect width="512" height="512" rx="96" fill="%s"/>' % hexc(BLUE)]
    for (x0, y0, x1, y1, c, filled) in shapes(0):
        if filled:
            parts.append('<rect x="%g" y="%g" width="%g" height="%g" fill="%s"/>' % (x0, y0, x1 - x0, y1 - y0, hexc(c)))
        else:
            parts.append('<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="%s" stroke-width="12"/>'
                         % (x0 + 6, y0 + 6, x1 - x0 - 12, y1 - y0 - 12, hexc(c)))
    parts.append('</svg>\n')
    return '\n'.join(parts)


os.makedirs(HERE, exist_ok=True)
for name, size, maskable in [('icon-192.png', 192, False), ('icon-512.png', 512, False),
                             ('maskable-512.png', 512, True)]:
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(png(size, maskable))
with open(os.path.join(HERE, 'icon.svg'), 'w') as f:
    f.write(svg())
