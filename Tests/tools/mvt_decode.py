#!/usr/bin/env python3
"""Reads snapmap's vector tiles with mapbox-vector-tile (an independent decoder, PyPI) and Shapely, for the tests.

  mvt_decode.py decode FILE.mvt...        every tile's layers and features as JSON (tile units, y down)
  mvt_decode.py refine DIR Z X Y          tile Z/X/Y against its four children (DIR/z/x/y.mvt), as JSON:
                                          per polygon layer the areas inside the parent tile and of the symmetric
                                          difference; per line layer the length by class; the parks and places named
Run with the virtual environment's python (.build/python/bin/python), which has both packages.
"""
import gzip
import json
import sys

import mapbox_vector_tile
from shapely.geometry import box, shape
from shapely.ops import unary_union
from shapely import affinity, make_valid

EXTENT = 4096


def decode(path):
    """A tile file, gunzipped first when it is gzipped (as MBTiles stores them)."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})


def summary(paths):
    result = {}
    for path in paths:
        result[path] = {name: {"extent": layer["extent"], "version": layer["version"],
                               "features": [{"id": f.get("id", 0), "type": f["geometry"]["type"], "properties": f["properties"],
                                             "coordinates": f["geometry"]["coordinates"]} for f in layer["features"]]}
                        for name, layer in decode(path).items()}
    print(json.dumps(result))


def layer_shapes(tile, name, offset=(0, 0), factor=1.0):
    """The layer's features as Shapely geometries in the parent's units, clipped to the tile's own square."""
    layer = tile.get(name)
    if not layer:
        return []
    square = box(0, 0, EXTENT, EXTENT)
    shapes = []
    for feature in layer["features"]:
        geometry = make_valid(shape(feature["geometry"])).intersection(square)
        geometry = affinity.affine_transform(geometry, [factor, 0, 0, factor, offset[0], offset[1]])
        shapes.append((feature["properties"], geometry))
    return shapes


def refine(directory, z, x, y):
    parent = decode(f"{directory}/{z}/{x}/{y}.mvt")
    children = [((dx, dy), decode(f"{directory}/{z + 1}/{2 * x + dx}/{2 * y + dy}.mvt")) for dy in (0, 1) for dx in (0, 1)]
    report = {}
    for name in ("water", "land", "parks"):
        mine = unary_union([g for _, g in layer_shapes(parent, name)])
        theirs = unary_union([g for (dx, dy), child in children
                              for _, g in layer_shapes(child, name, (dx * EXTENT / 2, dy * EXTENT / 2), 0.5)])
        report[name] = {"area": mine.area, "childrenArea": theirs.area, "difference": mine.symmetric_difference(theirs).area,
                        "boundary": 0.0 if mine.is_empty else mine.boundary.length}
    lengths = {}
    for properties, geometry in layer_shapes(parent, "streets"):
        lengths.setdefault(properties["class"], [0.0, 0.0])[0] += geometry.length
    for (dx, dy), child in children:
        for properties, geometry in layer_shapes(child, "streets", (dx * EXTENT / 2, dy * EXTENT / 2), 0.5):
            lengths.setdefault(properties["class"], [0.0, 0.0])[1] += geometry.length
    report["streets"] = lengths
    for name in ("parks", "places"):
        def named(shapes):
            return sorted({p.get("kind", "park") + "/" + p["name"] for p, g in shapes if not g.is_empty and p.get("name")})
        report[name + "Named"] = {
            "parent": named(layer_shapes(parent, name)),
            "children": named([s for (dx, dy), child in children for s in layer_shapes(child, name, (dx * EXTENT / 2, dy * EXTENT / 2), 0.5)]),
        }
    print(json.dumps(report))


if __name__ == "__main__":
    if sys.argv[1] == "decode":
        summary(sys.argv[2:])
    elif sys.argv[1] == "refine":
        refine(sys.argv[2], *map(int, sys.argv[3:6]))
    else:
        sys.exit("usage: mvt_decode.py decode FILE... | refine DIR Z X Y")
