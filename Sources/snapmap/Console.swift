import Foundation

/// The standard output and error, written so that a reader who went away (EPIPE: a closed pipe, a log collector
/// gone) loses the text and stops nothing; Foundation's `write(_:)` stops the process on any failed write.
enum Console {
    /// Writes `text` to the standard output, or nowhere if nobody reads it.
    static func out(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// Writes `text` to the standard error, or nowhere if nobody reads it.
    static func error(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}
