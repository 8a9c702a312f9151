import Foundation
import GeoCore
import Raster
import Parallel

/// The glow's density at every pixel of a view: Σ intensity · weight · exp(−d² / 2σ²).
///
/// Points are splatted bilinearly onto a grid of σ/5 cells aligned to the world (so tiles and frames share
/// it), blurred separably with a Gaussian whose variance is reduced by the h²/3 that splatting and
/// interpolating add, and read back bilinearly at pixel centres. Accumulation is Float32. The cost grows
/// with points plus grid cells, not points times kernel area, and matches a direct sum to a fraction of a
/// percent.
public struct DensityField: Sendable {
    /// Grid cells per σ.
    public static let cellsPerSigma = 5.0
    /// The smallest σ in pixels (a narrower kernel is a dot).
    public static let minimumSigma = 1.0
    /// The kernel reaches this many σ.
    public static let kernelReach = 4.0

    public let width: Int
    public let height: Int
    /// Density per pixel, row-major.
    public let values: [Float]

    /// Computes the field of `source` over `view` with kernel σ in pixels.
    public init(source: HeatSource, view: MapView, sigmaPixels: Double, intensity: Double) {
        let sigma = max(sigmaPixels, Self.minimumSigma)
        let cell = sigma / Self.cellsPerSigma
        let gridSigma = (sigma * sigma - cell * cell / 3).squareRoot() / cell
        let k = view.pixelsPerMetre
        let originX = view.origin.x * k
        let originY = -view.origin.y * k
        let margin = Int((Self.kernelReach * sigma / cell).rounded(.up)) + 2
        let firstColumn = Int(((originX + 0.5) / cell).rounded(.down)) - margin
        let firstRow = Int(((originY + 0.5) / cell).rounded(.down)) - margin
        let columns = Int(((originX + Double(view.width) - 0.5) / cell).rounded(.up)) - firstColumn + margin + 1
        let rows = Int(((originY + Double(view.height) - 0.5) / cell).rounded(.up)) - firstRow + margin + 1
        var grid = [Float](repeating: 0, count: columns * rows)
        for index in 0..<source.count {
            let u = source.xs[index] * k / cell - Double(firstColumn)
            let v = -source.ys[index] * k / cell - Double(firstRow)
            guard u >= 0, v >= 0, u < Double(columns - 1), v < Double(rows - 1) else { continue }
            let (i, j) = (Int(u), Int(v))
            let (fu, fv) = (Float(u - Double(i)), Float(v - Double(j)))
            let w = Float(source.weights[index] * intensity)
            grid[j * columns + i] += w * (1 - fu) * (1 - fv)
            grid[j * columns + i + 1] += w * fu * (1 - fv)
            grid[(j + 1) * columns + i] += w * (1 - fu) * fv
            grid[(j + 1) * columns + i + 1] += w * fu * fv
        }
        // Each pass's peak is σ_eff/σ_grid: it restores the height that splatting and interpolating spread.
        let kernel = GaussianBlur.kernel(sigma: gridSigma, reach: Self.kernelReach, amplitude: sigma / cell / gridSigma)
        GaussianBlur.blur(&grid, width: columns, height: rows, kernel: kernel)
        let (width, height) = (view.width, view.height)
        let blurred = grid
        // Where each column falls in the grid is the same on every row: worked out once.
        let columnCells = (0..<width).map { column -> (Int, Float) in
            let u = (originX + Double(column) + 0.5) / cell - Double(firstColumn)
            return (Int(u), Float(u - Double(Int(u))))
        }
        values = .filledConcurrently(count: width * height, initial: 0, minimumPerPart: 65_536) { range, output in
            var index = range.lowerBound
            while index < range.upperBound {
                let row = index / width
                let rowEnd = min(range.upperBound, (row + 1) * width)
                let v = (originY + Double(row) + 0.5) / cell - Double(firstRow)
                let j = Int(v)
                let fv = Float(v - Double(j))
                let (upper, lower) = (j * columns, (j + 1) * columns)
                for position in index..<rowEnd {
                    let (i, fu) = columnCells[position - row * width]
                    let top = blurred[upper + i] * (1 - fu) + blurred[upper + i + 1] * fu
                    let bottom = blurred[lower + i] * (1 - fu) + blurred[lower + i + 1] * fu
                    output.write(top * (1 - fv) + bottom * fv, at: position)
                }
                index = rowEnd
            }
        }
        self.width = width
        self.height = height
    }
}
