/// Which replica serves which viewer. The 16,384 Redis Cluster slots of viewers' ids (the hash tag `{p:ID}` all of a
/// person's keys share) are cut into `count` contiguous ranges of nearly equal size, and partition `index` (0-based)
/// serves the viewers whose slot falls in its range. The slot, not a hash of its own, so that a range of viewers is
/// a range of the store's own sharding on Redis Cluster (a replica's viewers' keys sit on known masters), the same
/// function on SQLite, and moving to more partitions splits ranges rather than reshuffling everyone.
public struct ViewPartition: Hashable, Sendable, CustomStringConvertible {
    /// Redis Cluster's slot count: at most this many partitions, so that none has an empty range.
    public static let slotCount = 16_384
    public let index: Int
    public let count: Int

    /// Partition `index` of `count`; the error names `field` and the ranges allowed.
    public init(index: Int, count: Int, field: String = "partition") throws(LiveMapError) {
        guard (1...Self.slotCount).contains(count) else {
            throw .invalid(field: field, message: "the partition count must be 1 to \(Self.slotCount); got \(count)")
        }
        guard (0..<count).contains(index) else {
            throw .invalid(field: field, message: "the partition index must be 0 to \(count - 1) of \(count); got \(index)")
        }
        self.init(valid: index, of: count)
    }

    private init(valid index: Int, of count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/P` (partition K of P, K counted from 0); the error names `field` and what it allows.
    public init(parsing text: String, field: String = "partition") throws(LiveMapError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalid(field: field, message: "must be K/P, partition K (0 to P - 1) of P (1 to \(Self.slotCount)); got \"\(text.prefix(40))\"")
        }
        try self.init(index: index, count: count, field: field)
    }

    /// The slots this partition's viewers' ids fall in.
    public var slots: Range<Int> { index * Self.slotCount / count ..< (index + 1) * Self.slotCount / count }

    /// Whether this partition serves `viewer`.
    public func serves(_ viewer: PersonID) -> Bool { slots.contains(Self.slot(of: viewer)) }

    /// The partition of the same count that serves `viewer`.
    public func serving(_ viewer: PersonID) -> ViewPartition {
        // The ranges' bounds are floor(i * slots / count), so the slot's range is the largest i whose bound is at most it.
        let slot = Self.slot(of: viewer)
        return ViewPartition(valid: ((slot + 1) * count - 1) / Self.slotCount, of: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The Redis Cluster slot of `id`'s keys: CRC16/XMODEM of `p:ID` modulo 16,384.
    public static func slot(of id: PersonID) -> Int {
        var crc: UInt16 = 0
        for byte in Array("p:".utf8) + Array(id.rawValue.utf8) {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return Int(crc) % slotCount
    }
}
