import Foundation

/// A value made the first time it is asked for (by whichever thread asks first) and kept, failure included:
/// what only some commands need is not loaded by the others.
final class LoadedOnUse<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var loaded: Result<Value, any Error>?
    private let load: @Sendable () throws -> Value

    init(_ load: @escaping @Sendable () throws -> Value) {
        self.load = load
    }

    func value() throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if loaded == nil { loaded = Result { try load() } }
        return try loaded!.get()
    }
}
