import GeoCore
import Testing

/// The grid index against a plain list of boxes: after random inserts, moves and removes, every query finds
/// exactly the boxes a linear scan finds, each once, whatever the sizes (points, boxes wider than the cells
/// allow, boxes far out or not finite).
@Suite("Grid index")
struct GridIndexTests {
    static func meets(_ a: ScreenRect, _ b: ScreenRect) -> Bool {
        a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
    }

    static func randomBox(_ random: inout SplitMix64) -> ScreenRect {
        let x = Double.random(in: -200...600, using: &random), y = Double.random(in: -200...600, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return ScreenRect(x: x, y: y, width: 0, height: 0)
        case 1: return ScreenRect(x: x, y: y, width: Double.random(in: 300...2000, using: &random), height: 40)
        case 2: return ScreenRect(x: x * 1e300, y: y, width: 10, height: 10)
        case 3: return ScreenRect(x: .nan, y: y, width: 10, height: 10)
        default: return ScreenRect(x: x, y: y, width: Double.random(in: 0...80, using: &random), height: Double.random(in: 0...80, using: &random))
        }
    }

    /// Cells of 25 points (most queries walk a few cells) and of 1 point (most walk too many and read every box).
    /// The boxes reach beyond the grid's extent, into its edge cells.
    @Test(arguments: [1, 2, 3, 4] as [UInt64], [25.0, 1.0])
    func queriesFindWhatALinearScanFinds(seed: UInt64, cellSize: Double) {
        var random = SplitMix64(seed: seed)
        var grid = GridIndex(extent: ScreenRect(x: 0, y: 0, width: 400, height: 400), cellSize: cellSize)
        var model: [Int: ScreenRect] = [:]
        for _ in 0..<3000 {
            let key = Int.random(in: 0..<400, using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 {
                grid.remove(key)
                model[key] = nil
            } else {
                let box = Self.randomBox(&random)
                grid.insert(key, box)
                model[key] = box
            }
            #expect(grid.count == model.count)
            let area = Self.randomBox(&random)
            var seen: [Int] = []
            grid.forEach(meeting: area) { seen.append($0) }
            #expect(seen.count == Set(seen).count, "each key once")
            #expect(seen.sorted() == model.filter { Self.meets($0.value, area) }.keys.sorted())
            let wanted = Int.random(in: 0..<3, using: &random)
            #expect(grid.contains(meeting: area) { $0 % 3 == wanted } == seen.contains { $0 % 3 == wanted })
            var tested = 0
            #expect(grid.contains(meeting: area) { _ in tested += 1; return true } == !seen.isEmpty)
            #expect(tested == min(seen.count, 1), "the walk stops at the first key that passes")
        }
        for (key, box) in model { #expect(grid.box(key) == box || box.x.isNaN) }
    }

    /// The nearest of many points (some on the same spot, some far out), against a scan of all of them.
    @Test(arguments: [5, 6, 7] as [UInt64])
    func theNearestIsTheNearestOfAScan(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var grid = GridIndex(extent: ScreenRect(x: 0, y: 0, width: 300, height: 300), cellSize: 6)
        var points: [Int: ScreenPoint] = [:]
        for key in 0..<600 {
            let point = key % 50 == 49 ? points[key - 1]! : ScreenPoint(x: Double.random(in: 0...300, using: &random), y: Double.random(in: 0...300, using: &random))
            points[key] = point
            grid.insert(key, ScreenRect(x: point.x, y: point.y, width: 0, height: 0))
        }
        for key in stride(from: 0, to: 600, by: 3) {
            grid.remove(key)
            points[key] = nil
        }
        for _ in 0..<500 {
            let probe = ScreenPoint(x: Double.random(in: -50...350, using: &random), y: Double.random(in: -50...350, using: &random))
            let radius = Double.random(in: 0...60, using: &random)
            func squared(_ key: Int) -> Double { let p = points[key]!; return (p.x - probe.x) * (p.x - probe.x) + (p.y - probe.y) * (p.y - probe.y) }
            let scan = points.keys.filter { squared($0) < radius * radius }.min { (squared($0), $0) < (squared($1), $1) }
            #expect(grid.nearest(to: probe, squaredRadius: radius * radius, squaredDistance: squared) == scan)
        }
    }

    @Test func aQueryOverEverythingFindsEveryFiniteBox() {
        var grid = GridIndex(extent: ScreenRect(x: 0, y: 0, width: 500, height: 300), cellSize: 10)
        for key in 0..<50 { grid.insert(key, ScreenRect(x: Double(key * 37 % 500), y: Double(key * 11 % 300), width: 5, height: 5)) }
        let everything = ScreenRect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
        #expect(grid.keys(meeting: everything) == Array(0..<50))
    }
}
