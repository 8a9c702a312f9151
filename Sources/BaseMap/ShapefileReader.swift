import Foundation
import GeoCore

/// Reads an ESRI Shapefile: `.shp` geometry (polyline and polygon records, with Z and M variants), `.shx`
/// record offsets, `.dbf` attributes (character and numeric fields) and the `.prj` WKT of its CRS.
public enum ShapefileReader {
    /// A shapefile's features in its own CRS, and that CRS as WKT.
    public struct Contents: Sendable {
        public let features: [SourceFeature]
        public let projectionWKT: String
    }

    static let polylineTypes: Set<Int> = [3, 13, 23]
    static let polygonTypes: Set<Int> = [5, 15, 25]

    /// Reads `base.shp`, `.shx`, `.dbf` and `.prj` (`base` without extension); each missing file is named.
    public static func read(base: URL) throws(DataFileError) -> Contents {
        let shp = try bytes(base.appendingPathExtension("shp"))
        let shx = try bytes(base.appendingPathExtension("shx"))
        let dbf = try bytes(base.appendingPathExtension("dbf"))
        let prjURL = base.appendingPathExtension("prj")
        guard let wkt = try? String(contentsOf: prjURL, encoding: .utf8) else {
            throw DataFileError(file: prjURL.path, message: "cannot read the projection file")
        }
        let geometries = try readGeometries(shp: shp, shx: shx)
        let attributes = try DBaseReader.read(dbf)
        guard attributes.count == geometries.count else {
            throw DataFileError(file: dbf.file, message: "has \(attributes.count) records but the .shp has \(geometries.count)")
        }
        let features = zip(geometries, attributes).compactMap { geometry, properties in
            geometry.map { SourceFeature(geometry: $0, properties: properties) }
        }
        return Contents(features: features, projectionWKT: wkt)
    }

    private static func bytes(_ url: URL) throws(DataFileError) -> ByteReader {
        guard let data = try? Data(contentsOf: url) else { throw DataFileError(file: url.path, message: "cannot read the file") }
        return ByteReader(bytes: [UInt8](data), file: url.path)
    }

    /// One geometry per record (nil for null shapes), located through the `.shx` index.
    static func readGeometries(shp: ByteReader, shx: ByteReader) throws(DataFileError) -> [SourceGeometry?] {
        guard try shp.int32BE(0, "file code") == 9994 else { throw DataFileError(file: shp.file, message: "not a shapefile (file code is not 9994)") }
        let headerLength = 100
        let recordCount = (shx.bytes.count - headerLength) / 8
        var result: [SourceGeometry?] = []
        result.reserveCapacity(recordCount)
        for record in 0..<recordCount {
            let offset = try shx.int32BE(headerLength + record * 8, "record \(record) offset") * 2
            let content = offset + 8
            let type = try shp.int32LE(content, "record \(record) shape type")
            if type == 0 {
                result.append(nil)
                continue
            }
            guard polylineTypes.contains(type) || polygonTypes.contains(type) else {
                throw DataFileError(file: shp.file, path: "record \(record)", message: "shape type \(type) is not a polyline or polygon")
            }
            let partCount = try shp.int32LE(content + 36, "record \(record) part count")
            let pointCount = try shp.int32LE(content + 40, "record \(record) point count")
            guard partCount > 0, pointCount > 0, partCount <= pointCount else {
                throw DataFileError(file: shp.file, path: "record \(record)", message: "\(partCount) parts and \(pointCount) points do not fit")
            }
            let pointsStart = content + 44 + 4 * partCount
            try shp.check(pointsStart, 16 * pointCount, "record \(record) points")
            var starts: [Int] = []
            for part in 0..<partCount { starts.append(try shp.int32LE(content + 44 + 4 * part, "record \(record) part \(part)")) }
            var parts: [[SourcePosition]] = []
            for (part, start) in starts.enumerated() {
                let end = part + 1 < starts.count ? starts[part + 1] : pointCount
                guard start >= 0, start < end, end <= pointCount else {
                    throw DataFileError(file: shp.file, path: "record \(record) part \(part)", message: "points \(start)..<\(end) are out of order")
                }
                var ring: [SourcePosition] = []
                ring.reserveCapacity(end - start)
                for index in start..<end {
                    let at = pointsStart + 16 * index
                    ring.append(SourcePosition(x: try shp.doubleLE(at, "point"), y: try shp.doubleLE(at + 8, "point")))
                }
                parts.append(ring)
            }
            result.append(polygonTypes.contains(type) ? .polygons([parts]) : .lines(parts))
        }
        return result
    }
}

/// Reads dBASE III tables: character fields as strings, numeric and float fields as numbers.
enum DBaseReader {
    static func read(_ dbf: ByteReader) throws(DataFileError) -> [[String: PropertyValue]] {
        let recordCount = Int(try dbf.uint32LE(4, "record count"))
        let headerLength = try dbf.uint16LE(8, "header length")
        let recordLength = try dbf.uint16LE(10, "record length")
        try dbf.check(0, headerLength, "the header of \(headerLength) bytes")
        guard recordLength > 0 || recordCount == 0 else { throw DataFileError(file: dbf.file, message: "corrupt: \(recordCount) records of 0 bytes") }
        try dbf.check(headerLength, recordCount * recordLength, "\(recordCount) records of \(recordLength) bytes")
        var fields: [(name: String, type: UInt8, offset: Int, length: Int)] = []
        var descriptor = 32
        var fieldOffset = 1
        while descriptor + 32 <= headerLength, dbf.bytes[descriptor] != 0x0D {
            let name = try dbf.ascii(descriptor, 11, "field name")
            let length = Int(dbf.bytes[descriptor + 16])
            fields.append((name, dbf.bytes[descriptor + 11], fieldOffset, length))
            fieldOffset += length
            descriptor += 32
        }
        var records: [[String: PropertyValue]] = []
        for record in 0..<recordCount {
            let start = headerLength + record * recordLength
            try dbf.check(start, recordLength, "record \(record)")
            var properties: [String: PropertyValue] = [:]
            for field in fields {
                let text = try dbf.ascii(start + field.offset, field.length, "field \(field.name)").trimmingCharacters(in: .whitespaces)
                switch field.type {
                case UInt8(ascii: "N"), UInt8(ascii: "F"):
                    if let number = Double(text) { properties[field.name] = .number(number) }
                default:
                    properties[field.name] = .string(text)
                }
            }
            records.append(properties)
        }
        return records
    }
}
