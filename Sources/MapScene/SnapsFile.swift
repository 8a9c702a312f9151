import Foundation
import GeoCore
import HeatMap
import LiveMap

/// Public Snaps as JSON Lines, one `{"at":…, "lat":…, "lon":…, "person":…}` a line: what `snapmap snaps import`
/// reads and `snapmap generate-activity` writes (`Data/williamsburg/snaps.jsonl`, the demo's Snaps).
public enum SnapsFile {
    public static let demoFile = "williamsburg/snaps.jsonl"
    public static let hotspotsFile = "williamsburg/hotspots.json"
    /// The most lines one file may hold.
    public static let maxLines = 1_000_000

    /// Reads a file; errors name the file, the line and the field.
    public static func read(_ url: URL) throws -> [PublicSnap] {
        guard let data = try? Data(contentsOf: url) else {
            throw DataFileError(file: url.path, path: "", message: "cannot read the file")
        }
        var snaps: [PublicSnap] = []
        let decoder = JSONDecoder()
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard snaps.count < maxLines else { throw DataFileError(file: url.lastPathComponent, path: "", message: "more than \(maxLines) lines") }
            let path = "line \(index + 1)"
            do {
                let record = try decoder.decode(ActivityGenerator.Snap.self, from: Data(line))
                guard let at = ISO8601Time.date(from: record.at) else {
                    throw LiveMapError.invalid(field: "at", message: "expected an ISO 8601 time such as \(ISO8601Time.example)")
                }
                let coordinate: Coordinate
                do { coordinate = try Coordinate(lat: record.lat, lon: record.lon) } catch { throw LiveMapError.invalid(field: "lat/lon", message: error.description) }
                snaps.append(try PublicSnap(person: PersonID(record.person, field: "person"), coordinate: coordinate, takenAt: at))
            } catch let error as LiveMapError {
                throw DataFileError(file: url.lastPathComponent, path: path, message: error.description)
            } catch {
                throw DataFileError.from(error, file: url.lastPathComponent + " " + path)
            }
        }
        return snaps
    }

    /// The generator's Snaps as the file's bytes (keys sorted, one object a line).
    public static func encode(_ snaps: [ActivityGenerator.Snap]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data()
        for snap in snaps {
            data.append(try encoder.encode(snap))
            data.append(UInt8(ascii: "\n"))
        }
        return data
    }
}
