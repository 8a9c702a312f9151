import Foundation
import Routing

/// The street network a server routes and matches on, built on a thread of its own from the first moment it is
/// needed (an order heard of, a Dasher's fix for an order, a tracking map asked for), so no request waits for it
/// and a server that tracks no order never pays for it: until it is ready `ready()` answers nil (the server
/// answers 503 with `Retry-After`), while the drives' own queue waits for it with `built()`. `shared` keeps one
/// network per key for the whole process (at most `keptNetworks`), so servers over the same streets and speeds
/// build it once.
public final class StreetNetwork: @unchecked Sendable {
    /// Networks `shared` keeps: a process serves one base map; each network is some tens of megabytes.
    public static let keptNetworks = 2
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [(key: String, network: StreetNetwork)] = []

    private let condition = NSCondition()
    private let build: @Sendable () throws -> Router
    private var started = false
    private var result: Result<Router, any Error>?

    /// A network `build` makes once `start()`, `ready()` or `built()` is first called.
    public init(build: @escaping @Sendable () throws -> Router) {
        self.build = build
    }

    /// Starts building the network on a thread of its own, unless it was started already.
    public func start() {
        let starting = condition.withLock {
            defer { started = true }
            return !started
        }
        guard starting else { return }
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
    /// this process already has, else a new one that `build` makes when first needed.
    public static func shared(_ key: String, build: @escaping @Sendable () throws -> Router) -> StreetNetwork {
        lock.withLock {
            if let found = kept.first(where: { $0.key == key }) { return found.network }
            let network = StreetNetwork(build: build)
            kept = Array(([(key, network)] + kept).prefix(keptNetworks))
            return network
        }
    }

    /// The network when it is built, nil while it is being built (starting it); throws what its build threw.
    public func ready() throws -> Router? {
        start()
        return try condition.withLock { try result?.get() }
    }

    /// The network, once built (starting it and waiting for it); throws what its build threw.
    public func built() throws -> Router {
        start()
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}

/// The street network is still being built (from its first need, which takes seconds): asked again after
/// `retryAfter` seconds.
public struct StreetsNotReady: Error, CustomStringConvertible {
    public static let retryAfter = 1
    public var description: String { "the street network is being built (the first order this server tracks starts it; it takes seconds); retry after the Retry-After seconds" }

    public init() {}
}
