/// A `snapmap` subcommand: its name, its help and what it does. `run` returns what goes to standard
/// output, so nothing is printed when it fails part way.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    let run: @Sendable (ParsedOptions) throws -> String

    /// The `--help` text of the command.
    var help: String {
        var lines = ["usage: snapmap \(usage)", "", summary, "", "options:"]
        let specs = options + [.flag("help", "show this help")]
        for spec in specs {
            let left = "  --\(spec.name)" + (spec.valueName.map { " \($0)" } ?? "")
            lines.append(left.padding(toLength: max(left.count + 2, 30), withPad: " ", startingAt: 0) + spec.help)
        }
        return lines.joined(separator: "\n")
    }
}
