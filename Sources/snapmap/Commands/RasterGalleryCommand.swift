import Foundation
import Raster

/// `snapmap raster-gallery`: draws the Raster test scenes as PNG files into a directory.
let rasterGalleryCommand = Command(
    name: "raster-gallery",
    summary: "draw the rasterizer's test scenes (fills, strokes, hairlines, curves, text, avatar, layers) as PNGs",
    usage: "raster-gallery --out DIR",
    options: [.value("out", "DIR", "the directory to write the PNG files into (created if missing)")]
) { options in
    let directory = URL(fileURLWithPath: try options.requiredPath("out"))
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var written: [String] = []
    for (name, canvas) in try RasterGallery.scenes() {
        let url = directory.appendingPathComponent(name)
        try Data(PNGCodec.encode(canvas)).write(to: url)
        written.append(url.path)
    }
    return written.joined(separator: "\n")
}
