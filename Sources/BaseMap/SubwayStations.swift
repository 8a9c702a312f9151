import Foundation
import GeoCore

/// The subway's stations from a GTFS `stops.txt`: the rows with `location_type` 1 (a station, the parent of its
/// platforms), each with its name and place. The file has no line geometry, so a station is a point and a name.
enum SubwayStations {
    static let file = "subway-stops.txt"

    struct Station: Equatable {
        let name: String
        let lat: Double
        let lon: Double
    }

    /// Reads the stations; a missing column, or a station whose name is blank or whose place is not a coordinate,
    /// is an error naming the file, the line and the column.
    static func read(_ url: URL) throws(DataFileError) -> [Station] {
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            throw DataFileError(file: url.path, message: "cannot read the GTFS stops file as UTF-8")
        }
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(fields)
        guard !lines.isEmpty else { throw DataFileError(file: url.path, message: "empty: expected a header line") }
        let header = lines.removeFirst().map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{FEFF}", with: "") }
        func column(_ name: String) throws(DataFileError) -> Int {
            guard let index = header.firstIndex(of: name) else { throw DataFileError(file: url.path, path: "header", message: "missing column \(name)") }
            return index
        }
        let (name, lat, lon, type) = (try column("stop_name"), try column("stop_lat"), try column("stop_lon"), try column("location_type"))
        var stations: [Station] = []
        for (offset, row) in lines.enumerated() where row.count > type && row[type] == "1" {
            let path = "line \(offset + 2)"
            guard row.count == header.count else {
                throw DataFileError(file: url.path, path: path, message: "\(row.count) columns, the header has \(header.count)")
            }
            guard let latitude = Double(row[lat]), let longitude = Double(row[lon]), (try? Coordinate(lat: latitude, lon: longitude)) != nil else {
                throw DataFileError(file: url.path, path: path + ".stop_lat,stop_lon",
                                    message: "\"\(row[lat]),\(row[lon])\" is not a coordinate: lat within −85.05…85.05, lon within −180…180")
            }
            let stationName = row[name].trimmingCharacters(in: .whitespaces)
            guard !stationName.isEmpty else { throw DataFileError(file: url.path, path: path + ".stop_name", message: "a station needs a name") }
            stations.append(Station(name: stationName, lat: latitude, lon: longitude))
        }
        return stations
    }

    /// One CSV line's fields (RFC 4180: a field in double quotes may hold commas, and "" is a quote).
    static func fields<Line: StringProtocol>(_ line: Line) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var previous: Character?
        for character in line {
            switch (character, quoted) {
            case ("\"", false) where field.isEmpty && previous != "\"": quoted = true
            case ("\"", false) where previous == "\"": field.append("\""); quoted = true
            case ("\"", true): quoted = false
            case (",", false): fields.append(field); field = ""
            default: field.append(character)
            }
            previous = character
        }
        fields.append(field)
        return fields
    }
}
