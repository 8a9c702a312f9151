import MapEngine

/// The `--tile-size 256|512` and `--scale 1|2` of every command that draws PNG tiles (the `tile` options of `commands.json`).
enum TileOptions {
    /// The tile size and scale asked for; a value the engine does not draw is refused naming its option.
    static func sizeAndScale(_ options: ParsedOptions) throws -> (Int, Double) {
        let tileSize = try options.integer("tile-size", in: 256...512) ?? 256
        guard MapEngine.tileSizes.contains(tileSize) else { throw UsageError(description: "--tile-size must be 256 or 512, got \(tileSize)") }
        let scale = try options.request.number("scale", in: 1...2) ?? 1
        guard MapEngine.tileScales.contains(scale) else { throw UsageError(description: "--scale must be 1 or 2, got \(scale)") }
        return (tileSize, scale)
    }
}
