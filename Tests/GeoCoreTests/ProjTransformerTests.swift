import Foundation
import Testing
@testable import GeoCore

@Suite("PROJ transformations")
struct ProjTransformerTests {
    private var prjURL: URL { TestSupport.sharedDirectory.appendingPathComponent("data/nyc/nybb_16a/nybb.prj") }
    private var shpURL: URL { TestSupport.sharedDirectory.appendingPathComponent("data/nyc/nybb_16a/nybb.shp") }

    /// The first vertex of the first polygon record of nybb.shp, read straight from the file's bytes.
    private func firstShorelineVertex() throws -> (x: Double, y: Double) {
        let bytes = [UInt8](try Data(contentsOf: shpURL))
        func littleInt32(_ offset: Int) -> Int {
            Int(Int32(bitPattern: UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24))
        }
        func littleDouble(_ offset: Int) -> Double {
            Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) })
        }
        let record = 100 + 8
        #expect(littleInt32(record) == 5, "nybb.shp's first record is a polygon")
        let partCount = littleInt32(record + 36)
        let firstPoint = record + 44 + 4 * partCount
        return (littleDouble(firstPoint), littleDouble(firstPoint + 8))
    }

    @Test func shorelineVertexFromEsriWktMatchesCs2cs() throws {
        let wkt = try String(contentsOf: prjURL, encoding: .utf8)
        let vertex = try firstShorelineVertex()
        let input = "\(vertex.x) \(vertex.y)\n"

        let degrees = TestSupport.numbers(try TestSupport.run("cs2cs", ["-f", "%.12f", wkt, "EPSG:4326"], input: input))
        let ours = try ProjTransformer.toWGS84(from: wkt).transform(x: vertex.x, y: vertex.y)
        #expect(abs(ours.y - degrees[0]) < 1e-10, "cs2cs gives latitude first; ours is normalized to longitude first")
        #expect(abs(ours.x - degrees[1]) < 1e-10)
        #expect((40.4...41.0).contains(ours.y) && (-74.3 ... -73.6).contains(ours.x), "the vertex lies in New York City")

        let metres = TestSupport.numbers(try TestSupport.run("cs2cs", ["-f", "%.6f", wkt, "EPSG:3857"], input: input))
        let mercator = try ProjTransformer.toWebMercator(from: wkt).transform(x: vertex.x, y: vertex.y)
        #expect(abs(mercator.x - metres[0]) < 0.001 && abs(mercator.y - metres[1]) < 0.001)
    }

    @Test func batchEqualsSinglePositions() throws {
        let transformer = try ProjTransformer.toWebMercator(from: "EPSG:2263")
        var xs = [970_217.0, 995_000.0, 1_010_000.0]
        var ys = [145_643.0, 200_000.0, 190_000.0]
        let singles = try zip(xs, ys).map { try transformer.transform(x: $0.0, y: $0.1) }
        try transformer.transform(xs: &xs, ys: &ys)
        for (index, single) in singles.enumerated() {
            #expect(xs[index] == single.x && ys[index] == single.y)
        }
    }

    @Test func projErrorsCarryProjsMessage() throws {
        let error = #expect(throws: ProjError.self) { try ProjTransformer.toWebMercator(from: "EPSG:999999") }
        #expect(error?.operation.contains("EPSG:999999") == true)
        #expect(error.map { !$0.message.isEmpty && $0.message != "unknown PROJ error" } == true)
        let transformer = try ProjTransformer.toWebMercator(from: ProjTransformer.wgs84)
        #expect(throws: ProjError.self) { try transformer.transform(x: 0, y: 95) }
        var xs = [0.0, 10.0]
        var ys = [0.0, 95.0]
        #expect(throws: ProjError.self) { try transformer.transform(xs: &xs, ys: &ys) }
    }
}
