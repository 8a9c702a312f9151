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
            for name in try captures(in: command.usage, #"--([a-z][a-z-]*)"#).map({ $0[0] }) {
                #expect(declared.contains(name), "\(command.name)'s usage names --\(name), which it does not declare")
            }
        }
    }

    /// The names the Swift reads (`options.value("x")`, `request.number("x", …)`) against what the catalog declares: an
    /// option read but not declared would always read as absent. A file under `Commands/` may read only what the
    /// commands whose runners it holds declare; the shared helpers, only what some command declares.
    @Test func everyOptionTheCodeReadsIsDeclared() throws {
        let directory = CLITests.packageRoot.appendingPathComponent("Sources/snapmap")
        let registry = try String(contentsOf: directory.appendingPathComponent("CommandLineTool.swift"), encoding: .utf8)
        let commandOfRunner = Dictionary(try captures(in: registry, #""([a-z-]+)": (run\w+)"#).map { ($0[1], $0[0]) }, uniquingKeysWith: { $1 })
        let optionsOf = Dictionary(uniqueKeysWithValues: CommandLineTool.commands.map { ($0.name, Set($0.options.map(\.name))) })
        #expect(commandOfRunner.count == CommandLineTool.runners.count, "the registry's pattern still finds every runner")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var everyRead: Set<String> = []
        for file in files {
            let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let read = Set(try captures(in: source, #"(?:options|request)\.(?:value|flag|required|requiredPath|path|integer|number|point)\("([a-z-]+)""#).map { $0[0] })
            everyRead.formUnion(read)
            let commands = try captures(in: source, #"let (run\w+): Command\.Run"#).compactMap { commandOfRunner[$0[0]] }
            let declared = commands.isEmpty ? optionsOf.values.reduce(into: Set()) { $0.formUnion($1) }
                                            : commands.reduce(into: Set()) { $0.formUnion(optionsOf[$1] ?? []) }
            #expect(read.isSubset(of: declared), "\(file) reads \(read.subtracting(declared).sorted()), which \(commands.isEmpty ? "no command" : commands.joined(separator: ", ")) declares")
        }
        #expect(everyRead.count > 40, "the pattern still finds the reads")
    }

    private func mismatch(_ catalog: CommandCatalog, _ runners: [String: Command.Run]) -> String? {
        do {
            _ = try catalog.commands(runners: runners)
            return nil
        } catch {
            return error.description
        }
    }

    /// The capture groups of every match of `pattern` in `text`.
    private func captures(in text: String, _ pattern: String) throws -> [[String]] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }
}
