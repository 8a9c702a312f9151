import Foundation
import GeoCore
import LiveMap
import MapEngine
import Orders
import SnapMapVersion

/// The `snapmap` command line: dispatches to a command and turns errors into messages and exit codes
/// (0 ok, 1 runtime error, 2 usage).
enum CommandLineTool {
    /// Every command: its help from `commands.json`, what it does from its runner. A catalog that does not fit the
    /// runners stops the tool at once (CommandCatalogTests says which entry).
    static let commands: [Command] = {
        do {
            return try catalog().commands(runners: runners)
        } catch {
            fatalError("snapmap: \(error)")
        }
    }()

    /// What each command does, by its name in `commands.json`.
    static let runners: [String: Command.Run] = [
        "project": runProject, "tiles-for": runTilesFor, "scene": runScene, "import-basemap": runImportBaseMap, "render": runRender,
        "tile": runTile, "tiles": runTiles, "mbtiles-merge": runMbtilesMerge, "heat-tile": runHeatTile, "generate-activity": runGenerateActivity,
        "layout": runLayout, "hit": runHit, "zoom": runZoom, "route-frame": runRouteFrame, "route-state": runRouteState, "serve": runServe,
        "raster-gallery": runRasterGallery, "users": runUsers, "friends": runFriends, "seed": runSeed, "locate": runLocate,
        "sharing": runSharing, "birthday": runBirthday, "live": runLiveShare, "footsteps": runFootsteps, "snaps": runSnaps, "fly": runFly,
        "orders": runOrders, "demo-delivery": runDemoDelivery,
    ]

    /// The catalog built into the binary, its placeholders filled from the ranges and lists the commands check against.
    static func catalog() throws -> CommandCatalog {
        try CommandCatalog(bytes: PackageResources.commands_json, values: [
            "synthetic-people": "\(SyntheticWorld.peopleRange.lowerBound)…\(SyntheticWorld.peopleRange.upperBound)",
            "friends-each": "\(SyntheticWorld.friendsRange.lowerBound)…\(SyntheticWorld.friendsRange.upperBound)",
            "activities": Activity.allCases.map(\.rawValue).joined(separator: ", "),
            "max-items": "\(Order.maxItems)",
        ])
    }

    static var help: String {
        var lines = [
            "snapmap: the map engine behind a Snap Map screen (frames, tiles, pin layout, taps, selection zoom).",
            "",
            "usage: snapmap COMMAND [options]      snapmap COMMAND --help for a command's options      snapmap --version",
            "",
            "commands:",
        ]
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            lines.append("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        return lines.joined(separator: "\n")
    }

    /// Runs one command line and returns the process exit code.
    static func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            printError(help)
            return 2
        }
        if ["--help", "-h", "help"].contains(name) {
            print(help)
            return 0
        }
        if name == "--version" {
            print("snapmap " + SnapMapVersion.current)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("snapmap: unknown command \"\(name)\"\n\n\(help)")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command.help)
            return 0
        }
        do {
            let options = try ParsedOptions(arguments: rest, specs: command.options, positional: command.positional)
            let output = try command.run(options)
            Console.out(output.hasSuffix("\n") ? output : output + "\n")
            return 0
        } catch {
            let (code, hint) = exitCode(for: error)
            printError("snapmap \(name): \(error)" + (hint ? "\nrun 'snapmap \(name) --help' for usage" : ""))
            return code
        }
    }

    /// A failed command's exit code (2: the command line or a value in it is wrong; 1: anything else), and whether
    /// its message ends with the hint to `--help` (when the options themselves are at fault).
    static func exitCode(for error: any Error) -> (code: Int32, hint: Bool) {
        switch error {
        case is UsageError, is BadField: (2, true)
        case let error as LiveMapError where error.field != nil: (2, false)
        default: (1, false)
        }
    }

    static func printError(_ message: String) {
        Console.error(message + "\n")
    }
}
