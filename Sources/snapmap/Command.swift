/// A `snapmap` subcommand: its name, its help and what it does. `run` returns what goes to standard
/// output, so nothing is printed when it fails part way.
struct Command: Sendable {
    /// What a command does with its checked options: the text for standard output.
    typealias Run = @Sendable (ParsedOptions) throws -> String

    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    /// The name of the one positional argument the command takes, if any.
    let positional: String?
    let run: Run

    /// The `--help` text of the command.
    var help: String {
        var lines = ["usage: snapmap \(usage)", "", summary, "", "options:"]
        let specs = options + [OptionSpec(name: "help", valueName: nil, help: "show this help")]
        for spec in specs {
            let left = "  --\(spec.name)" + (spec.valueName.map { " \($0)" } ?? "")
            lines.append(left.padding(toLength: max(left.count + 2, 30), withPad: " ", startingAt: 0) + spec.help)
        }
        return lines.joined(separator: "\n")
    }
}
