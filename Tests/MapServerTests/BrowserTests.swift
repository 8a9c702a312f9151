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
