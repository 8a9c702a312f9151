import Foundation
import ServerTestSupport
import Testing

/// Runs the built `snapmap` executable the way a user does and checks output and exit codes.
@Suite("snapmap command line")
struct CLITests {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        }
    }

    static let packageRoot = Snapmap.packageRoot

    func run(_ arguments: String...) throws -> Result {
        try runArray(arguments)
    }

    @Test func projectPrintsMercatorAndTile() throws {
        let result = try run("project", "--coord", "53.33087298301705,-9.140625", "--zoom", "10")
        #expect(result.status == 0)
        let json = try result.json()
        let tile = try #require(json["tile"] as? [String: Any])
        #expect(tile["x"] as? Int == 486 && tile["y"] as? Int == 332 && tile["quadkey"] as? String == "0313102310")
        let mercator = try #require(json["mercator"] as? [String: Double])
        #expect(abs((mercator["x"] ?? 0) - -1_017_529.720_108_4) < 0.01)
    }

    @Test func tilesForCountsAndLists() throws {
        let result = try run("tiles-for", "--bbox", "-73.972,40.700,-73.930,40.728", "--zoom", "12-16")
        #expect(result.status == 0)
        let json = try result.json()
        let tiles = try #require(json["tiles"] as? [String])
        #expect(json["count"] as? Int == tiles.count && tiles.count > 20)
        #expect(tiles.first?.hasPrefix("12/") == true && tiles.last?.hasPrefix("16/") == true)
        let tooMany = try run("tiles-for", "--bbox", "-180,-85,180,85", "--zoom", "0-22")
        #expect(tooMany.status == 2 && tooMany.stdout.isEmpty && tooMany.stderr.contains("--count-only"))
    }

    @Test func sceneProjectsEightFriendsAndNoGhost() throws {
        let result = try run("scene")
        #expect(result.status == 0)
        let friends = try #require(try result.json()["friends"] as? [[String: Any]])
        #expect(friends.count == 8)
        #expect(friends.allSatisfy { $0["inFreeArea"] as? Bool == true })
        #expect(!result.stdout.contains("Rae") && !result.stdout.contains("rae"))
    }

    @Test(arguments: [
        (["project", "--coord", "91,0"], "lat"),
        (["project", "--coord", "nan,0"], "finite"),
        (["project", "--coord", "40,-200"], "lon"),
        (["project", "--coord", "40.7,-73.9", "--zoom", "23"], "0 … 22"),
        (["project", "--coord"], "needs a value"),
        (["project", "--bogus", "1"], "unknown option"),
        (["project"], "missing required option --coord"),
        (["tiles-for", "--bbox", "1,2,3", "--zoom", "3"], "W,S,E,N"),
        (["tiles-for", "--bbox", "-74,40,-73,41", "--zoom", "5-30"], "out of range"),
        (["tiles-for", "--bbox", "-73,40,-74,41", "--zoom", "5"], "west"),
        (["nonsense"], "unknown command"),
    ])
    func badInputIsAUsageErrorWithNoOutput(arguments: [String], expected: String) throws {
        let process = try runArray(arguments)
        #expect(process.status == 2)
        #expect(process.stdout.isEmpty)
        #expect(process.stderr.contains(expected), "stderr: \(process.stderr)")
    }

    @Test func missingDataIsARuntimeError() throws {
        let result = try run("scene", "--data", "/nonexistent/snapmap-data")
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.contains("/nonexistent/snapmap-data"))
    }

    /// The README's exit codes: 2 for a bad option value (it was 1 for --host).
    @Test func aHostThatIsNoAddressIsAUsageError() throws {
        for host in ["not-an-ip", "localhost", "127.0.0.1:80", "::g"] {
            let serve = try run("serve", "--host", host, "--port", "0")
            #expect(serve.status == 2 && serve.stdout.isEmpty && serve.stderr.contains("--host must be an IPv4 or IPv6 address"), "\(host): \(serve.stderr)")
        }
    }

    /// The README's exit codes: 2 for a clock that is no time, whatever the layers drawn (a base-only frame never
    /// read it, and wrote a PNG with exit 0).
    @Test func aBadClockIsAUsageErrorForEveryFrame() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-clock-\(UUID().uuidString).png").path
        for layers in ["base", "base,heat,pins"] {
            for clock in ["notatime", "2026-13-45T99:00:00Z"] {
                let render = try run("render", "--layers", layers, "--clock", clock, "--size", "64x64", "--scale", "1", "--out", out)
                #expect(render.status == 2 && render.stdout.isEmpty && render.stderr.contains("clock"), "\(layers) \(clock): \(render.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out), "nothing is written for a bad --clock")
            }
        }
    }

    /// The README's exit codes: 1 for a missing input file (it was 2 for mbtiles-merge's parts).
    @Test func aMissingMergeInputIsARuntimeError() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-merge-\(UUID().uuidString).mbtiles").path
        let merge = try run("mbtiles-merge", "--out", out, "/nonexistent/part-0.mbtiles")
        #expect(merge.status == 1 && merge.stdout.isEmpty && merge.stderr.contains("cannot read /nonexistent/part-0.mbtiles"), "\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing is made when an input is missing")
        #expect(try run("mbtiles-merge", "/tmp/part.mbtiles").status == 2, "a missing --out is still usage")
    }

    @Test func helpForTheToolAndEveryCommand() throws {
        let tool = try run("--help")
        #expect(tool.status == 0)
        for command in ["project", "tiles-for", "scene"] {
            #expect(tool.stdout.contains(command))
            let help = try run(command, "--help")
            #expect(help.status == 0 && help.stdout.contains("usage: snapmap \(command)"))
        }
    }

    /// One live store for this test process, never the checkout's, seeded whole by one command before any test uses
    /// it: commands started together on a new store would each find it partly seeded by another.
    static let database: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-cli-\(UUID().uuidString)/live.db").path
        _ = try? Snapmap.run(["layout", "--clock", "scene"], environment: ["SNAPMAP_DB": path])
        return path
    }()

    func runArray(_ arguments: [String], database: String = CLITests.database) throws -> Result {
        let result = try Snapmap.run(arguments, environment: ["SNAPMAP_DB": database])
        return Result(status: result.status, stdout: result.output, stderr: result.errorOutput)
    }
}

@Suite("snapmap raster-gallery")
struct RasterGalleryCLITests {
    @Test func writesEveryScene() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-gallery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLITests().run("raster-gallery", "--out", directory.path)
        #expect(result.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["avatar.png", "curves.png", "hairlines.png", "layers.png", "stars.png", "strokes.png", "text.png"])
        for file in files {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 500)
        }
    }
}

@Suite("snapmap layout, hit and zoom")
struct PinCLITests {
    private let cli = CLITests()

    @Test func layoutHitAndZoomAnswerForJordan() throws {
        let layout = try cli.run("layout", "--clock", "scene")
        #expect(layout.status == 0)
        let json = try layout.json()
        let pins = try #require(json["pins"] as? [[String: Any]])
        #expect(pins.count == 8 && !layout.stdout.contains("rae"))
        let jordan = try #require(pins.first { $0["id"] as? String == "jordan" })
        #expect(jordan["labelText"] as? String == "Jordan · 2m")
        let rect = try #require(jordan["avatarRect"] as? [String: Double])
        let x = rect["x"]! + rect["width"]! / 2
        let y = rect["y"]! + rect["height"]! / 2
        let hit = try cli.run("hit", "--at", "\(x),\(y)", "--clock", "scene")
        let hitID = try hit.json()["id"] as? String
        #expect(hit.status == 0 && hitID == "jordan")
        let zoom = try cli.run("zoom", "--friend", "jordan", "--clock", "scene")
        #expect(zoom.status == 0)
        let answer = try zoom.json()
        #expect((answer["camera"] as? [String: Any])?["zoom"] as? Double == 16.5)
        #expect(((answer["path"] as? [Any])?.count ?? 0) > 10)
    }

    @Test(arguments: [
        (["hit", "--at", "12"], "X,Y"),
        (["hit", "--at", "1e308,1e308"], "--at: 1e+308,1e+308 is out of range"),
        (["render", "--out", ""], "--out must name a file"),
        (["render", "--out", "/tmp/x.png", "--layout-out", " "], "--layout-out must name a file"),
        (["render", "--center", "abc", "--out", "/tmp/x.png"], "--center: expected LAT,LON"),
        (["zoom", "--friend", "rae", "--clock", "scene"], "no visible friend"),
        (["zoom", "--friend", "nobody", "--clock", "scene"], "no visible friend"),
        (["layout", "--selected", "rae", "--clock", "scene"], "no visible friend"),
        (["layout", "--clock", "yesterday"], "--clock: must be an ISO 8601 time"),
        (["render", "--layers", "base,clouds", "--out", "/tmp/x.png"], "--layers: unknown layer \"clouds\""),
        (["render", "--zoom", "25", "--out", "/tmp/x.png"], "--zoom: 25 is out of range: allowed 0.0 … 22.0"),
        (["render", "--size", "9000x100", "--out", "/tmp/x.png"], "--size: size.width"),
        (["render", "--layers", "footsteps", "--out", "/tmp/x.png"], "footsteps is drawn over the base layer"),
    ])
    func badPinRequestsAreClearErrors(arguments: [String], expected: String) throws {
        let result = try cli.runArray(arguments)
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains(expected), "stderr: \(result.stderr)")
    }
}

/// The footsteps layer of `snapmap render --viewer`: the viewer's own Footsteps tinted, none once cleared.
@Suite("snapmap render with Footsteps")
struct FootstepsRenderCLITests {
    private let cli = CLITests()

    @Test func theViewersStepsTintTheirFrameUntilCleared() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("live.db").path
        #expect(try cli.run("seed", "--db", db).status == 0)
        #expect(try cli.run("footsteps", "on", "samriv", "--db", db).status == 0)
        #expect(try cli.run("locate", "samriv", "--at", "40.7148,-73.9600", "--db", db).status == 0)
        func frame(_ layers: String) throws -> Data {
            let out = directory.appendingPathComponent("\(layers).png").path
            let result = try cli.run("render", "--layers", layers, "--viewer", "samriv", "--db", db, "--center", "40.7148,-73.9600", "--zoom", "16",
                                     "--size", "200x200", "--scale", "1", "--out", out)
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: out))
        }
        #expect(try frame("base,footsteps") != frame("base"), "the streets near Sam's step are tinted")
        #expect(try cli.run("footsteps", "clear", "samriv", "--db", db).status == 0)
        #expect(try frame("base,footsteps") == frame("base"), "cleared, nothing is")
    }
}

@Suite("snapmap route-frame and route-state")
struct RouteCLITests {
    private let cli = CLITests()

    @Test func frameAndStateOfTheBayRidgeRoute() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("sakura.png").path
        let json = directory.appendingPathComponent("sakura.json").path
        let frame = try cli.run("route-frame", "--route", "sakura", "--scale", "1", "--out", png, "--json-out", json)
        #expect(frame.status == 0)
        let framed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect((framed["points"] as? [Any])?.count == 10)
        let state = try cli.run("route-state", "--route", "sakura", "--at-seconds", "120", "--drive-seconds", "480")
        #expect(state.status == 0)
        let courier = try state.json()
        #expect(courier["progress"] as? Double == 0.25 && courier["arrived"] as? Bool == false)
    }

    @Test(arguments: [
        (["route-state", "--route", "pizza-palace", "--progress", "0.5"], "unknown route"),
        (["route-state", "--route", "lucias", "--progress", "1.5"], "0.0 … 1.0"),
        (["route-frame", "--route", "lucias", "--sheet", "0.95", "--out", "/tmp/x.png"], "--sheet"),
        (["route-state", "--route", "lucias"], "--progress"),
    ])
    func badRouteRequests(arguments: [String], expected: String) throws {
        let result = try cli.runArray(arguments)
        #expect(result.status != 0 && result.stdout.isEmpty && result.stderr.contains(expected), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("--route: --route") && !result.stderr.contains("NSCocoaErrorDomain"), "the engine does not speak command line")
    }
}
