import Foundation
import Raster

/// `snapmap raster-gallery`: draws the Raster test scenes as PNG files into a directory.
let runRasterGallery: Command.Run = { options in
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
