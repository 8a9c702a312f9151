/// A `snapmap` subcommand: its name, its help and what it does. `run` returns what goes to standard
/// output, so nothing is printed when it fails part way.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    /// The name of the one positional argument the command takes, if any.
    let positional: String?
    let run: @Sendable (ParsedOptions) throws -> String

    init(name: String, summary: String, usage: String, options: [OptionSpec], positional: String? = nil,
         run: @escaping @Sendable (ParsedOptions) throws -> String) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.positional = positional
        self.run = run
    }

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
