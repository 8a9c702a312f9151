/// A tiny PNG writer independent of libpng (stored deflate blocks, CRC-32, Adler-32), used to feed the
/// decoder every colour type.
enum HandmadePNG {
    static func make(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]], extraChunks: [(String, [UInt8])] = []) -> [UInt8] {
        var raw: [UInt8] = []
        for row in rows { raw.append(0); raw.append(contentsOf: row) }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
        png += chunk("IHDR", header)
        for (name, data) in extraChunks { png += chunk(name, data) }
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func chunk(_ name: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(name.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
