import Foundation
import GeoCore
import Raster

/// Fill and stroke throughput on a phone frame against Cairo, and PNG encoding at snapmap's settings against
/// libpng's defaults, all in the same run.
enum RasterBenchmark {
    static let width = 1179
    static let height = 2556
    static let polylineCount = 20_000
    static let strokeWidth = 6.0

    /// Street-like polylines: short random walks that mostly follow a grid, across the whole frame.
    static func streets() -> [[Point]] {
        var random = SplitMix64(seed: 7)
        return (0..<polylineCount).map { _ in
            var point = Point(Double.random(in: 0...Double(width), using: &random), Double.random(in: 0...Double(height), using: &random))
            var heading = Double(Int.random(in: 0..<4, using: &random)) * Double.pi / 2 + 0.46
            return (0..<Int.random(in: 4...12, using: &random)).map { _ in
                defer {
                    heading += Double.random(in: -0.3...0.3, using: &random)
                    let step = Double.random(in: 15...60, using: &random)
                    point = Point(point.x + step * cos(heading), point.y + step * sin(heading))
                }
                return point
            }
        }
    }

    /// City-block-like quadrilaterals.
    static func blocks() -> [[Point]] {
        var random = SplitMix64(seed: 8)
        return (0..<polylineCount).map { _ in
            let center = Point(Double.random(in: 0...Double(width), using: &random), Double.random(in: 0...Double(height), using: &random))
            let (w, h) = (Double.random(in: 10...50, using: &random), Double.random(in: 10...50, using: &random))
            return [center, Point(center.x + w, center.y + 3), Point(center.x + w - 2, center.y + h), Point(center.x - 4, center.y + h - 2)]
        }
    }

    static func run() throws -> String {
        let lines = streets()
        let polygons = blocks()
        let cairo = try cairoSeconds(lines: lines, polygons: polygons)
        let style = StrokeStyle(width: strokeWidth, join: .round, cap: .round)
        let background = Color(r: 242, g: 239, b: 230)
        var canvas = try Canvas(width: width, height: height, background: background)
        let strokeEach = try BenchmarkClock.best(of: 3) {
            canvas = try Canvas(width: width, height: height, background: background)
            for line in lines { canvas.stroke(contours: [Contour(points: line, isClosed: false)], style: style, paint: .solid(.white)) }
        }
        let batched = try BenchmarkClock.best(of: 3) {
            let layer = try Canvas(width: width, height: height, background: background)
            layer.stroke(contours: lines.map { Contour(points: $0, isClosed: false) }, style: style, paint: .solid(.white))
        }
        let park = Color(r: 196, g: 230, b: 176, a: 204)
        let fillEach = BenchmarkClock.best(of: 3) {
            for polygon in polygons { canvas.fill(contours: [Contour(points: polygon, isClosed: true)], paint: .solid(park)) }
        }
        var report = [
            BenchmarkClock.report("stroke 20,000 polylines one by one, 1179×2556", ours: strokeEach, anchor: cairo.stroke, anchorName: "Cairo"),
            BenchmarkClock.report("stroke 20,000 polylines as one layer, 1179×2556", ours: batched, anchor: cairo.stroke, anchorName: "Cairo one by one"),
            BenchmarkClock.report("fill 20,000 polygons one by one, 1179×2556", ours: fillEach, anchor: cairo.fill, anchorName: "Cairo"),
        ]
        report.append(try pngReport(canvas))
        return report.joined(separator: "\n")
    }

    private static func pngReport(_ canvas: Canvas) throws -> String {
        var ours: [UInt8] = []
        var reference: [UInt8] = []
        let oursTime = try BenchmarkClock.best(of: 3) { ours = try PNGCodec.encode(canvas, options: .snapmap) }
        let referenceTime = try BenchmarkClock.best(of: 3) { reference = try PNGCodec.encode(canvas, options: .libpngDefault) }
        let sizeRatio = Double(ours.count) / Double(reference.count)
        return BenchmarkClock.report("PNG encode of that frame (\(PNGCodec.Options.snapmap.filter) filter, \(PNGCodec.Options.snapmap.strategy) strategy)",
                                     ours: oursTime, anchor: referenceTime, anchorName: "libpng defaults (level 6, adaptive)")
            + "; size \(ours.count) vs \(reference.count) bytes, \(BenchmarkClock.format(sizeRatio))× the size"
    }

    private static func cairoSeconds(lines: [[Point]], polygons: [[Point]]) throws -> (stroke: Double, fill: Double) {
        let flat: ([[Point]]) -> [[Double]] = { shapes in shapes.map { $0.flatMap { [$0.x, $0.y] } } }
        let input: [String: Any] = ["width": strokeWidth, "polylines": flat(lines), "polygons": flat(polygons)]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-bench-shapes.json")
        try JSONSerialization.data(withJSONObject: input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try BenchmarkProcess.run(BenchmarkProcess.debianPython, ["bench/cairo_strokes.py", file.path, String(width), String(height)])
        guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Double],
              let stroke = json["stroke_s"], let fill = json["fill_s"] else {
            throw BenchmarkFailure(message: "cairo_strokes.py printed \(output)")
        }
        return (stroke, fill)
    }
}
