import Foundation

/// The Inter faces that Debian's `fonts-inter` installs; `$SNAPMAP_FONT_DIR` overrides the directory.
public enum InterFont: String, Sendable, CaseIterable {
    case bold = "Inter-Bold.otf"
    case regular = "Inter-Regular.otf"

    public static let defaultDirectory = "/usr/share/fonts/opentype/inter"

    public static var directory: String {
        ProcessInfo.processInfo.environment["SNAPMAP_FONT_DIR"] ?? defaultDirectory
    }

    public var path: String { (Self.directory as NSString).appendingPathComponent(rawValue) }

    /// Opens the face; a missing file is an error naming it.
    public func load() throws(RasterError) -> Font { try Font(file: path) }
}
