import Foundation
import GeoCore

/// Reads RFC 7946 GeoJSON: a FeatureCollection (or a lone Feature) of LineString, MultiLineString, Polygon
/// (with holes) and MultiPolygon geometries with string and number properties. Other geometry types are
/// skipped; malformed input is an error naming the file and the path of the bad member.
public enum GeoJSONReader {
    public static func read(_ url: URL) throws(DataFileError) -> [SourceFeature] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DataFileError(file: url.path, message: "cannot read the file")
        }
        return try read(data, file: url.path)
    }

    public static func read(_ data: Data, file: String) throws(DataFileError) -> [SourceFeature] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw DataFileError(file: file, message: "malformed JSON: \(error.localizedDescription)")
        }
        guard let object = root as? [String: Any], let type = object["type"] as? String else {
            throw DataFileError(file: file, path: "type", message: "expected a GeoJSON object with a \"type\"")
        }
        switch type {
        case "FeatureCollection":
            guard let features = object["features"] as? [Any] else {
                throw DataFileError(file: file, path: "features", message: "expected an array of features")
            }
            var result: [SourceFeature] = []
            result.reserveCapacity(features.count)
            for (index, feature) in features.enumerated() {
                if let parsed = try parseFeature(feature, path: "features[\(index)]", file: file) { result.append(parsed) }
            }
            return result
        case "Feature":
            return try parseFeature(object, path: "", file: file).map { [$0] } ?? []
        default:
            throw DataFileError(file: file, path: "type", message: "expected FeatureCollection or Feature, got \"\(type)\"")
        }
    }

    private static func parseFeature(_ value: Any, path: String, file: String) throws(DataFileError) -> SourceFeature? {
        guard let feature = value as? [String: Any] else { throw DataFileError(file: file, path: path, message: "expected a Feature object") }
        guard let geometry = feature["geometry"] as? [String: Any] else { return nil }
        let geometryPath = path + ".geometry"
        guard let type = geometry["type"] as? String else {
            throw DataFileError(file: file, path: geometryPath + ".type", message: "missing geometry type")
        }
        let coordinates = geometry["coordinates"] as Any
        let coordinatesPath = geometryPath + ".coordinates"
        let parsed: SourceGeometry
        switch type {
        case "LineString":
            parsed = .lines([try positions(coordinates, path: coordinatesPath, file: file, minimum: 2)])
        case "MultiLineString":
            parsed = .lines(try list(coordinates, path: coordinatesPath, file: file) { item, itemPath throws(DataFileError) in
                try positions(item, path: itemPath, file: file, minimum: 2)
            })
        case "Polygon":
            parsed = .polygons([try rings(coordinates, path: coordinatesPath, file: file)])
        case "MultiPolygon":
            parsed = .polygons(try list(coordinates, path: coordinatesPath, file: file) { item, itemPath throws(DataFileError) in
                try rings(item, path: itemPath, file: file)
            })
        default:
            return nil
        }
        var properties: [String: PropertyValue] = [:]
        for (key, value) in feature["properties"] as? [String: Any] ?? [:] {
            if let text = value as? String {
                properties[key] = .string(text)
            } else if let number = value as? NSNumber {
                properties[key] = .number(number.doubleValue)
            }
        }
        return SourceFeature(geometry: parsed, properties: properties)
    }

    private static func list<T>(_ value: Any, path: String, file: String,
                                _ item: (Any, String) throws(DataFileError) -> T) throws(DataFileError) -> [T] {
        guard let array = value as? [Any] else { throw DataFileError(file: file, path: path, message: "expected an array") }
        var result: [T] = []
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() { result.append(try item(element, "\(path)[\(index)]")) }
        return result
    }

    private static func rings(_ value: Any, path: String, file: String) throws(DataFileError) -> [[SourcePosition]] {
        let rings = try list(value, path: path, file: file) { item, itemPath throws(DataFileError) in
            try positions(item, path: itemPath, file: file, minimum: 4)
        }
        guard !rings.isEmpty else { throw DataFileError(file: file, path: path, message: "a polygon needs an outer ring") }
        return rings
    }

    private static func positions(_ value: Any, path: String, file: String, minimum: Int) throws(DataFileError) -> [SourcePosition] {
        let result = try list(value, path: path, file: file) { item, itemPath throws(DataFileError) in
            guard let pair = item as? [Any], pair.count >= 2, let x = (pair[0] as? NSNumber)?.doubleValue,
                  let y = (pair[1] as? NSNumber)?.doubleValue, x.isFinite, y.isFinite else {
                throw DataFileError(file: file, path: itemPath, message: "expected a position [lon, lat]")
            }
            guard (-180...180).contains(x), (-90...90).contains(y) else {
                throw DataFileError(file: file, path: itemPath, message: "position [\(x), \(y)] is out of range: lon −180…180, lat −90…90")
            }
            return SourcePosition(x: x, y: y)
        }
        guard result.count >= minimum else {
            throw DataFileError(file: file, path: path, message: "needs at least \(minimum) positions, got \(result.count)")
        }
        return result
    }
}
