#!/usr/bin/env python3
"""Anchor for `make bench`: Cairo (Debian python3-cairo) strokes the same street-like polylines that
snapmap strokes (round joins and caps), then fills the same polygons, on the same canvas. Prints one line
of JSON with the seconds spent on each (reading the input excluded).

  cairo_strokes.py SHAPES.json WIDTH HEIGHT
SHAPES.json: {"width": stroke width in px, "polylines": [[x0, y0, x1, y1, ...], ...], "polygons": [...]}
"""
import json
import sys
import time

import cairo


def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = json.load(open(path))
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    context = cairo.Context(surface)
    context.set_source_rgb(0.95, 0.94, 0.90)
    context.paint()
    context.set_line_width(data["width"])
    context.set_line_join(cairo.LINE_JOIN_ROUND)
    context.set_line_cap(cairo.LINE_CAP_ROUND)
    context.set_source_rgb(1, 1, 1)
    started = time.perf_counter()
    for line in data["polylines"]:
        trace(context, line)
        context.stroke()
    surface.flush()
    stroke_seconds = time.perf_counter() - started
    context.set_source_rgba(0.77, 0.9, 0.69, 0.8)
    started = time.perf_counter()
    for polygon in data["polygons"]:
        trace(context, polygon)
        context.close_path()
        context.fill()
    surface.flush()
    print(json.dumps({"stroke_s": stroke_seconds, "fill_s": time.perf_counter() - started}))


def trace(context, flat):
    context.move_to(flat[0], flat[1])
    for index in range(2, len(flat), 2):
        context.line_to(flat[index], flat[index + 1])


if __name__ == "__main__":
    main()
