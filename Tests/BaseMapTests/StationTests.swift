import Foundation
import GeoCore
import Raster
import Testing
@testable import BaseMap

/// Subway stations from the GTFS stops file: imported as the file has them, marked from z14, named from z15 beside
/// their mark and never over another name.
@Suite("Subway stations")
struct StationTests {
    /// The file's stations read here with a plain split (it has no quoted fields; its lines end in CR LF): name, latitude, longitude.
    static func sourceStations() throws -> [(name: String, lat: Double, lon: Double)] {
        let text = try String(contentsOf: Fixtures.sourceDirectory.appendingPathComponent("subway-stops.txt"), encoding: .utf8)
        let rows = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = rows[0]
        let (name, lat, lon, type) = try (#require(header.firstIndex(of: "stop_name")), #require(header.firstIndex(of: "stop_lat")),
                                          #require(header.firstIndex(of: "stop_lon")), #require(header.firstIndex(of: "location_type")))
        return rows.dropFirst().filter { $0[type] == "1" }.map { ($0[name], Double($0[lat])!, Double($0[lon])!) }
    }

    /// The stations table holds the 499 stations of the file (not their platforms), by name, each at its coordinate
    /// projected by PROJ (EPSG:4326 to EPSG:3857) to within a millimetre.
    @Test func theStationsAreTheFilesProjectedAsPROJDoes() throws {
        let table = try Fixtures.store.get().places
        let stations = (0..<table.count).filter { table.classes[$0] == PlaceKind.station.rawValue }
        let source = try Self.sourceStations()
        #expect(source.count == 499 && stations.count == 499)
        #expect(stations.map { table.names[$0] }.sorted() == source.map(\.name).sorted())
        let proj = try ProjTransformer(source: "EPSG:4326", target: "EPSG:3857")
        var unmatched = source
        for index in stations {
            let first = table.points(ofPart: table.parts(of: index).lowerBound).lowerBound
            let position = try #require(unmatched.firstIndex { station in
                guard station.name == table.names[index], let expected = try? proj.transform(x: station.lon, y: station.lat) else { return false }
                return abs(expected.x - table.xs[first]) <= 0.001 && abs(expected.y - table.ys[first]) <= 0.001
            }, "\(table.names[index]) at (\(table.xs[first]), \(table.ys[first])) is a source station's place")
            unmatched.remove(at: position)
        }
        #expect(unmatched.isEmpty)
    }

    /// A station without a coordinate is refused naming the file, its line and the columns.
    @Test func aStationWithoutACoordinateNamesItsLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stops-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("stop_id,stop_name,stop_lat,stop_lon,location_type\nL08,Bedford Av,40.717304,-73.956872,1\nL10,Lorimer St,north,-73.95,1\n".utf8).write(to: file)
        #expect(throws: DataFileError.self) { try SubwayStations.read(file) }
        do {
            _ = try SubwayStations.read(file)
        } catch {
            #expect(error.path == "line 3.stop_lat,stop_lon" && error.message.contains("lat within"), "\(error)")
        }
        #expect(SubwayStations.fields(#"A,"B, C","say ""hi""",,D"#) == ["A", "B, C", #"say "hi""#, "", "D"])
    }

    /// The mark shows from z14 (its ring's colour at Bedford Av), not below; its name from z15, beside it.
    @Test func marksFromZoom14AndNamesFromZoom15() throws {
        let renderer = try Fixtures.renderer()
        let ring = try #require(renderer.style.places).stationMark.ring
        func ringPixels(_ zoom: Double) throws -> Int {
            let canvas = try renderer.render(try Fixtures.view(40.717304, -73.956872, zoom: zoom, size: 32, scale: 2))
            return (0..<canvas.height).map { y in (0..<canvas.width).filter { canvas.pixel(x: $0, y: y) == ring }.count }.reduce(0, +)
        }
        #expect(try ringPixels(13.9) == 0)
        #expect(try ringPixels(14) > 4)
        // A Williamsburg frame (the scene's size, centred between the three stations) at z15 and just below.
        func names(_ zoom: Double) throws -> [PlaceName] {
            let viewport = try Viewport(center: Coordinate(lat: 40.7135, lon: -73.9545), zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: 1)
            return renderer.placeNames(for: MapView(viewport: viewport)).filter { $0.kind == .station }
        }
        #expect(try names(14.9).isEmpty)
        let named = try names(15)
        #expect(Set(named.map(\.name)).isSuperset(of: ["Bedford Av", "Lorimer St", "Marcy Av"]), "\(named.map(\.name))")
    }

    /// At random frames over Williamsburg and Manhattan from z15 to z18, names (stations among them) never overlap
    /// one another or a pin, and a station's name box holds its mark.
    @Test func stationNamesNeverOverlapNamesOrPins() throws {
        let renderer = try Fixtures.renderer()
        let store = try Fixtures.store.get()
        var random = SplitMix64(seed: 31)
        var stations = 0
        for _ in 0..<80 {
            let frame = try Fixtures.view(Double.random(in: 40.70...40.76, using: &random), Double.random(in: -74.0 ... -73.94, using: &random),
                                          zoom: Double.random(in: 15...18, using: &random), size: 393, scale: 1)
            let pins = (0..<6).map { _ in Rect(x: Double.random(in: 0...340, using: &random), y: Double.random(in: 0...340, using: &random), width: 48, height: 48) }
            let names = renderer.placeNames(for: frame)
            let placements = renderer.namePlacements(names, of: frame, avoiding: pins)
            let boxes = placements.map { names[$0.name].outline($0.option).box }
            for (index, box) in boxes.enumerated() {
                #expect(!pins.contains { $0.overlaps(box) }, "\(box) covers a pin")
                for other in boxes[(index + 1)...] { #expect(!box.overlaps(other), "\(box) overlaps \(other)") }
            }
            let marks = StationMarks(store: store, look: try #require(renderer.style.places).stationMark, view: frame).boxes()
            for placement in placements where names[placement.name].kind == .station {
                stations += 1
                let box = names[placement.name].outline(placement.option).box
                let slack = 1e-6
                #expect(marks.contains { box.minX <= $0.minX + slack && box.minY <= $0.minY + slack && box.maxX >= $0.maxX - slack && box.maxY >= $0.maxY - slack },
                        "\(names[placement.name].name)'s box holds its mark")
            }
        }
        #expect(stations > 40, "the frames named stations: \(stations)")
    }
}
