import GeoCore

/// `snapmap project`: a coordinate in mercator metres and, with `--zoom`, the tile that holds it.
let runProject: Command.Run = { options in
    let coordinate = try Coordinate(parsing: options.required("coord"), field: "--coord")
    try coordinate.checkProjectable(field: "--coord lat")
    let mercator = try WebMercator.project(coordinate)
    var tile: Merged<TileID, TilePlace>?
    if let zoom = try options.integer("zoom", in: TileID.zoomRange) {
        let id = try TileID(containing: coordinate, zoom: zoom)
        tile = Merged(value: id, beside: TilePlace(id))
    }
    return try JSONOutput.encode(ProjectOutput(coordinate: coordinate, mercator: mercator, tile: tile))
}

private struct ProjectOutput: Encodable {
    let coordinate: Coordinate
    let mercator: MercatorPoint
    let tile: Merged<TileID, TilePlace>?
}

/// A tile's names other than z/x/y, and its bounds in degrees and in mercator metres (printed beside z, x and y).
struct TilePlace: Encodable {
    let quadkey: String
    let tmsY: Int
    let bounds: GeoBoundingBox
    let mercatorBounds: MercatorCorners

    init(_ tile: TileID) {
        (quadkey, tmsY, bounds, mercatorBounds) = (tile.quadkey, tile.tmsY, tile.geoBounds, MercatorCorners(tile.mercatorBounds))
    }
}
