/// Why base map data could not be imported, loaded or styled: names the file and the field path.
public struct BaseMapError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let path: String
    public let message: String

    public init(file: String, path: String = "", message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}
