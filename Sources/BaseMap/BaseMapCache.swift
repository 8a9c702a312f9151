import Foundation

/// The imported store as one binary file, so a process loads it in milliseconds instead of re-parsing
/// 10 MB of GeoJSON. It records a fingerprint of the sources (sizes and modification times) and is rebuilt
/// when they change.
public enum BaseMapCache {
    static let magic = "snapmap-basemap"
    static let formatVersion = 1
    public static let fileName = "basemap.bin"

    /// A description of the sources that changes whenever one of them does.
    public static func fingerprint(of sourceDirectory: URL) -> String {
        BaseMapImporter.sourceFiles.map { file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: sourceDirectory.appendingPathComponent(file).path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(file):\(size):\(Int(modified))"
        }.joined(separator: ";")
    }

    public static func write(_ store: BaseMapStore, fingerprint: String, to url: URL) throws {
        var writer = BinaryWriter()
        writer.append(magic)
        writer.append(formatVersion)
        writer.append(fingerprint)
        for table in [store.land, store.parks, store.streets] { encode(table, into: &writer) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(writer.bytes).write(to: url, options: .atomic)
    }

    /// The cached store, or nil when the file is missing, of another format or made from other sources.
    public static func read(from url: URL, fingerprint: String) throws(BaseMapError) -> BaseMapStore? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        var reader = BinaryReader(bytes: [UInt8](data), file: url.path)
        guard (try? reader.string()) == magic, (try? reader.int()) == formatVersion, (try? reader.string()) == fingerprint else { return nil }
        let land = try decode(&reader)
        let parks = try decode(&reader)
        let streets = try decode(&reader)
        return BaseMapStore(land: land, parks: parks, streets: streets)
    }

    private static func encode(_ table: FeatureTable, into writer: inout BinaryWriter) {
        writer.append(table.xs)
        writer.append(table.ys)
        writer.append(table.partEnds)
        writer.append(table.featureEnds)
        writer.append(table.minXs)
        writer.append(table.minYs)
        writer.append(table.maxXs)
        writer.append(table.maxYs)
        writer.append(table.classes)
        writer.append(table.names.count)
        for name in table.names { writer.append(name) }
    }

    private static func decode(_ reader: inout BinaryReader) throws(BaseMapError) -> FeatureTable {
        var table = FeatureTable()
        table.xs = try reader.doubles()
        table.ys = try reader.doubles()
        table.partEnds = try reader.ints()
        table.featureEnds = try reader.ints()
        table.minXs = try reader.doubles()
        table.minYs = try reader.doubles()
        table.maxXs = try reader.doubles()
        table.maxYs = try reader.doubles()
        table.classes = try reader.uint8s()
        let nameCount = try reader.int()
        table.names = []
        for _ in 0..<nameCount { table.names.append(try reader.string()) }
        let count = table.featureEnds.count
        guard table.xs.count == table.ys.count, [table.minXs.count, table.classes.count, table.names.count].allSatisfy({ $0 == count }),
              table.partEnds.last ?? 0 == table.xs.count, table.featureEnds.last ?? 0 == table.partEnds.count else {
            throw BaseMapError(file: reader.file, message: "inconsistent cache tables")
        }
        return table
    }

    /// Loads the store from the cache in `cacheDirectory`, importing from `sourceDirectory` and writing the
    /// cache first when it is missing or stale.
    public static func load(cacheDirectory: URL, sourceDirectory: URL) throws -> BaseMapStore {
        let url = cacheDirectory.appendingPathComponent(fileName)
        let print = fingerprint(of: sourceDirectory)
        if let cached = try read(from: url, fingerprint: print) { return cached }
        let store = try BaseMapImporter.importStore(from: sourceDirectory)
        try write(store, fingerprint: print, to: url)
        return store
    }
}
