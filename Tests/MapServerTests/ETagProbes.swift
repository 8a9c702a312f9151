import Foundation
import GeoCore

/// Every answer with an ETag, asked in places chosen so each input changes some of them and not others: a
/// viewport over most of Sam's friends (A); McCarren Park, where Maya and Noah stand as one group labelled without
/// a time (B); Roebling St, Leo alone, seen 3 hours ago (C); Domino Park, glow only; the tiles over McCarren and
/// Domino Park, 1.4 km apart.
enum ETagProbes {
    static let viewportA = ["center": "40.7160,-73.9597", "zoom": "14", "size": "300x450", "scale": "1"]
    static let mcCarren = ["center": "40.7205,-73.9513", "zoom": "16", "size": "256x320", "scale": "1"]
    static let leo = ["center": "40.7178,-73.9530", "zoom": "17", "size": "256x320", "scale": "1"]
    static let domino = ["center": "40.7145,-73.9675", "zoom": "16", "size": "256x320", "scale": "1", "layers": "base,heat"]
    static let glowAt = try! Coordinate(lat: 40.7145, lon: -73.9675)

    static func tile(_ lat: Double, _ lon: Double, zoom: Int) -> String {
        let tile = try! TileID(containing: Coordinate(lat: lat, lon: lon), zoom: zoom)
        return "\(tile.z)/\(tile.x)/\(tile.y)"
    }

    static let mcCarrenTile = tile(40.7205, -73.9513, zoom: 15)
    static let dominoTile = tile(40.7145, -73.9675, zoom: 15)

    static func me(_ name: String, _ path: String, _ query: [String: String], _ more: [String: String] = [:]) -> Probe {
        Probe(name: name, path: "/v1/me/" + path, query: query.merging(more) { $1 })
    }

    static let privateProbes = [
        me("layout", "layout.json", viewportA),
        me("layoutSelected", "layout.json", viewportA, ["selected": "jordan", "at-selection": "true"]),
        me("frame", "frame.png", viewportA),
        me("pinsOnly", "frame.png", viewportA, ["layers": "pins"]),
        me("selected", "frame.png", viewportA, ["selected": "jordan"]),
        me("selectedFrame", "frame.png", viewportA, ["selected": "jordan", "at-selection": "true"]),
        me("frameMcCarren", "frame.png", mcCarren),
        me("glowMcCarren", "frame.png", mcCarren, ["layers": "base,heat"]),
        me("frameLeo", "frame.png", leo),
        me("glowDomino", "frame.png", domino),
        me("hit", "hit", viewportA, ["at": "49,260"]),
        me("zoom", "zoom", viewportA, ["friend": "jordan"]),
    ]

    static let publicProbes = [
        Probe(name: "tile", path: "/tiles/\(mcCarrenTile).png"),
        Probe(name: "tile2x", path: "/tiles/\(mcCarrenTile)@2x.png"),
        Probe(name: "heatMcCarren", path: "/heat/\(mcCarrenTile).png"),
        Probe(name: "heatMcCarren2x", path: "/heat/\(mcCarrenTile)@2x.png"),
        Probe(name: "heatDomino", path: "/heat/\(dominoTile).png"),
        Probe(name: "mvt", path: "/tiles/\(tile(40.7205, -73.9513, zoom: 14)).mvt", acceptEncoding: "gzip"),
        Probe(name: "mvtPlain", path: "/tiles/\(tile(40.7205, -73.9513, zoom: 14)).mvt"),
        Probe(name: "tileJSON", path: "/tiles.json"),
        Probe(name: "vectorJSON", path: "/vector.json"),
        Probe(name: "style", path: "/styles/snapmap.json"),
        Probe(name: "glyphs", path: "/fonts/Inter Bold/0-255.pbf"),
    ]

    static let all = privateProbes + publicProbes
    static let publicNames = Set(publicProbes.map(\.name))

    static func named(_ name: String) -> Probe { all.first { $0.name == name }! }
}
