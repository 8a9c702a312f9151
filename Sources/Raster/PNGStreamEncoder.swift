import Foundation

/// Encodes a frame handed over as bands of rows, top to bottom, holding only the compressed bands and the
/// rows not yet compressed: the bytes `PNGCodec.encode` makes of the whole frame (banded, as it encodes
/// frames this large), without ever holding the frame's canvas.
public final class PNGStreamEncoder {
    public let width: Int
    public let height: Int
    /// RGB when every pixel is promised opaque (a frame over the base map), RGBA otherwise.
    private let opaque: Bool
    private let options: PNGCodec.Options
    private let filter: Int32
    private let count: Int
    private var bands: [PNGBands.Band] = []
    /// Converted rows not yet compressed, starting at frame row `pendingFirst`, and the row before them.
    private var pending: [UInt8] = []
    private var pendingFirst = 0
    private var previousRow: [UInt8] = []
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
    }

    private var channels: Int { opaque ? 3 : 4 }
    private var rowBytes: Int { width * channels }
    /// The frame row the next band must start at.
    public var nextRow: Int { pendingFirst + pending.count / rowBytes }

    /// Takes the next band of the frame (a canvas whose `originY` is `nextRow`) and compresses every PNG band
    /// its rows complete, on every core.
    public func append(_ band: Canvas) throws(RasterError) {
        guard band.width == width, band.originY == nextRow, nextRow + band.height <= height else {
            throw .invalid(field: "band", reason: "expected rows from \(nextRow) of a \(width)-pixel-wide frame of \(height) rows")
        }
        let bandOpaque = band.isOpaque
        guard bandOpaque || !opaque else { throw .invalid(field: "band", reason: "a frame promised opaque has translucent pixels") }
        allOpaque = allOpaque && bandOpaque
        pending += band.straightRGBA8(dropAlpha: opaque, knownOpaque: opaque)
        try compressCompleteBands()
    }

    /// The PNG; nil when the frame was encoded as RGBA but every pixel turned out opaque (encode it whole).
    public func finish() throws(RasterError) -> [UInt8]? {
        guard nextRow == height, bands.count == count else {
            throw .invalid(field: "bands", reason: "the frame has \(height) rows, \(nextRow) were appended")
        }
        if !opaque && allOpaque { return nil }
        return try PNGBands.assemble(width: width, height: height, channels: channels, bands: bands)
    }

    private func compressCompleteBands() throws(RasterError) {
        let available = nextRow
        var ready: [Int] = []
        for index in bands.count..<count where PNGBands.rows(of: index, count: count, height: height).1 <= available { ready.append(index) }
        guard !ready.isEmpty else { return }
        let (width, channels, rowBytes, filter, options, count, height, first) = (width, channels, rowBytes, filter, options, count, height, pendingFirst)
        let previous = previousRow
        let compressed = pending.withUnsafeBufferPointer { rows in
            let shared = SharedRows(rows: rows.baseAddress!)
            return previous.withUnsafeBufferPointer { before in
                let above = SharedRows(rows: before.baseAddress ?? shared.rows)
                return ConcurrentBands.map(ready.count) { slot -> PNGBands.Band? in
                    let index = ready[slot]
                    let (top, end) = PNGBands.rows(of: index, count: count, height: height)
                    let start = shared.rows + (top - first) * rowBytes
                    let prior: UnsafePointer<UInt8>? = top == 0 ? nil : (top == first ? above.rows : start - rowBytes)
                    return PNGBands.compress(start, previous: prior, width: width, rows: end - top, channels: channels, filter: filter,
                                             options: options, last: index == count - 1)
                }
            }
        }
        guard compressed.allSatisfy({ $0 != nil }) else { throw .png("deflate failed") }
        bands += compressed.compactMap { $0 }
        let consumed = PNGBands.rows(of: ready.last!, count: count, height: height).1
        previousRow = Array(pending[((consumed - 1 - first) * rowBytes)..<((consumed - first) * rowBytes)])
        pending.removeFirst((consumed - first) * rowBytes)
        pendingFirst = consumed
    }

    /// Rows read by the compressing tasks while the encoder does not change them.
    private struct SharedRows: @unchecked Sendable {
        let rows: UnsafePointer<UInt8>
    }
}
