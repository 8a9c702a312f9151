import Foundation
import MapEngine
import MapRequest

/// One option a command accepts: `--name VALUE`, or a flag without a value (`valueName` nil).
struct OptionSpec: Sendable {
    let name: String
    let valueName: String?
    let help: String
}

/// A wrong command line: exit code 2 and a hint to `--help`.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// The options given to one command, checked against what it declares.
struct ParsedOptions {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private var positionalValues: [String] = []
    private var positionalName: String?

    /// Parses `--name value`, `--name=value` and flags; anything undeclared or a missing value is a usage error.
    init(arguments: [String], specs: [OptionSpec], positional: String? = nil) throws(UsageError) {
        let byName = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0) })
        positionalName = positional
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                guard positional != nil else { throw UsageError(description: "unexpected argument \"\(argument)\"") }
                positionalValues.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = byName[name] else { throw UsageError(description: "unknown option --\(name)") }
            if spec.valueName == nil {
                guard inlineValue == nil else { throw UsageError(description: "--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if inlineValue == nil {
                guard index < arguments.count else { throw UsageError(description: "--\(name) needs a value \(spec.valueName ?? "")") }
                inlineValue = arguments[index]
                index += 1
            }
            guard values[name] == nil else { throw UsageError(description: "--\(name) given twice") }
            values[name] = inlineValue
        }
    }

    func value(_ name: String) -> String? { values[name] }

    /// The option values as request parameters (the HTTP API uses the same names), errors naming "--option".
    var request: RequestParameters { RequestParameters(values, prefix: "--") }

    /// The one positional argument, required.
    func positional() throws(UsageError) -> String {
        guard positionalValues.count == 1 else {
            throw UsageError(description: positionalValues.isEmpty ? "missing \(positionalName ?? "argument")" : "expected one \(positionalName ?? "argument"), got \(positionalValues.count)")
        }
        return positionalValues[0]
    }

    /// Every positional argument, at least one.
    func positionals() throws(UsageError) -> [String] {
        guard !positionalValues.isEmpty else { throw UsageError(description: "missing \(positionalName ?? "argument")") }
        return positionalValues
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A path option (`--out`, `--layout-out`) when given: not empty, so nothing is written into the current
    /// directory by accident.
    func path(_ name: String) throws(UsageError) -> String? {
        guard let value = values[name] else { return nil }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError(description: "--\(name) must name a file, got an empty value") }
        return value
    }

    /// A required path option.
    func requiredPath(_ name: String) throws(UsageError) -> String {
        guard let value = try path(name) else { throw UsageError(description: "missing required option --\(name)") }
        return value
    }

    /// A required option's value.
    func required(_ name: String) throws(UsageError) -> String {
        guard let value = values[name] else { throw UsageError(description: "missing required option --\(name)") }
        return value
    }

    /// A whole-number option within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else { throw UsageError(description: "--\(name) must be a whole number, got \"\(text)\"") }
        guard range.contains(value) else {
            throw UsageError(description: "--\(name) = \(value) is out of range: allowed \(range.lowerBound) … \(range.upperBound)")
        }
        return value
    }
}
