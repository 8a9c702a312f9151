import Foundation

/// Encodes a frame handed over as bands of rows, in any order and from any thread, holding only the compressed
/// bands and the rows a band of the encoding still waits for: the bytes `PNGCodec.encode` makes of the whole
/// frame (banded, as it encodes frames this large), without ever holding the frame's canvas. Bands cut by
/// `PNGCodec.drawingBands` are compressed as they come, on the thread that hands them over; the first band of
/// the encoding in each waits for the row above it.
public final class PNGStreamEncoder: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// RGB when every pixel is promised opaque (a frame over the base map), RGBA otherwise.
    private let opaque: Bool
    private let options: PNGCodec.Options
    private let filter: Int32
    private let count: Int
    private let lock = NSLock()
    /// Converted rows handed over and still needed by a band of the encoding not yet taken (all below: under `lock`).
    private var pieces: [(rows: Range<Int>, bytes: [UInt8])] = []
    private var handedOver: [Range<Int>] = []
    private var taken: [Bool]
    private var compressed: [PNGBands.Band?]
    private var failed = false
    /// Whether every pixel seen so far was opaque (an RGBA encoding of an opaque frame is not what `encode` makes).
    private var allOpaque = true

    /// An encoder of a `width`×`height` frame (at least `PNGCodec.minimumBandedPixels`).
    public init(width: Int, height: Int, opaque: Bool, options: PNGCodec.Options = .snapmap) throws(RasterError) {
        guard width * height >= PNGCodec.minimumBandedPixels, options.bands > 1 else {
            throw .invalid(field: "size", reason: "streamed encoding is for banded frames of at least \(PNGCodec.minimumBandedPixels) pixels")
        }
        self.width = width
        self.height = height
        self.opaque = opaque
        self.options = options
        filter = try PNGBands.filterType(options)
        count = PNGCodec.bandCount(height: height, options: options)
        taken = [Bool](repeating: false, count: count)
        compressed = [PNGBands.Band?](repeating: nil, count: count)
    }

    private var channels: Int { opaque ? 3 : 4 }
    private var rowBytes: Int { width * channels }

    /// Takes a band of the frame (a canvas whose `originY` is the frame row it starts at; no row twice) and
    /// compresses every band of the encoding whose rows, and the row above them, are now all here.
    public func append(_ band: Canvas) throws(RasterError) {
        let rows = band.originY..<(band.originY + band.height)
        guard band.width == width, rows.lowerBound >= 0, rows.upperBound <= height else {
            throw .invalid(field: "band", reason: "expected rows within 0..<\(height) of a \(width)-pixel-wide frame")
        }
        let bandOpaque: Bool
        let converted: [UInt8]
        if opaque {
            guard let rgb = band.opaqueRGB8(rows: 0..<band.height) else {
                throw .invalid(field: "band", reason: "a frame promised opaque has translucent pixels")
            }
            (bandOpaque, converted) = (true, rgb)
        } else {
            (bandOpaque, converted) = (band.isOpaque, band.straightRGBA8(rows: 0..<band.height, dropAlpha: false))
        }
        lock.lock()
        guard !handedOver.contains(where: { $0.overlaps(rows) }) else {
            lock.unlock()
            throw .invalid(field: "band", reason: "rows \(rows.lowerBound)..<\(rows.upperBound) overlap rows already handed over")
        }
        handedOver.append(rows)
        pieces.append((rows, converted))
        allOpaque = allOpaque && bandOpaque
        let jobs = takeReadyBands()
        pieces.removeAll { piece in !stillNeeded(piece.rows) }
        lock.unlock()
        for job in jobs {
            let (first, end) = PNGBands.rows(of: job.index, count: count, height: height)
            let result = job.bytes.withUnsafeBufferPointer { bytes in
                let start = bytes.baseAddress! + (first - job.firstRow) * rowBytes
                return PNGBands.compress(start, previous: first > 0 ? start - rowBytes : nil, width: width, rows: end - first, channels: channels,
                                         filter: filter, options: options, last: job.index == count - 1)
            }
            lock.lock()
            compressed[job.index] = result
            failed = failed || result == nil
            lock.unlock()
        }
    }

    /// The PNG; nil when the frame was encoded as RGBA but every pixel turned out opaque (encode it whole).
    public func finish() throws(RasterError) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard !failed else { throw .png("deflate failed") }
        guard handedOver.reduce(0, { $0 + $1.count }) == height, compressed.allSatisfy({ $0 != nil }) else {
            throw .invalid(field: "bands", reason: "the frame has \(height) rows, \(handedOver.reduce(0) { $0 + $1.count }) were handed over")
        }
        if !opaque && allOpaque { return nil }
        return try PNGBands.assemble(width: width, height: height, channels: channels, bands: compressed.compactMap { $0 })
    }

    /// A band of the encoding to compress, and converted rows from frame row `firstRow` that hold it and the row above.
    private struct Job {
        let index: Int
        let firstRow: Int
        let bytes: [UInt8]
    }

    /// The bands not yet taken whose rows and the row above are all here, marked taken (under `lock`).
    private func takeReadyBands() -> [Job] {
        var jobs: [Job] = []
        for index in 0..<count where !taken[index] {
            let (first, end) = PNGBands.rows(of: index, count: count, height: height)
            guard let (firstRow, bytes) = gathered(max(0, first - 1)..<end) else { continue }
            taken[index] = true
            jobs.append(Job(index: index, firstRow: firstRow, bytes: bytes))
        }
        return jobs
    }

    /// Converted rows holding all of `rows` and the frame row they start at, when all are here: the piece
    /// that holds them (not copied), or the pieces they span joined.
    private func gathered(_ rows: Range<Int>) -> (Int, [UInt8])? {
        if let piece = pieces.first(where: { $0.rows.contains(rows.lowerBound) && $0.rows.upperBound >= rows.upperBound }) {
            return (piece.rows.lowerBound, piece.bytes)
        }
        var joined: [UInt8] = []
        var row = rows.lowerBound
        while row < rows.upperBound {
            guard let piece = pieces.first(where: { $0.rows.contains(row) }) else { return nil }
            let end = min(piece.rows.upperBound, rows.upperBound)
            joined += piece.bytes[((row - piece.rows.lowerBound) * rowBytes)..<((end - piece.rows.lowerBound) * rowBytes)]
            row = end
        }
        return (rows.lowerBound, joined)
    }

    /// Whether a band of the encoding not yet taken reads any of `rows` (under `lock`).
    private func stillNeeded(_ rows: Range<Int>) -> Bool {
        (0..<count).contains { index in
            let (first, end) = PNGBands.rows(of: index, count: count, height: height)
            return !taken[index] && (max(0, first - 1)..<end).overlaps(rows)
        }
    }
}
