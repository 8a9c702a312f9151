import Foundation
import GeoCore
import HeatMap

/// The glow's density for 1,000, 100,000 and 1,000,000 points on a 1179×2556 frame against SciPy
/// (histogram2d + gaussian_filter with the same σ on the same pixel grid) in the same run.
enum HeatBenchmark {
    static let sizes = [1_000, 100_000, 1_000_000]

    static func run() throws -> String {
        let view = MapView(viewport: try Viewport(center: Coordinate(lat: 40.7160, lon: -73.9597), zoom: 14.5,
                                                  size: ScreenSize(width: 393, height: 852), scale: 3))
        let sigma = 30.0 / 3 * view.scale
        var random = SplitMix64(seed: 11)
        var lines: [String] = []
        for count in sizes {
            var pixels: [Double] = []
            var points: [HeatPoint] = []
            for _ in 0..<count {
                let (px, py) = (Double.random(in: 0..<Double(view.width), using: &random), Double.random(in: 0..<Double(view.height), using: &random))
                let weight = Double(Int.random(in: 1...4, using: &random))
                pixels += [px, py, weight]
                points.append(HeatPoint(MercatorPoint(x: view.origin.x + px / view.pixelsPerMetre, y: view.origin.y - py / view.pixelsPerMetre), weight: weight))
            }
            let source = HeatSource(points: points)
            let ours = BenchmarkClock.best(of: 3) { _ = DensityField(source: source, view: view, sigmaPixels: sigma, intensity: 1) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-heat-\(count).f64")
            try pixels.withUnsafeBytes { try Data($0).write(to: file) }
            defer { try? FileManager.default.removeItem(at: file) }
            let output = try BenchmarkProcess.run(BenchmarkProcess.debianPython, ["bench/scipy_heat.py", file.path, String(view.width), String(view.height), String(sigma)])
            guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Double], let scipy = json["seconds"] else {
                throw BenchmarkFailure(message: "scipy_heat.py printed \(output)")
            }
            lines.append(BenchmarkClock.report("glow density, \(count) points on 1179×2556 (σ \(sigma) px)", ours: ours, anchor: scipy,
                                               anchorName: "SciPy histogram2d + gaussian_filter"))
        }
        return lines.joined(separator: "\n")
    }
}
