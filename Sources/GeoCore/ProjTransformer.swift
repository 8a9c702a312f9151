import CProj

/// Transforms positions from one CRS to another through PROJ: an EPSG code ("EPSG:2263"), a PROJ string or WKT
/// (ESRI flavour included). Axis order is normalized for visualization: longitude or easting first.
///
/// Concurrency: each instance owns a PROJ context, which is not thread-safe, so the type is deliberately not
/// `Sendable`; the compiler keeps an instance on the task that made it. Make one transformer per task.
public final class ProjTransformer {
    /// The target CRS of Web Mercator.
    public static let webMercator = "EPSG:3857"
    /// The target CRS of WGS 84 degrees.
    public static let wgs84 = "EPSG:4326"

    public let source: String
    public let target: String
    private let context: OpaquePointer
    private let transformation: OpaquePointer
    private let log: ProjLog

    /// Creates the transformation; PROJ's message becomes the error when it cannot.
    public init(source: String, target: String) throws(ProjError) {
        guard let context = proj_context_create() else { throw ProjError(operation: "context", message: "could not create a context") }
        let log = ProjLog()
        log.attach(to: context)
        guard let raw = proj_create_crs_to_crs(context, source, target, nil) else {
            let message = log.message(context: context)
            proj_context_destroy(context)
            throw ProjError(operation: "create transformation from \(Self.abbreviated(source)) to \(target)", message: message)
        }
        let normalized = proj_normalize_for_visualization(context, raw)
        proj_destroy(raw)
        guard let normalized else {
            let message = log.message(context: context)
            proj_context_destroy(context)
            throw ProjError(operation: "normalize axis order", message: message)
        }
        self.source = source
        self.target = target
        self.context = context
        self.transformation = normalized
        self.log = log
    }

    deinit {
        proj_destroy(transformation)
        proj_context_destroy(context)
    }

    /// A transformer from `source` to EPSG:3857 metres.
    public static func toWebMercator(from source: String) throws(ProjError) -> ProjTransformer {
        try ProjTransformer(source: source, target: webMercator)
    }

    /// A transformer from `source` to WGS 84 (x = longitude, y = latitude).
    public static func toWGS84(from source: String) throws(ProjError) -> ProjTransformer {
        try ProjTransformer(source: source, target: wgs84)
    }

    /// Transforms one position.
    public func transform(x: Double, y: Double) throws(ProjError) -> (x: Double, y: Double) {
        proj_errno_reset(transformation)
        let result = proj_trans(transformation, PJ_FWD, proj_coord(x, y, 0, 0))
        let errorCode = proj_errno(transformation)
        guard errorCode == 0, result.xy.x.isFinite, result.xy.y.isFinite else {
            throw ProjError(operation: "transform (\(x), \(y))", message: log.message(context: context, code: errorCode))
        }
        return (result.xy.x, result.xy.y)
    }

    /// Transforms many positions in place with one `proj_trans_generic` call; on error both arrays stay as they were.
    public func transform(xs: inout [Double], ys: inout [Double]) throws {
        guard xs.count == ys.count else { throw BadField(field: "ys", message: "has \(ys.count) values, xs has \(xs.count)") }
        var outX = xs
        var outY = ys
        let count = outX.count
        let stride = MemoryLayout<Double>.stride
        proj_errno_reset(transformation)
        let done = outX.withUnsafeMutableBufferPointer { xBuffer in
            outY.withUnsafeMutableBufferPointer { yBuffer in
                proj_trans_generic(transformation, PJ_FWD,
                                   xBuffer.baseAddress, stride, count,
                                   yBuffer.baseAddress, stride, count,
                                   nil, 0, 0, nil, 0, 0)
            }
        }
        if let bad = outX.indices.first(where: { !outX[$0].isFinite || !outY[$0].isFinite }) {
            throw ProjError(operation: "transform point \(bad) (\(xs[bad]), \(ys[bad])) of \(count)",
                        message: log.message(context: context, code: proj_errno(transformation)))
        }
        guard done == count else {
            throw ProjError(operation: "transform \(count) points", message: "only \(done) transformed")
        }
        xs = outX
        ys = outY
    }

    private static func abbreviated(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}

@available(*, unavailable, message: "a PROJ context is not thread-safe: make one ProjTransformer per task")
extension ProjTransformer: Sendable {}

/// Collects PROJ's log messages for one context, so errors carry PROJ's own words.
private final class ProjLog {
    private(set) var lastMessage: String?

    func attach(to context: OpaquePointer) {
        proj_log_level(context, PJ_LOG_ERROR)
        proj_log_func(context, Unmanaged.passUnretained(self).toOpaque()) { appData, _, message in
            guard let appData, let message else { return }
            Unmanaged<ProjLog>.fromOpaque(appData).takeUnretainedValue().lastMessage = String(cString: message)
        }
    }

    func message(context: OpaquePointer, code: Int32? = nil) -> String {
        let errorCode = code ?? proj_context_errno(context)
        var parts: [String] = []
        if let lastMessage { parts.append(lastMessage) }
        if errorCode != 0, let text = proj_context_errno_string(context, errorCode) {
            let described = String(cString: text)
            if !parts.contains(described) { parts.append(described) }
        }
        lastMessage = nil
        return parts.isEmpty ? "unknown PROJ error" : parts.joined(separator: ": ")
    }
}
