import Foundation
import Testing
@testable import BaseMap

/// A damaged `basemap.bin` is refused with its name (and rebuilt when the sources are there), never trusted.
@Suite("Corrupt base map caches")
struct CorruptCacheTests {
    static func cache() throws -> (URL, String, [UInt8]) {
        let store = BaseMapStore(land: FeatureTable(), parks: FeatureTable(), streets: FeatureTable())
        var table = FeatureTable()
        table.xs = [1, 2, 3]
        table.ys = [4, 5, 6]
        table.partEnds = [3]
        table.featureEnds = [1]
        table.minXs = [1]
        table.minYs = [4]
        table.maxXs = [3]
        table.maxYs = [6]
        table.classes = [0]
        table.names = ["a"]
        table.values = [0]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-cache-\(UUID().uuidString)/basemap.bin")
        try BaseMapCache.write(BaseMapStore(land: table, parks: store.parks, streets: store.streets), fingerprint: "test", to: url)
        return (url, "test", [UInt8](try Data(contentsOf: url)))
    }

    /// Writes `bytes` with the checksum recomputed, so only the table checks can catch what was changed.
    static func rewrite(_ url: URL, _ bytes: [UInt8]) throws {
        var payload = Array(bytes.dropLast(8))
        let sum = BaseMapCache.checksum(payload[...])
        for shift in stride(from: 0, to: 64, by: 8) { payload.append(UInt8(truncatingIfNeeded: sum >> UInt64(shift))) }
        try Data(payload).write(to: url)
    }

    @Test func theCacheRoundTripsAndAFlippedByteFailsItsChecksum() throws {
        let (url, print, bytes) = try Self.cache()
        #expect(try BaseMapCache.read(from: url, fingerprint: print)?.land.xs == [1, 2, 3])
        var damaged = bytes
        damaged[bytes.count - 20] ^= 0x40
        try Data(damaged).write(to: url)
        #expect { try BaseMapCache.read(from: url, fingerprint: print) } throws: { "\($0)".contains("checksum") && "\($0)".contains(url.path) }
    }

    @Test(arguments: [Int64(1) << 61, Int64(1) << 40, -5])
    func hugeOrNegativeCountsAreRefusedBeforeAllocating(count: Int64) throws {
        let (url, print, bytes) = try Self.cache()
        let header = 8 + "snapmap-basemap".utf8.count + 8 + 8 + print.utf8.count
        var damaged = bytes
        for shift in 0..<8 { damaged[header + shift] = UInt8(truncatingIfNeeded: count >> Int64(8 * shift)) }
        try Self.rewrite(url, damaged)
        #expect { try BaseMapCache.read(from: url, fingerprint: print) } throws: { "\($0)".contains("corrupt") || "\($0)".contains("truncated") }
    }

    @Test(arguments: [Double.nan, 1e300])
    func coordinatesOutsideTheWorldAreRefused(value: Double) throws {
        let (url, print, bytes) = try Self.cache()
        let header = 8 + "snapmap-basemap".utf8.count + 8 + 8 + print.utf8.count
        var damaged = bytes
        for shift in 0..<8 { damaged[header + 8 + shift] = UInt8(truncatingIfNeeded: value.bitPattern >> UInt64(8 * shift)) }
        try Self.rewrite(url, damaged)
        #expect { try BaseMapCache.read(from: url, fingerprint: print) } throws: { "\($0)".contains("outside the world") }
    }
}
