import Foundation
import Testing

/// The command line as a newcomer meets it: the command list, the version, an empty map explained, operator words.
@Suite("snapmap for a newcomer")
struct NewcomerCLITests {
    private let cli = CLITests()

    @Test func theHelpListsEveryCommandWholeAndApartFromItsText() throws {
        let help = try cli.run("--help")
        #expect(help.status == 0)
        let rows = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(rows.count >= 20)
        for row in rows {
            let words = row.split(separator: " ", omittingEmptySubsequences: true)
            let name = String(words[0])
            // The name stands alone, whole: its own help answers, and two spaces at least part it from the text.
            #expect(try cli.run(name, "--help").stdout.contains("usage: snapmap \(name)"), "\(row)")
            #expect(row.dropFirst(2 + name.count).hasPrefix("  "), "\(row)")
        }
    }

    @Test func theVersionIsTheOneHealthReports() throws {
        let version = try cli.run("--version")
        #expect(version.status == 0 && version.stderr.isEmpty)
        let printed = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.range(of: "^snapmap [0-9]+\\.[0-9]+\\.[0-9]+$", options: .regularExpression) != nil, "\(printed)")
        let source = try String(contentsOf: CLITests.packageRoot.appendingPathComponent("Sources/SnapMapVersion/SnapMapVersion.swift"), encoding: .utf8)
        #expect(source.contains("\"\(printed.dropFirst("snapmap ".count))\""))
    }

    @Test func anEmptyMapOnTheRealClockSaysWhyAndHowToSeeIt() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-newcomer-\(UUID().uuidString)/live.db").path
        let real = try cli.runArray(["layout"], database: database)
        #expect(real.status == 0)
        #expect(try #require(try real.json()["pins"] as? [Any]).isEmpty)
        #expect(real.stderr.contains("nobody shows") && real.stderr.contains("more than 24 hours old") && real.stderr.contains("--clock scene"), "\(real.stderr)")
        let scene = try cli.runArray(["layout", "--clock", "scene"], database: database)
        #expect(scene.status == 0 && scene.stderr.isEmpty)
        #expect(try #require(try scene.json()["pins"] as? [Any]).count == 8)
        // A clock the operator chose is theirs: an empty map then is what they asked for, said nothing of.
        let later = try cli.runArray(["layout", "--clock", "2026-12-05T00:00:00Z"], database: database)
        #expect(later.status == 0 && later.stderr.isEmpty)
    }

    @Test func anUnknownIdIsToldInTheOperatorsWords() throws {
        for action in ["token", "revoke", "remove"] {
            let result = try cli.run("users", action, "nobody")
            #expect(result.status == 1 && result.stdout.isEmpty)
            #expect(result.stderr.contains("no person \"nobody\" in the live store") && !result.stderr.contains("your friends"), "\(result.stderr)")
        }
    }
}
