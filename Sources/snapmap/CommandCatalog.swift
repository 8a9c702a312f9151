import Foundation

/// The commands' names, summaries, usage lines and options, decoded from `commands.json` (built into the binary):
/// what a person reads in `--help` is data, and each command's Swift file holds only what the command does.
struct CommandCatalog: Decodable, Sendable {
    /// An option (`name`, `help`, and `value` unless it is a flag), or `group`: the options listed once under that
    /// name in `groups` and shared by several commands.
    struct Entry: Decodable, Sendable {
        let name: String?
        let value: String?
        let help: String?
        let group: String?
    }

    /// One command as the catalog describes it.
    struct Description: Decodable, Sendable {
        let name: String
        let summary: String
        let usage: String
        let positional: String?
        let options: [Entry]
    }

    /// The catalog and the runners do not fit: the message names the command, runner, group or option at fault.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    let groups: [String: [Entry]]
    let commands: [Description]

    /// Decodes `bytes` after filling each `{{key}}` with `values[key]`: ranges and lists the code owns, so the help
    /// cannot drift from what the code accepts.
    init(bytes: [UInt8], values: [String: String]) throws {
        var text = String(decoding: bytes, as: UTF8.self)
        for (key, value) in values { text = text.replacingOccurrences(of: "{{\(key)}}", with: value) }
        self = try JSONDecoder().decode(CommandCatalog.self, from: Data(text.utf8))
    }

    /// Every command in the catalog's order, joined to its runner. A command without a runner, a runner without a
    /// command, an unknown group, an option given twice or a placeholder left unfilled is a mismatch.
    func commands(runners: [String: Command.Run]) throws(Mismatch) -> [Command] {
        if let stray = runners.keys.sorted().first(where: { name in !commands.contains { $0.name == name } }) {
            throw Mismatch(description: "commands.json has no command \"\(stray)\" for its runner")
        }
        var result: [Command] = []
        for command in commands {
            guard let run = runners[command.name] else { throw Mismatch(description: "command \"\(command.name)\" has no runner") }
            let options = try specs(command.options, of: command.name)
            if let twice = options.map(\.name).firstDuplicate { throw Mismatch(description: "\(command.name): --\(twice) is declared twice") }
            let texts = [command.summary, command.usage] + options.map(\.help)
            guard !texts.contains(where: { $0.contains("{{") }) else { throw Mismatch(description: "\(command.name): a {{placeholder}} is unfilled") }
            result.append(Command(name: command.name, summary: command.summary, usage: command.usage, options: options,
                                  positional: command.positional, run: run))
        }
        return result
    }

    /// The options `entries` list, groups expanded in place (a group may list groups, up to four deep).
    private func specs(_ entries: [Entry], of command: String, depth: Int = 0) throws(Mismatch) -> [OptionSpec] {
        var result: [OptionSpec] = []
        for entry in entries {
            if let group = entry.group {
                guard depth < 4, let members = groups[group] else { throw Mismatch(description: "\(command): no option group \"\(group)\"") }
                result += try specs(members, of: command, depth: depth + 1)
            } else if let name = entry.name, let help = entry.help {
                result.append(OptionSpec(name: name, valueName: entry.value, help: help))
            } else {
                throw Mismatch(description: "\(command): an option needs a name and a help text, or a group")
            }
        }
        return result
    }
}

private extension Array where Element: Hashable {
    /// The first element that stands earlier in the array too.
    var firstDuplicate: Element? {
        var seen: Set<Element> = []
        return first { !seen.insert($0).inserted }
    }
}
