import Foundation
import Testing
@testable import snapmap

/// `commands.json` against the Swift that runs the commands: one runner a command, every option read is declared.
@Suite("snapmap's command catalog")
struct CommandCatalogTests {
    @Test func everyCommandHasARunnerAndEveryRunnerACommand() throws {
        let catalog = try CommandLineTool.catalog()
        let commands = try catalog.commands(runners: CommandLineTool.runners)
        #expect(commands.map(\.name) == catalog.commands.map(\.name))
        #expect(Set(commands.map(\.name)) == Set(CommandLineTool.runners.keys))
    }

    @Test func aCommandWithoutARunnerOrARunnerWithoutACommandIsNamed() throws {
        let catalog = try CommandLineTool.catalog()
        var runners = CommandLineTool.runners
        runners["render"] = nil
        #expect(mismatch(catalog, runners)?.contains("\"render\" has no runner") == true)
        runners = CommandLineTool.runners
        runners["rendr"] = { _ in "" }
        #expect(mismatch(catalog, runners)?.contains("no command \"rendr\"") == true)
    }

    @Test func aBadEntryIsNamed() throws {
        let runners: [String: Command.Run] = ["a": { _ in "" }]
        func catalog(_ options: String) throws -> CommandCatalog {
            let json = #"{"groups": {"g": [{"name": "x", "help": "h"}]}, "commands": [{"name": "a", "summary": "s", "usage": "a", "options": ["#
                + options + "]}]}"
            return try CommandCatalog(bytes: Array(json.utf8), values: ["n": "1…2"])
        }
        #expect(try catalog(#"{"group": "g"}, {"name": "y", "value": "{{n}}", "help": "h"}"#).commands(runners: runners)[0].options.map(\.name) == ["x", "y"])
        #expect(mismatch(try catalog(#"{"group": "h"}"#), runners)?.contains("no option group \"h\"") == true)
        #expect(mismatch(try catalog(#"{"group": "g"}, {"name": "x", "help": "again"}"#), runners)?.contains("--x is declared twice") == true)
        #expect(mismatch(try catalog(#"{"name": "x", "help": "{{m}}"}"#), runners)?.contains("unfilled") == true)
        #expect(mismatch(try catalog(#"{"name": "x"}"#), runners)?.contains("needs a name and a help") == true)
    }

    @Test func everyOptionAUsageLineNamesIsDeclared() throws {
        for command in CommandLineTool.commands {
            let declared = Set(command.options.map(\.name))
            for name in try optionNames(in: command.usage, pattern: #"--([a-z][a-z-]*)"#) {
                #expect(declared.contains(name), "\(command.name)'s usage names --\(name), which it does not declare")
            }
        }
    }

    /// The names the Swift reads (`options.value("x")`, `request.number("x", …)`) against what the catalog declares: an
    /// option read but declared by no command would always read as absent.
    @Test func everyOptionTheCodeReadsIsDeclared() throws {
        let declared = Set(CommandLineTool.commands.flatMap { $0.options.map(\.name) })
        let directory = CLITests.packageRoot.appendingPathComponent("Sources/snapmap")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var read: Set<String> = []
        for file in files {
            let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            read.formUnion(try optionNames(in: source, pattern: #"(?:options|request)\.(?:value|flag|required|requiredPath|path|integer|number|point)\("([a-z-]+)""#))
        }
        #expect(read.count > 40, "the pattern still finds the reads")
        #expect(read.subtracting(declared).isEmpty, "read but never declared: \(read.subtracting(declared).sorted())")
    }

    private func mismatch(_ catalog: CommandCatalog, _ runners: [String: Command.Run]) -> String? {
        do {
            _ = try catalog.commands(runners: runners)
            return nil
        } catch {
            return error.description
        }
    }

    private func optionNames(in text: String, pattern: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
