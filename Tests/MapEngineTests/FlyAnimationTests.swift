import Foundation
import GeoCore
import Raster
import ServerTestSupport
import Testing
@testable import MapEngine

/// The fly-to as an APNG, checked by two independent readers: Pillow (Debian's python3-pil) and apngdis.
@Suite("The fly-to animation")
struct FlyAnimationTests {
    static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> (Int32, String) {
        let result = try TestProcess.run(URL(fileURLWithPath: program), arguments, directory: directory)
        return (result.status, result.output + result.errorOutput)
    }

    @Test func theAnimationDecodesWithItsFramesAndDelaysAndEndsOnTheSelectedFrame() throws {
        let engine = try EngineFixture.engine.get()
        let friends = try LiveFixture.samsFriends()
        let scene = engine.scene
        let start = try Viewport(center: scene.viewport.center, zoom: scene.viewport.zoom, size: scene.viewport.size, scale: 1, insets: scene.viewport.insets)
        let frames = try engine.flyAnimation(start, friends: friends, selected: "jordan", now: scene.capturedAt, framesPerSecond: 30)
        let directory = EngineFixture.temporaryURL("fly")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("fly.png")
        try Data(APNG.encode(frames)).write(to: file)
        let last = directory.appendingPathComponent("last.png")
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1])
            delays = []
            for index in range(image.n_frames):
                image.seek(index)
                delays.append(int(image.info.get("duration", 0)))
            image.convert("RGBA").save(sys.argv[2])
            print(image.n_frames, " ".join(map(str, delays)))
            """
        let (status, text) = try Self.run("/usr/bin/python3", ["-c", script, file.path, last.path])
        #expect(status == 0, "\(text)")
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        #expect(fields.first == frames.count && Array(fields.dropFirst()) == frames.map(\.delayMilliseconds), "Pillow read \(text)")
        #expect(frames.count > 10 && frames.last?.delayMilliseconds == 1000)
        let selected = try engine.renderSelectedFrame(start, friends: friends, selected: "jordan", now: scene.capturedAt)
        #expect(try PNGCodec.decode([UInt8](Data(contentsOf: last))).straightRGBA == selected.canvas.image().straightRGBA,
                "the last frame is the selected frame with its card")
        let (apngdis, output) = try Self.run("/usr/bin/apngdis", ["fly.png"], in: directory)
        #expect(apngdis == 0 && output.contains("all done"), "\(output)")
        let extracted = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("apngframe") && $0.hasSuffix(".png") }
        #expect(extracted.count == frames.count)
    }
}

extension FlyAnimationTests {
    /// Every frame of a fly-to is a full render: frames beyond `flyMaxPixels` are refused, naming the size.
    @Test func flyToFramesHaveASizeLimit() throws {
        let engine = try EngineFixture.engine.get()
        let scene = engine.scene
        let large = try Viewport(center: scene.viewport.center, zoom: scene.viewport.zoom, size: ScreenSize(width: 1200, height: 2000), scale: 3,
                                 insets: scene.viewport.insets)
        #expect(large.pixelWidth * large.pixelHeight > MapEngine.flyMaxPixels)
        #expect {
            try engine.flyAnimation(large, friends: try LiveFixture.samsFriends(), selected: "jordan", now: scene.capturedAt)
        } throws: { error in
            (error as? BadField)?.field == "size"
        }
    }
}
