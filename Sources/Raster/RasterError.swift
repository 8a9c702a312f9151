/// Why Raster refused or failed: names the field or file and what is allowed.
public enum RasterError: Error, Equatable, CustomStringConvertible, Sendable {
    case canvasTooLarge(width: Int, height: Int, maxSide: Int, maxPixels: Int)
    case invalid(field: String, reason: String)
    case png(String)
    case font(file: String, reason: String)

    public var description: String {
        switch self {
        case .canvasTooLarge(let width, let height, let maxSide, let maxPixels):
            return "canvas \(width)×\(height) px is too large: allowed 1 … \(maxSide) px a side and at most \(maxPixels) pixels"
        case .invalid(let field, let reason):
            return "\(field): \(reason)"
        case .png(let message):
            return "PNG: \(message)"
        case .font(let file, let reason):
            return "font \(file): \(reason)"
        }
    }
}
