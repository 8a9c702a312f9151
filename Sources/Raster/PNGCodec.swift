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

    /// zlib's strategies.
    public enum Strategy: Int32, Sendable {
        case standard = 0, filtered = 1, huffmanOnly = 2, runLength = 3
    }

    public struct Options: Hashable, Sendable {
        public var level: Int
        public var filter: Filter
        public var strategy: Strategy

        public init(level: Int, filter: Filter, strategy: Strategy = .standard) {
            self.level = level
            self.filter = filter
            self.strategy = strategy
        }

        /// libpng's defaults: zlib level 6, adaptive filtering.
        public static let libpngDefault = Options(level: 6, filter: .adaptive)
        /// snapmap's choice, measured by `make bench`: the up filter and zlib's run-length strategy suit the long flat
        /// runs of map images (about 2.5× faster than libpng's defaults and no larger on our frames).
        public static let snapmap = Options(level: 1, filter: .up, strategy: .runLength)
    }

    /// The largest image `decode` accepts, a side.
    public static let maxDecodeSide = Canvas.maxSide

    /// Encodes a canvas: un-premultiplied 8-bit RGB when every pixel is opaque, RGBA otherwise.
    public static func encode(_ canvas: Canvas, options: Options = .snapmap) throws(RasterError) -> [UInt8] {
        let opaque = canvas.isOpaque
        return try encode(pixels: canvas.straightRGBA8(dropAlpha: opaque), width: canvas.width, height: canvas.height,
                          channels: opaque ? 3 : 4, options: options)
    }

    /// Encodes straight 8-bit RGB (3 channels) or RGBA (4) rows.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int, options: Options) throws(RasterError) -> [UInt8] {
        guard (0...9).contains(options.level) else { throw .invalid(field: "level", reason: "\(options.level) is out of range: allowed 0 … 9") }
        guard channels == 3 || channels == 4 else { throw .invalid(field: "channels", reason: "must be 3 or 4, got \(channels)") }
        guard pixels.count == width * height * channels else {
            throw .invalid(field: "pixels", reason: "expected \(width * height * channels) bytes, got \(pixels.count)")
        }
        var buffer = cpng_buffer()
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer { source in
            cpng_encode(source.baseAddress, UInt32(width), UInt32(height), Int32(channels), Int32(options.level),
                        options.filter.mask, options.strategy.rawValue, &buffer, &message, message.count)
        }
        defer { cpng_buffer_free(&buffer) }
        guard status == 0, let data = buffer.data else { throw .png(String(cString: message)) }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
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
        guard status == 0, let pixels else { throw .png(String(cString: message)) }
        let rgba = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
        return try Image(width: Int(width), height: Int(height), straightRGBA: rgba)
    }
}
