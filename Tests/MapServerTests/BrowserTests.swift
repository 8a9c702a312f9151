import Foundation
import ServerTestSupport
import Testing

@Suite("The web viewer in headless Chromium")
struct BrowserTests {
    @Test func tapOnJordanOpensHisCardAndLeafletLoadsItsTiles() throws {
        let server = try ServerFixture()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let screenshot = root.appendingPathComponent(".build/viewer-jordan.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        try server.operate("sharing", "jordan", "--ghost", "off")
        let jordanToken = try server.operate("users", "token", "jordan")
        process.arguments = [root.appendingPathComponent("Tests/browser/viewer_test.py").path, server.base.absoluteString, screenshot.path,
                             server.token, jordanToken]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("card names Jordan Lee") && text.contains("a move redrew the open viewer"))
        #expect(FileManager.default.fileExists(atPath: screenshot.path), "the screenshot is saved")
    }
}

@Suite("MapLibre GL JS in headless Chromium")
struct MapLibreBrowserTests {
    /// The vector tiles drawn by MapLibre (WebGL through SwiftShader) agree with our raster frame of the same
    /// viewport on water, land and park, and the viewer's friends appear from their layout.
    @Test func mapLibreDrawsTheWilliamsburgViewportAsTheRasterFrameDoes() throws {
        let server = try ServerFixture.shared.get()
        let raster = server.root.appendingPathComponent(".build/maplibre-raster.png")
        let screenshot = server.root.appendingPathComponent(".build/maplibre-williamsburg.png")
        _ = try server.operate("render", "--layers", "base", "--scale", "1", "--out", raster.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [server.root.appendingPathComponent("Tests/browser/maplibre_test.py").path, server.base.absoluteString, raster.path,
                             screenshot.path, server.token]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("sampled water/land/park points agree") && text.contains("friends and groups shown"), "\(text)")
    }
}
