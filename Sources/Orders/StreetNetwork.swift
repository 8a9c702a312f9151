import Foundation
import Routing

/// The street network a server routes and matches on, built on a thread of its own from the moment it is made,
/// so no request waits for it: until it is ready `ready()` answers nil (the server answers 503 with
/// `Retry-After`), while the drives' own queue waits for it with `built()`. `shared` keeps one network per key for
/// the whole process (at most `keptNetworks`), so servers over the same streets and speeds build it once.
public final class StreetNetwork: @unchecked Sendable {
    /// Networks `shared` keeps: a process serves one base map; each network is some tens of megabytes.
    public static let keptNetworks = 2
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [(key: String, network: StreetNetwork)] = []

    private let condition = NSCondition()
    private var result: Result<Router, any Error>?

    /// Starts building the network with `build` now, on a thread of its own.
    public init(build: @escaping @Sendable () throws -> Router) {
        let thread = Thread { [self] in
            let built = Result { try build() }
            condition.withLock {
                result = built
                condition.broadcast()
            }
        }
        thread.name = "snapmap-streets"
        thread.start()
    }

    /// The network of `key` (what it is built from, named so that the same inputs give the same key): the one
    /// already built or being built in this process, else one `build` starts building now.
    public static func shared(_ key: String, build: @escaping @Sendable () throws -> Router) -> StreetNetwork {
        lock.withLock {
            if let found = kept.first(where: { $0.key == key }) { return found.network }
            let network = StreetNetwork(build: build)
            kept = Array(([(key, network)] + kept).prefix(keptNetworks))
            return network
        }
    }

    /// The network when it is built, nil while it is being built; throws what its build threw.
    public func ready() throws -> Router? {
        try condition.withLock { try result?.get() }
    }

    /// The network, once built (waiting for it); throws what its build threw.
    public func built() throws -> Router {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}

/// The street network is still being built (since the server started): asked again after `retryAfter` seconds.
public struct StreetsNotReady: Error, CustomStringConvertible {
    public static let retryAfter = 1
    public var description: String { "the street network is being built (the server started moments ago); retry after the Retry-After seconds" }

    public init() {}
}
