import Foundation

/// A request value that is missing or wrong; names the parameter and what it allows.
public struct BadParameter: Error, CustomStringConvertible, Sendable {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}
