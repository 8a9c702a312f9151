import Foundation

/// A data file (fixture, style, base map source or cache) that could not be used: names the file and the dotted
/// path of the bad field, when there is one.
public struct DataFileError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let path: String
    public let message: String

    public init(file: String, path: String = "", message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }

    /// A failure to read or decode a file, as an error naming it.
    public static func describing(_ error: any Error, file: String) -> DataFileError {
        error is DecodingError ? from(error, file: file) : DataFileError(file: file, message: "cannot read the file")
    }

    /// Translates a decoding failure into the file and the dotted path of the field at fault; `data`, when given,
    /// tells a number too large for its field from malformed JSON.
    public static func from(_ error: any Error, file: String, data: Data? = nil) -> DataFileError {
        let failure = DecodingFailure(error, data: data)
        return DataFileError(file: file, path: failure.path, message: failure.message)
    }
}
