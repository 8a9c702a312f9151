import BaseMap
import GeoCore
import Routing
import Testing

/// The graph's junctions, arcs and one-way handling on small networks made in the test.
@Suite struct GraphTests {
    static let speeds = try! StreetSpeeds(kilometresPerHour: Dictionary(uniqueKeysWithValues: StreetClass.allCases.map { ($0.rawValue, 36) }))

    @Test func junctionsAreSharedVerticesAndLineEnds() {
        let cross = [
            StreetLine(points: [.init(x: 0, y: 0), .init(x: 50, y: 0), .init(x: 100, y: 0), .init(x: 150, y: 0)], streetClass: .residential),
            StreetLine(points: [.init(x: 100, y: -50), .init(x: 100, y: 0), .init(x: 100, y: 50)], streetClass: .primary),
        ]
        let graph = RoadGraph(lines: cross, speeds: Self.speeds)
        #expect(Set(graph.junctions) == [.init(x: 0, y: 0), .init(x: 150, y: 0), .init(x: 100, y: 0), .init(x: 100, y: -50), .init(x: 100, y: 50)])
        #expect(graph.edgeCount == 4)
        #expect(graph.arcHead.count == 8, "two-way streets give an arc each way")
        #expect(graph.geometry(of: 0).count == 3, "the unshared vertex (50, 0) stays inside the first edge")
    }

    @Test func aOneWayStreetIsDrivenOnlyAlongItsDirection() {
        let corner = WebMercator.projectUnchecked(lat: 40.68, lon: -73.98)
        func at(_ dx: Double, _ dy: Double) -> MercatorPoint { MercatorPoint(x: corner.x + dx, y: corner.y + dy) }
        let lines = [
            StreetLine(points: [at(0, 0), at(130, 0)], streetClass: .residential, direction: .forward),
            StreetLine(points: [at(0, 0), at(0, 130), at(130, 130), at(130, 0)], streetClass: .residential),
        ]
        let graph = RoadGraph(lines: lines, speeds: Self.speeds)
        let hierarchy = ContractionHierarchy(graph: graph)
        var search = RouteSearch(nodeCount: graph.nodeCount)
        let (a, b) = (Int32(graph.junctions.firstIndex(of: at(0, 0))!), Int32(graph.junctions.firstIndex(of: at(130, 0))!))
        let along = search.shortest(in: hierarchy, from: [.init(node: a, cost: 0)], to: [.init(node: b, cost: 0)])
        let against = search.shortest(in: hierarchy, from: [.init(node: b, cost: 0)], to: [.init(node: a, cost: 0)])
        #expect(graph.arcHead.count == 3, "one arc for the one-way street, two for the other")
        #expect(along?.cost == graph.edgeTime[0], "straight down the one-way street")
        #expect(against?.cost == graph.edgeTime[1], "around the block against it")
        #expect(graph.edgeTime[1] > 2.5 * graph.edgeTime[0])
    }

    /// Random directed grids (some streets one-way, random classes, some missing) against plain Dijkstra.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theHierarchyIsExactOnRandomDirectedGrids(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let size = 14
        var lines: [StreetLine] = []
        for row in 0..<size {
            for column in 0..<size {
                for (dx, dy) in [(1, 0), (0, 1)] where row + dy < size && column + dx < size && random.unit() < 0.85 {
                    let jitter = { (random: inout SplitMix64) in random.unit() * 30 }
                    let a = MercatorPoint(x: Double(column) * 100, y: Double(row) * 100)
                    let b = MercatorPoint(x: Double(column + dx) * 100, y: Double(row + dy) * 100)
                    let bend = MercatorPoint(x: (a.x + b.x) / 2 + jitter(&random), y: (a.y + b.y) / 2 + jitter(&random))
                    let direction: TravelDirection = [.both, .both, .forward, .backward][Int(random.next() % 4)]
                    lines.append(StreetLine(points: [a, bend, b], streetClass: StreetClass.allCases[Int(random.next() % 6)], direction: direction))
                }
            }
        }
        let speeds = try! StreetSpeeds(kilometresPerHour: Dictionary(uniqueKeysWithValues: StreetClass.allCases.enumerated().map { ($1.rawValue, Double(10 + 7 * $0)) }))
        let graph = RoadGraph(lines: lines, speeds: speeds)
        let hierarchy = ContractionHierarchy(graph: graph)
        var search = RouteSearch(nodeCount: graph.nodeCount)
        for _ in 0..<200 {
            let source = Int32(random.next() % UInt64(graph.nodeCount)), target = Int32(random.next() % UInt64(graph.nodeCount))
            let fast = search.shortest(in: hierarchy, from: [.init(node: source, cost: 0)], to: [.init(node: target, cost: 0)])
            let reference = Dijkstra.shortest(in: graph, from: [.init(node: source, cost: 0)], to: [.init(node: target, cost: 0)])
            #expect((fast == nil) == (reference == nil))
            guard let fast, let reference else { continue }
            #expect(abs(fast.cost - reference.cost) <= 1e-9 * max(1, reference.cost))
            #expect(abs(fast.arcs.reduce(0) { $0 + graph.arcWeight[$1] } - fast.cost) <= 1e-9 * max(1, fast.cost))
            #expect(fast.arcs.first.map { graph.arcTail($0) } ?? source == source)
            #expect(fast.arcs.last.map { graph.arcHead[$0] } ?? target == target)
        }
    }

    @Test func speedsNameTheClassThatIsMissingOrOutOfRange() {
        var speeds = Dictionary(uniqueKeysWithValues: StreetClass.allCases.map { ($0.rawValue, 30.0) })
        speeds["primary"] = 400
        let outOfRange = #expect(throws: BadField.self) { try StreetSpeeds(kilometresPerHour: speeds) }
        #expect(outOfRange?.field == "speeds.primary")
        #expect(outOfRange?.message.contains("400.0") == true && outOfRange?.message.contains("allowed 1.0 … 130.0 km/h") == true, "\(String(describing: outOfRange))")
        speeds["primary"] = nil
        #expect(throws: BadField(field: "speeds.primary", message: "is missing: every street class needs a speed")) { try StreetSpeeds(kilometresPerHour: speeds) }
        speeds["primary"] = 30
        speeds["motorway"] = 80
        #expect(throws: BadField.self) { try StreetSpeeds(kilometresPerHour: speeds) }
    }
}
