import Foundation
import ServerTestSupport
import Testing

/// Runs one of the Selenium scripts in `Tests/browser` with Debian's python3; its exit status and everything it printed.
private func runBrowserScript(_ name: String, root: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), [root.appendingPathComponent("Tests/browser/\(name)").path] + arguments)
    return (result.status, result.output + result.errorOutput)
}

@Suite("The web viewer in headless Chromium")
struct BrowserTests {
    @Test func tapOnJordanOpensHisCardAndLeafletLoadsItsTiles() throws {
        let server = try ServerFixture()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let screenshot = root.appendingPathComponent(".build/viewer-jordan.png")
        try server.operate("sharing", "jordan", "--ghost", "off")
        let jordanToken = try server.operate("users", "token", "jordan")
        let (status, text) = try runBrowserScript("viewer_test.py", root: root, [server.base.absoluteString, screenshot.path, server.token, jordanToken])
        #expect(status == 0, "\(text)")
        #expect(text.contains("card names Jordan Lee") && text.contains("a move redrew the open viewer"))
        #expect(FileManager.default.fileExists(atPath: screenshot.path), "the screenshot is saved")
    }

    /// Sam's friends Mallory and Bold have names made of markup (an `<img>` whose onerror runs script and sends the
    /// address's fragment away, and a `<b>`): the viewer's card, Leaflet's tooltips and MapLibre's labels show them as
    /// text, no script of theirs runs, every page forbids inline script, and Sam's token leaves the address on load
    /// and goes only to the server's own `/v1/me/` in the Authorization header.
    @Test func namesMadeOfMarkupStayTextAndTheTokenStaysWithThePage() throws {
        let server = try ServerFixture()
        try server.operate("users", "add", "mallory", "--name", "<img/src/onerror=window.pwned=1;fetch('/stolen?'+location.hash)>")
        try server.operate("users", "add", "boldly", "--name", "<b>Bold</b> <img src=x onerror=window.pwned=2>")
        for (id, at) in [("mallory", "40.7265,-73.9565"), ("boldly", "40.7055,-73.9530")] {
            try server.operate("friends", "add", "samriv", id)
            try server.operate("sharing", id, "--ghost", "off")
            try server.operate("locate", id, "--at", at, "--place", "<i>Domino</i>", "--clock", "scene")
        }
        let (status, text) = try runBrowserScript("escape_test.py", root: server.root, [server.base.absoluteString, server.token, "boldly"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("the card names '<b>Bold</b> <img src=x onerror=window.pwned=2>' as text")
                && text.contains("<img/src/onerror=window.pwned=1;fetch('/stolen?'+location.hash)> · now") && text.contains("MapLibre:"), "\(text)")
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
        let (status, text) = try runBrowserScript("maplibre_test.py", root: server.root,
                                                  [server.base.absoluteString, raster.path, screenshot.path, server.token])
        #expect(status == 0, "\(text)")
        #expect(text.contains("sampled water/land/park points agree") && text.contains("friends and groups shown") && text.contains("station marks"), "\(text)")
    }

    /// Each Actionmoji pose the layout names gets its mark on the MapLibre page and on the Leaflet page, in its colour
    /// where the raster pins draw it: Jordan driving, Eli flying, Theo's birthday and Priya asleep, at make run's posed
    /// clock (01:30 in New York).
    @Test func mapLibreAndLeafletMarkEachPoseWhereTheRasterPinsDrawIt() throws {
        let clock = "2026-11-30T06:30:00Z"
        let server = try ServerFixture(serveOptions: ["--clock", clock])
        try server.operate("locate", "jordan", "--at", "40.71674,-73.96553", "--taken", "2026-11-30T06:29:20Z", "--activity", "automotive",
                           "--speed", "11.5", "--clock", clock)
        try server.operate("locate", "eli", "--at", "40.7106,-73.9586", "--taken", "2026-11-30T06:29:00Z", "--activity", "flying", "--clock", clock)
        try server.operate("locate", "priya", "--at", "40.7216,-73.9616", "--taken", "2026-11-30T04:40:00Z", "--activity", "still", "--clock", clock)
        try server.operate("birthday", "theo", "--set", "11-30")
        let screenshot = server.root.appendingPathComponent(".build/maplibre-poses.png")
        let leaflet = server.root.appendingPathComponent(".build/leaflet-poses.png")
        let (status, text) = try runBrowserScript("poses_test.py", root: server.root,
                                                  [server.base.absoluteString, server.token, screenshot.path, leaflet.path])
        #expect(status == 0, "\(text)")
        #expect(text.contains("all four poses marked on both pages") && text.contains("Leaflet: jordan driving"), "\(text)")
    }
}
