import Foundation
import GeoCore

/// A fixture or data file that could not be used: names the file and the path of the bad field.
public struct FixtureError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let path: String
    public let message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }

    /// A failure to read or decode a file, as a fixture error naming it.
    public static func describing(_ error: any Error, file: String) -> FixtureError {
        error is DecodingError ? from(error, file: file) : FixtureError(file: file, path: "", message: "cannot read the file")
    }

    /// Translates a decoding failure into the file and the dotted path of the field at fault.
    static func from(_ error: any Error, file: String, data: Data? = nil) -> FixtureError {
        let failure = DecodingFailure(error, data: data)
        return FixtureError(file: file, path: failure.path, message: failure.message)
    }
}
