import Foundation

/// Loading the view whole: the store is read without holding up the changes heard meanwhile, which are applied
/// again on what was read before the view answers.
extension LiveView {
    /// How long a load in the background that failed waits before it tries again.
    static let loadRetryPause = 1.0

    /// Reads every person, their settings, fix and asks from the store (in a few long reads when it can, else a page
    /// of people at a time, everyone first, then their asks); until it returns, the store answers. Calls made while
    /// one waits to start share it: a load that starts after a call answers it.
    public func load() throws {
        try load(ticket: requestLoad())
    }

    /// `load` by the store's reads of each person, whatever else the store can do (for tests).
    func loadByPages() throws {
        try load(ticket: requestLoad(), byPages: true)
    }

    /// Answers from the store from now on, and loads in the background (again each `loadRetryPause` until it succeeds).
    func loadInBackground() {
        stateLock.write { loaded = false }
        let ticket = requestLoad()
        loader.async { [weak self] in
            guard let self, (try? self.load(ticket: ticket)) == nil else { return }
            self.loader.asyncAfter(deadline: .now() + Self.loadRetryPause) { [weak self] in self?.loadInBackground() }
        }
    }

    /// A number for a load asked for now: any load that starts after this call answers it.
    private func requestLoad() -> UInt64 {
        requestLock.withLock {
            loadRequests += 1
            return loadRequests
        }
    }

    private func load(ticket: UInt64, byPages: Bool = false) throws {
        loadLock.lock()
        defer { loadLock.unlock() }
        guard loadsCover < ticket else { return }
        let covered = loadsCover
        loadsCover = requestLock.withLock { loadRequests }
        refreshLock.withLock {
            loading = true
            appliedWhileLoading = []
            stateLock.write { loaded = false }
        }
        do {
            let whole = byPages ? nil : store as? any WholeStoreReading
            var next = try whole.map { try Self.readWhole($0, partition: partition) } ?? readByPages()
            next.compact()
            refreshLock.lock()
            defer { refreshLock.unlock() }
            stateLock.write { state = next }
            loading = false
            // Each change once, at its last place: re-reading one gives the store's state now, so only the order of a
            // removal against the re-reads of the same person matters.
            var seen = Set<LiveChange>()
            for change in appliedWhileLoading.reversed().filter({ seen.insert($0).inserted }).reversed() { apply(change) }
            appliedWhileLoading = []
            // A load asked for since this one started (a resync, a change that could not be re-read) follows it.
            let current = requestLock.withLock { loadRequests } <= loadsCover
            stateLock.write { loaded = current }
            stamps.touchAll()
            tokens.forgetAll()
        } catch {
            refreshLock.withLock {
                loading = false
                appliedWhileLoading = []
            }
            loadsCover = covered
            throw error
        }
    }
}

extension LiveView.State {
    /// Copies each person's asks and askers into buffers of their own length.
    mutating func compact() {
        for index in asks.indices where asks[index].capacity > asks[index].count { asks[index] = asks[index].withUnsafeBufferPointer { Array($0) } }
        for index in askedBy.indices where askedBy[index].capacity > askedBy[index].count {
            askedBy[index] = askedBy[index].withUnsafeBufferPointer { Array($0) }
        }
    }
}
