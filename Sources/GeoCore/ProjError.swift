/// PROJ refused an operation (an unknown CRS, a point outside a projection's area): carries PROJ's own message.
public struct ProjError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What was asked of PROJ.
    public let operation: String
    /// What PROJ said.
    public let message: String

    public var description: String { "PROJ \(operation) failed: \(message)" }
}
