import CPNG
import Foundation
import Parallel

/// A banded PNG encoding kept for reuse: each band's compressed bytes (and, from snapmap's own encoder, its filtered
/// bytes and parse), so that an image that differs from the encoded one in a few places (a shared layer with one
/// viewer's pins over it) recompresses only the bands those places touch, and in them redoes only the filtering and
/// parsing near the changed columns. The result is byte for byte what `PNGCodec.encode` makes of the new image.
public final class PNGBands: @unchecked Sendable {
    struct Band {
        let data: [UInt8]
        let adler: UInt
        let rawLength: UInt
        var kept: KeptParse?
    }

    /// A band's filtered bytes and parse, owned here and freed with the band.
    final class KeptParse: @unchecked Sendable {
        let parse = UnsafeMutablePointer<cpng_band_parse>.allocate(capacity: 1)
        init() { parse.initialize(to: cpng_band_parse()) }
        deinit {
            cpng_band_parse_free(parse)
            parse.deallocate()
        }
    }

    public let width: Int
    public let height: Int
    /// The bytes kept: each band's compressed bytes and, when kept, its filtered bytes and parse.
    public var byteCount: Int {
        bands.reduce(0) { $0 + $1.data.count + ($1.kept.map { Int(cpng_band_parse_bytes($0.parse)) } ?? 0) }
    }
    let channels: Int
    let options: PNGCodec.Options
    let bands: [Band]

    /// Encodes `canvas` band by band (as `PNGCodec.encode` does for images this large) and keeps the bands.
    public init(_ canvas: Canvas, options: PNGCodec.Options = .snapmap) throws(RasterError) {
        let opaque = canvas.isOpaque
        let channels = opaque ? 3 : 4
        let pixels = canvas.straightRGBA8(dropAlpha: opaque, knownOpaque: opaque)
        let count = PNGCodec.bandCount(height: canvas.height, options: options)
        let rowBytes = canvas.width * channels
        let filter = try Self.filterType(options)
        let keep = options.strategy == .fast && channels == 3
        let results = ParallelFor.map(count) { index -> Band? in
            let (first, end) = Self.rows(of: index, count: count, height: canvas.height)
            return pixels.withUnsafeBufferPointer { source in
                Self.compress(source.baseAddress! + first * rowBytes, previous: first > 0 ? source.baseAddress! + (first - 1) * rowBytes : nil,
                              width: canvas.width, rows: end - first, channels: channels, filter: filter, options: options, last: index == count - 1,
                              keep: keep)
            }
        }
        guard results.allSatisfy({ $0 != nil }) else { throw .png("deflate failed") }
        width = canvas.width
        height = canvas.height
        self.channels = channels
        self.options = options
        bands = results.compactMap { $0 }
    }

    /// The PNG of the kept bands.
    public func png() throws(RasterError) -> [UInt8] {
        try Self.assemble(width: width, height: height, channels: channels, bands: bands)
    }

    /// The PNG of `canvas`, which is `base` (the canvas these bands encode) with some pixels changed. A copy of
    /// `base` (`Canvas.copy`, `reset(to:)`) is spliced where it was drawn on; another canvas is compared band by band
    /// and its changed bands recompressed; one that cannot share the bands is encoded whole.
    public func png(of canvas: Canvas, over base: Canvas) throws(RasterError) -> [UInt8] {
        if canvas.isCopy(of: base), canvas.width == width, canvas.height == height,
           bands.allSatisfy({ $0.kept != nil }), let png = try spliced(canvas) {
            return png
        }
        let opaque = canvas.isOpaque
        guard canvas.width == width, canvas.height == height, base.width == width, base.height == height, (opaque ? 3 : 4) == channels else {
            return try PNGCodec.encode(canvas, options: options)
        }
        let count = bands.count
        let filter = try Self.filterType(options)
        let results = ParallelFor.map(count) { index -> Band? in
            let (first, end) = Self.rows(of: index, count: count, height: height)
            let from = max(0, first - 1)
            if canvas.rowsEqual(base, from: from, to: end) { return bands[index] }
            let pixels = canvas.straightRGBA8(rows: from..<end, dropAlpha: opaque)
            let rowBytes = width * channels
            return pixels.withUnsafeBufferPointer { source in
                Self.compress(source.baseAddress! + (first - from) * rowBytes, previous: first > 0 ? source.baseAddress! : nil, width: width,
                              rows: end - first, channels: channels, filter: filter, options: options, last: index == count - 1)
            }
        }
        guard results.allSatisfy({ $0 != nil }) else { throw .png("deflate failed") }
        return try Self.assemble(width: width, height: height, channels: channels, bands: results.compactMap { $0 })
    }

    static func rows(of index: Int, count: Int, height: Int) -> (Int, Int) {
        (height * index / count, height * (index + 1) / count)
    }

    static func filterType(_ options: PNGCodec.Options) throws(RasterError) -> Int32 {
        guard let type = [PNGCodec.Filter.none: Int32(0), .sub: 1, .up: 2][options.filter] else {
            throw .invalid(field: "filter", reason: "banded encoding takes one fixed filter: none, sub or up")
        }
        return type
    }

    /// The PNG of `canvas`, a copy of the encoded canvas changed only where it was drawn on since: bands nothing was
    /// drawn in are reused, the others spliced; nil when a pixel drawn is not opaque (the PNG then needs alpha).
    private func spliced(_ canvas: Canvas) throws(RasterError) -> [UInt8]? {
        let count = bands.count
        let filter = try Self.filterType(options)
        let results = ParallelFor.map(count) { index -> Result<Band, SpliceFailure> in
            let (first, end) = Self.rows(of: index, count: count, height: height)
            // The changed columns of the row above the band (which its first row is filtered against), then its rows'.
            let perRow = TouchedColumns.spansPerRow
            var changed = [Int32](repeating: 0, count: 2 * perRow * (end - first + 1))
            var any = false
            for row in max(0, first - 1)..<end where canvas.touched.isTouched(row) {
                for (slot, columns) in canvas.touched.columns(of: row).enumerated() {
                    let at = 2 * (perRow * (row - first + 1) + slot)
                    (changed[at], changed[at + 1]) = (Int32(columns.lowerBound), Int32(columns.upperBound))
                }
                any = true
            }
            guard any, let kept = bands[index].kept else { return .success(bands[index]) }
            return canvas.storage.withUnsafeBufferPointer { pixels in
                let rows = pixels.baseAddress! + first * width * 4
                var base = cpng_band(data: nil, length: 0, adler: bands[index].adler, raw_length: bands[index].rawLength)
                var band = cpng_band()
                let status = cpng_splice_band(&base, kept.parse, rows, first > 0 ? rows - width * 4 : nil, UInt32(width), UInt32(end - first), filter,
                                              index == count - 1 ? 1 : 0, changed, Int32(perRow), &band)
                guard status == 0, let data = band.data else { return .failure(status == CPNG_NOT_OPAQUE ? .notOpaque : .deflate) }
                defer { cpng_band_free(&band) }
                return .success(Band(data: Array(UnsafeBufferPointer(start: data, count: band.length)), adler: band.adler, rawLength: band.raw_length))
            }
        }
        var spliced: [Band] = []
        for result in results {
            switch result {
            case .success(let band): spliced.append(band)
            case .failure(.notOpaque): return nil
            case .failure(.deflate): throw .png("deflate failed")
            }
        }
        return try Self.assemble(width: width, height: height, channels: channels, bands: spliced)
    }

    /// Why a band could not be spliced.
    enum SpliceFailure: Error {
        case notOpaque, deflate
    }

    static func compress(_ rows: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>?, width: Int, rows count: Int, channels: Int,
                         filter: Int32, options: PNGCodec.Options, last: Bool, keep: Bool = false) -> Band? {
        var band = cpng_band()
        let kept = keep ? KeptParse() : nil
        guard cpng_compress_band(rows, previous, UInt32(width), UInt32(count), Int32(channels), Int32(options.level), filter,
                                 options.strategy.rawValue, last ? 1 : 0, &band, kept?.parse) == 0,
              let data = band.data else { return nil }
        defer { cpng_band_free(&band) }
        return Band(data: Array(UnsafeBufferPointer(start: data, count: band.length)), adler: band.adler, rawLength: band.raw_length, kept: kept)
    }

    static func assemble(width: Int, height: Int, channels: Int, bands: [Band]) throws(RasterError) -> [UInt8] {
        var message = [CChar](repeating: 0, count: 256)
        var buffer = cpng_buffer()
        defer { cpng_buffer_free(&buffer) }
        var joined = [UInt8]()
        joined.reserveCapacity(bands.reduce(0) { $0 + $1.data.count })
        for band in bands { joined += band.data }
        let status = joined.withUnsafeMutableBufferPointer { bytes in
            var offset = 0
            let descriptors = bands.map { band in
                defer { offset += band.data.count }
                return cpng_band(data: bytes.baseAddress! + offset, length: band.data.count, adler: band.adler, raw_length: band.rawLength)
            }
            return descriptors.withUnsafeBufferPointer {
                cpng_assemble(UInt32(width), UInt32(height), Int32(channels), $0.baseAddress, Int32($0.count), &buffer, &message, message.count)
            }
        }
        guard status == 0, let data = buffer.data else { throw .png(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }
}
