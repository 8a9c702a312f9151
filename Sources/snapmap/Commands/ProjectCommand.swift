import GeoCore

/// `snapmap project`: a coordinate in mercator metres and, with `--zoom`, the tile that holds it.
let runProject: Command.Run = { options in
    let coordinate = try Coordinate(parsing: options.required("coord"), field: "--coord")
    try coordinate.checkProjectable(field: "--coord lat")
    let mercator = try WebMercator.project(coordinate)
    var tile: TileSummary?
    if let zoom = try options.integer("zoom", in: TileID.zoomRange) {
        tile = TileSummary(try TileID(containing: coordinate, zoom: zoom))
    }
    return try JSONOutput.encode(ProjectOutput(coordinate: coordinate, mercator: mercator, tile: tile))
}

private struct ProjectOutput: Encodable {
    let coordinate: Coordinate
    let mercator: MercatorPoint
    let tile: TileSummary?
}

/// A tile as the command line prints it.
struct TileSummary: Encodable {
    let z: Int
    let x: Int
    let y: Int
    let quadkey: String
    let tmsY: Int
    let bounds: GeoBoundingBox
    let mercatorBounds: MercatorCorners

    init(_ tile: TileID) {
        z = tile.z
        x = tile.x
        y = tile.y
        quadkey = tile.quadkey
        tmsY = tile.tmsY
        bounds = tile.geoBounds
        mercatorBounds = MercatorCorners(tile.mercatorBounds)
    }
}
