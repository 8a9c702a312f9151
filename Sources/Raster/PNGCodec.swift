import CPNG
import Foundation

/// PNG through libpng: deterministic encoding (no time chunk) and decoding of any colour type libpng reads.
public enum PNGCodec {
    /// libpng's row filters.
    public enum Filter: String, Sendable, CaseIterable {
        case none, sub, up, average, paeth, adaptive

        var mask: Int32 {
            switch self {
            case .none: return cpng_filter_none()
            case .sub: return cpng_filter_sub()
            case .up: return cpng_filter_up()
            case .average: return cpng_filter_avg()
            case .paeth: return cpng_filter_paeth()
            case .adaptive: return cpng_filter_all()
            }
        }
    }

    /// zlib's strategies, and `fast`: snapmap's own deflate encoder in banded encodings (runs and repeated pixels,
    /// Huffman codes per block; images too small to band fall back to zlib's run-length strategy).
    public enum Strategy: Int32, Sendable {
        case standard = 0, filtered = 1, huffmanOnly = 2, runLength = 3
        case fast = 100

        /// The strategy zlib is given when the image is encoded whole by libpng.
        var zlib: Int32 { self == .fast ? Strategy.runLength.rawValue : rawValue }
    }

    public struct Options: Hashable, Sendable {
        public var level: Int
        public var filter: Filter
        public var strategy: Strategy
        /// When above 1, rows are compressed in at least this many independent bands on every core (one fixed
        /// filter: none, sub or up), and in bands of `bandRows` rows when there are more. The bytes depend on the
        /// image and the options, never on the number of cores.
        public var bands: Int

        public init(level: Int, filter: Filter, strategy: Strategy = .standard, bands: Int = 1) {
            self.level = level
            self.filter = filter
            self.strategy = strategy
            self.bands = bands
        }

        /// libpng's defaults: zlib level 6, adaptive filtering.
        public static let libpngDefault = Options(level: 6, filter: .adaptive)
        /// snapmap's choice, measured by `make bench`: the up filter and snapmap's own deflate encoder (runs and repeated
        /// pixels, per-block Huffman codes) in 8 bands compressed in parallel: on the Williamsburg frame's rows twice as
        /// fast as zlib's run-length strategy and 4% smaller; images too small to band take zlib's run-length strategy.
        public static let snapmap = Options(level: 1, filter: .up, strategy: .fast, bands: 8)
    }

    /// Rows per band when an image has more than `Options.bands` bands' worth: small enough that a frame whose
    /// pins changed a few rows recompresses only the bands they touch (`PNGBands`).
    public static let bandRows = 64

    /// The band count of a banded encoding of `height` rows.
    static func bandCount(height: Int, options: Options) -> Int {
        min(256, max(options.bands, height / bandRows), max(1, height))
    }

    /// Rows cut into bands of about `rows` rows to draw one by one: where the image is encoded in bands, each is
    /// made of whole bands of the encoding, so that a band drawn is compressed without waiting for the others
    /// (bar the first row's filter, which reads the row above).
    public static func drawingBands(width: Int, height: Int, near rows: Int, options: Options = .snapmap) -> [Range<Int>] {
        let parts = max(1, min(height, height / max(1, rows)))
        guard options.bands > 1, width * height >= minimumBandedPixels else {
            return (0..<parts).map { (height * $0 / parts)..<(height * ($0 + 1) / parts) }
        }
        let count = bandCount(height: height, options: options)
        let groups = min(parts, count)
        return (0..<groups).map { group in
            PNGBands.rows(of: count * group / groups, count: count, height: height).0..<PNGBands.rows(of: count * (group + 1) / groups - 1, count: count, height: height).1
        }
    }

    /// Images smaller than this are compressed in one band: splitting a tile costs more than it saves.
    public static let minimumBandedPixels = 512 * 512

    /// The largest image `decode` accepts, a side.
    public static let maxDecodeSide = Canvas.maxSide

    /// Encodes a canvas: un-premultiplied 8-bit RGB when every pixel is opaque, RGBA otherwise.
    public static func encode(_ canvas: Canvas, options: Options = .snapmap) throws(RasterError) -> [UInt8] {
        let opaque = canvas.isOpaque
        return try encode(pixels: canvas.straightRGBA8(dropAlpha: opaque, knownOpaque: opaque), width: canvas.width, height: canvas.height,
                          channels: opaque ? 3 : 4, options: options)
    }

    /// Encodes straight 8-bit RGB (3 channels) or RGBA (4) rows.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int, options: Options) throws(RasterError) -> [UInt8] {
        guard (0...9).contains(options.level) else { throw .invalid(field: "level", reason: "\(options.level) is out of range: allowed 0 … 9") }
        guard channels == 3 || channels == 4 else { throw .invalid(field: "channels", reason: "must be 3 or 4, got \(channels)") }
        guard pixels.count == width * height * channels else {
            throw .invalid(field: "pixels", reason: "expected \(width * height * channels) bytes, got \(pixels.count)")
        }
        guard (1...256).contains(options.bands) else { throw .invalid(field: "bands", reason: "\(options.bands) is out of range: allowed 1 … 256") }
        var buffer = cpng_buffer()
        var message = [CChar](repeating: 0, count: 256)
        let status: Int32
        if options.bands > 1 && width * height >= Self.minimumBandedPixels {
            guard let filterType = [Filter.none: 0, .sub: 1, .up: 2][options.filter] else {
                throw .invalid(field: "filter", reason: "banded encoding takes one fixed filter: none, sub or up")
            }
            let threads = Int32(max(1, ProcessInfo.processInfo.activeProcessorCount))
            status = pixels.withUnsafeBufferPointer { source in
                cpng_encode_chunked(source.baseAddress, UInt32(width), UInt32(height), Int32(channels), Int32(options.level), Int32(filterType),
                                    options.strategy.rawValue, Int32(bandCount(height: height, options: options)), threads, &buffer, &message, message.count)
            }
        } else {
            status = pixels.withUnsafeBufferPointer { source in
                cpng_encode(source.baseAddress, UInt32(width), UInt32(height), Int32(channels), Int32(options.level),
                            options.filter.mask, options.strategy.zlib, &buffer, &message, message.count)
            }
        }
        defer { cpng_buffer_free(&buffer) }
        guard status == 0, let data = buffer.data else { throw .png(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }

    /// Opaque premultiplied 16-bit pixels as 8-bit RGB, rounded as (v·255 + 32767) / 65535; whether all were opaque.
    static func rgb8(opaque source: UnsafePointer<UInt16>, pixels: Int, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        cpng_rgb8_from_rgba16(source, pixels, output) != 0
    }

    /// Decodes PNG bytes of any colour type; truncated or corrupt data is an error naming what libpng found.
    public static func decode(_ bytes: [UInt8]) throws(RasterError) -> Image {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { source in
            cpng_decode(source.baseAddress, source.count, UInt32(maxDecodeSide), UInt32(maxDecodeSide),
                        &pixels, &width, &height, &message, message.count)
        }
        defer { cpng_free(pixels) }
        guard status == 0, let pixels else { throw .png(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        let rgba = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
        return try Image(width: Int(width), height: Int(height), straightRGBA: rgba)
    }
}
