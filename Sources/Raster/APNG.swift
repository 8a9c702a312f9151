import CZlib
import Foundation

/// Animated PNG (APNG 1.0): frames encoded by libpng as ordinary PNGs, joined into one file with the `acTL`,
/// `fcTL` and `fdAT` chunks of the specification, which libpng does not write. Readers without APNG support
/// show the first frame.
public enum APNG {
    /// One frame, kept as its PNG (an animation of full frames would not fit in memory as canvases), and how
    /// long it shows, in milliseconds.
    public struct Frame: Sendable {
        public let png: [UInt8]
        public let width: Int
        public let height: Int
        public let delayMilliseconds: Int

        /// A frame already encoded as a PNG of `width`×`height`.
        public init(png: [UInt8], width: Int, height: Int, delayMilliseconds: Int) {
            self.png = png
            self.width = width
            self.height = height
            self.delayMilliseconds = delayMilliseconds
        }

        /// A frame of a canvas, encoded now.
        public init(canvas: Canvas, delayMilliseconds: Int) throws(RasterError) {
            self.init(png: try PNGCodec.encode(canvas), width: canvas.width, height: canvas.height, delayMilliseconds: delayMilliseconds)
        }
    }

    /// Joins frames of one size, played once: each frame's image data becomes the animation's.
    public static func encode(_ frames: [Frame]) throws(RasterError) -> [UInt8] {
        guard let first = frames.first, frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .invalid(field: "frames", reason: "an animation needs at least one frame, all of one size")
        }
        var output: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let chunks = try Self.chunks(of: frame.png)
            if index == 0 {
                guard let header = chunks.first(where: { $0.type == "IHDR" }) else { throw .png("a frame without IHDR") }
                append("IHDR", header.data, to: &output)
                append("acTL", bigEndian(UInt32(frames.count)) + bigEndian(1), to: &output)
            }
            let delay = UInt16(clamping: frames[index].delayMilliseconds)
            let control = bigEndian(sequence) + bigEndian(UInt32(first.width)) + bigEndian(UInt32(first.height))
                + bigEndian(0) + bigEndian(0) + [UInt8(delay >> 8), UInt8(delay & 0xFF), 0x03, 0xE8] + [0, 0]
            append("fcTL", control, to: &output)
            sequence += 1
            for data in chunks.filter({ $0.type == "IDAT" }).map(\.data) {
                if index == 0 {
                    append("IDAT", data, to: &output)
                } else {
                    append("fdAT", bigEndian(sequence) + data, to: &output)
                    sequence += 1
                }
            }
        }
        append("IEND", [], to: &output)
        return output
    }

    /// The chunks of a PNG, in order.
    static func chunks(of png: [UInt8]) throws(RasterError) -> [(type: String, data: [UInt8])] {
        var chunks: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length >= 0, offset + 12 + length <= png.count else { throw .png("a chunk runs past the end") }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    static func append(_ type: String, _ data: [UInt8], to output: inout [UInt8]) {
        output += bigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        output += typed
        output += bigEndian(CRC32.checksum(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}

/// The CRC-32 of PNG chunks (ISO 3309): zlib's `crc32`.
enum CRC32 {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    }
}
