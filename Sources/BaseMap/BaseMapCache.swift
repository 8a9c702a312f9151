import Foundation
import GeoCore

/// The imported store as one binary file, so a process loads it in milliseconds instead of re-parsing
/// 10 MB of GeoJSON. It records a fingerprint of the sources (sizes and modification times) and is rebuilt
/// when they change.
public enum BaseMapCache {
    static let magic = "snapmap-basemap"
    /// 2: the payload ends with its FNV-1a checksum. 3: a fourth table, places, and a value per feature.
    /// 4: the checksum takes the payload eight bytes at a time (a byte at a time was a third of a render's start).
    /// 5: in four lanes of eight bytes. 6: neighbourhood names without the tabulation's qualifiers, one place per name.
    static let formatVersion = 6
    public static let fileName = "basemap.bin"

    /// A description of the sources that changes whenever one of them does (the water names file by content).
    public static func fingerprint(of sourceDirectory: URL, waterNames: URL) -> String {
        let sources = BaseMapImporter.sourceFiles.map { file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: sourceDirectory.appendingPathComponent(file).path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(file):\(size):\(Int(modified))"
        }
        let names = (try? Data(contentsOf: waterNames)).map { String(checksum([UInt8]($0)[...]), radix: 16) } ?? "missing"
        return (sources + ["water-names:\(names)"]).joined(separator: ";")
    }

    public static func write(_ store: BaseMapStore, fingerprint: String, to url: URL) throws {
        var writer = BinaryWriter()
        writer.append(magic)
        writer.append(formatVersion)
        writer.append(fingerprint)
        for table in [store.land, store.parks, store.streets, store.places] { encode(table, into: &writer) }
        writer.append(Int(Int64(bitPattern: checksum(writer.bytes[...]))))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(writer.bytes).write(to: url, options: .atomic)
    }

    /// FNV-1a, 64 bits, of a payload taken as little-endian 64-bit words (the last few bytes one by one).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// `checksum` of raw bytes: four FNV-1a lanes over 32-byte steps (each a chain of multiplies the processor
    /// overlaps with the others), folded into one with the remaining bytes.
    static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var lanes = SIMD4<UInt64>(repeating: FNV1a.offsetBasis)
        let steps = raw.count / 32
        for step in 0..<steps {
            func word(_ lane: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: step * 32 + lane * 8, as: UInt64.self)) }
            lanes ^= SIMD4(word(0), word(1), word(2), word(3))
            lanes &*= FNV1a.prime
        }
        var hasher = FNV1a(seed: lanes[0])
        for lane in 1..<4 { hasher.add(word: lanes[lane]) }
        for index in (steps * 32)..<raw.count { hasher.add(raw[index]) }
        return hasher.value
    }

    /// The cached store, or nil when the file is missing, of another format or made from other sources; a file
    /// that fails its checksum or any check of its tables is an error naming it.
    public static func read(from url: URL, fingerprint: String) throws(DataFileError) -> BaseMapStore? {
        // Mapped, not read: the tables are copied out of the file's pages once, as they are decoded.
        guard let bytes = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
        var reader = BinaryReader(bytes: bytes, file: url.path)
        guard (try? reader.string()) == magic, (try? reader.int()) == formatVersion, (try? reader.string()) == fingerprint else { return nil }
        guard bytes.count >= 8 else { throw DataFileError(file: url.path, message: "corrupt cache: too short") }
        var tail = BinaryReader(bytes: bytes.suffix(8), file: url.path)
        guard UInt64(bitPattern: Int64(try tail.int())) == bytes.withUnsafeBytes({ checksum(UnsafeRawBufferPointer(rebasing: $0.dropLast(8))) }) else {
            throw DataFileError(file: url.path, message: "corrupt cache: the checksum does not match its contents")
        }
        let land = try decode(&reader)
        let parks = try decode(&reader)
        let streets = try decode(&reader)
        let places = try decode(&reader)
        return BaseMapStore(land: land, parks: parks, streets: streets, places: places)
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
        writer.append(table.values)
    }

    private static func decode(_ reader: inout BinaryReader) throws(DataFileError) -> FeatureTable {
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
        table.values = try reader.doubles()
        let count = table.featureEnds.count
        guard table.xs.count == table.ys.count, [table.minXs.count, table.minYs.count, table.maxXs.count, table.maxYs.count, table.classes.count,
                                                 table.names.count, table.values.count].allSatisfy({ $0 == count }),
              table.partEnds.last ?? 0 == table.xs.count, table.featureEnds.last ?? 0 == table.partEnds.count,
              isNonDecreasing(table.partEnds), isNonDecreasing(table.featureEnds) else {
            throw DataFileError(file: reader.file, message: "corrupt cache: inconsistent tables")
        }
        let world = WebMercator.halfWorld * 1.0001
        guard table.values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw DataFileError(file: reader.file, message: "corrupt cache: a feature's value is not a finite, non-negative number")
        }
        for values in [table.xs, table.ys, table.minXs, table.minYs, table.maxXs, table.maxYs] where !values.allSatisfy({ $0.isFinite && abs($0) <= world }) {
            throw DataFileError(file: reader.file, message: "corrupt cache: a coordinate is not finite or outside the world")
        }
        return table
    }

    private static func isNonDecreasing(_ ends: [Int]) -> Bool {
        var previous = 0
        for end in ends {
            guard end >= previous else { return false }
            previous = end
        }
        return true
    }

    /// Loads the store from the cache in `cacheDirectory`, importing from `sourceDirectory` (and the water names
    /// file) and writing the cache first when it is missing or stale.
    public static func load(cacheDirectory: URL, sourceDirectory: URL, waterNames: URL) throws -> BaseMapStore {
        let url = cacheDirectory.appendingPathComponent(fileName)
        let print = fingerprint(of: sourceDirectory, waterNames: waterNames)
        var corruption: DataFileError?
        do {
            if let cached = try read(from: url, fingerprint: print) { return cached }
        } catch {
            corruption = error
        }
        let store: BaseMapStore
        do {
            store = try BaseMapImporter.importStore(from: sourceDirectory, waterNames: waterNames)
        } catch {
            guard let corruption else { throw error }
            throw DataFileError(file: url.path, message: "\(corruption.message), and it cannot be rebuilt: \(error)")
        }
        try write(store, fingerprint: print, to: url)
        return store
    }
}
