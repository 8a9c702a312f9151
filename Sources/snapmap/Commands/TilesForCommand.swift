import GeoCore

/// The most tiles `tiles-for` lists; larger covers can still be counted with `--count-only`.
let maxListedTiles = 100_000

/// `snapmap tiles-for`: the tiles that cover a bounding box over a zoom range.
let runTilesFor: Command.Run = { options in
    let box = try GeoBoundingBox(parsing: options.required("bbox"), field: "--bbox")
    let cover = try TileCover(bounds: box, zooms: parseZoomRange(options.required("zoom")))
    let count = cover.count
    if options.flag("count-only") { return try JSONOutput.encode(TilesForOutput(count: count, tiles: nil)) }
    guard count <= maxListedTiles else {
        throw UsageError(description: "the cover holds \(count) tiles; at most \(maxListedTiles) are listed: narrow --bbox or --zoom, or pass --count-only")
    }
    return try JSONOutput.encode(TilesForOutput(count: count, tiles: cover.tiles.map(\.description)))
}

private struct TilesForOutput: Encodable {
    let count: Int
    let tiles: [String]?
}

/// Parses `A-B` or `A` into a zoom range within 0…22.
func parseZoomRange(_ text: String) throws(UsageError) -> ClosedRange<Int> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    let allowed = TileID.zoomRange
    guard (1...2).contains(parts.count), let low = parts[0], let high = parts.last ?? nil else {
        throw UsageError(description: "--zoom must be A-B or A with whole numbers \(allowed.lowerBound)…\(allowed.upperBound), got \"\(text)\"")
    }
    guard allowed.contains(low), allowed.contains(high) else {
        throw UsageError(description: "--zoom \(text) is out of range: allowed \(allowed.lowerBound) … \(allowed.upperBound)")
    }
    guard low <= high else { throw UsageError(description: "--zoom \(text): the first zoom must not exceed the second") }
    return low...high
}
