import Foundation

/// One call per endpoint of the contract (the event stream is in `SnapMapClient+Events`).
extension SnapMapClient {
    // MARK: Public

    /// `/healthz`: readiness and the server's version (a 503 is answered, not thrown: it is a state).
    public func health() async throws -> Health {
        let answer = try await sendOnce("GET", "/healthz", query: [], body: nil, headers: [:])
        guard answer.status == 200 || answer.status == 503 else { _ = try expectSuccess(answer); throw SnapMapError.malformed("health") }
        return try decode(Health.self, answer.body)
    }

    /// A public document as JSON bytes: `/openapi.json`, `/tiles.json`, `/vector.json`, `/styles/snapmap.json`.
    public func document(_ path: String) async throws -> Revalidated<Data> {
        try await revalidated(path, query: [])
    }

    /// A tile: `base` (`/tiles/…png`, `@2x`), `heat` (`/heat/…`), or `vector` (`/tiles/…mvt`); revalidated by its tag.
    public func tile(_ kind: TileKind, z: Int, x: Int, y: Int, retina: Bool = false) async throws -> Revalidated<Data> {
        let suffix = kind == .vector ? ".mvt" : (retina ? "@2x.png" : ".png")
        return try await revalidated("/\(kind == .heat ? "heat" : "tiles")/\(z)/\(x)/\(y)\(suffix)", query: [])
    }

    /// Which tiles: the base map (PNG), the glow (transparent PNG) or the base map's vector tiles.
    public enum TileKind: Sendable { case base, heat, vector }

    /// MapLibre's glyphs of `fontStack` for code points `start` … `start + 255`.
    public func glyphs(fontStack: String, start: Int) async throws -> Data {
        let stack = fontStack.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? fontStack
        return try expectSuccess(try await send("GET", "/fonts/\(stack)/\(start)-\(start + 255).pbf"))
    }

    /// The delivery-tracking frame of a route, as PNG.
    public func routeFrame(_ route: String, size: (width: Double, height: Double)? = nil, scale: Double? = nil) async throws -> Revalidated<Data> {
        try await revalidated("/v1/route/frame.png", query: Self.routeQuery(route, size: size, scale: scale))
    }

    /// Where the courier is at `progress` (0 … 1) of a route.
    public func routeState(_ route: String, progress: Double) async throws -> CourierState {
        let query = Self.routeQuery(route, size: nil, scale: nil) + [URLQueryItem(name: "progress", value: String(progress))]
        return try decode(CourierState.self, try await revalidated("/v1/route/state.json", query: query).value)
    }

    /// A web page or file the server serves: `/`, `/leaflet.html`, `/static/viewer.js`, …
    public func file(_ path: String) async throws -> Data {
        try expectSuccess(try await send("GET", path))
    }

    private static func routeQuery(_ route: String, size: (width: Double, height: Double)?, scale: Double?) -> [URLQueryItem] {
        [URLQueryItem(name: "route", value: route)] + (size.map { [URLQueryItem(name: "size", value: "\($0.width)x\($0.height)")] } ?? [])
            + (scale.map { [URLQueryItem(name: "scale", value: String($0))] } ?? [])
    }

    // MARK: The signed-in person

    /// Sends the signed-in person's location (10 a second, bursts of 20; a 429 is waited out and retried).
    public func updateLocation(_ location: Location) async throws {
        _ = try expectSuccess(try await send("PUT", "/v1/me/location", body: try Self.encoder.encode(location)))
    }

    /// Posts a public Snap to the glow (it shows from the glow's next epoch).
    public func postSnap(_ snap: Snap) async throws {
        _ = try expectSuccess(try await send("POST", "/v1/me/snaps", body: try Self.encoder.encode(snap)))
    }

    /// Ghost Mode and the audience as they are.
    public func sharing() async throws -> Sharing {
        try decode(Sharing.self, try expectSuccess(try await send("GET", "/v1/me/sharing")))
    }

    /// Changes Ghost Mode, the audience or both; answers the settings now.
    public func updateSharing(_ change: SharingChange) async throws -> Sharing {
        try decode(Sharing.self, try expectSuccess(try await send("PUT", "/v1/me/sharing", body: try Self.encoder.encode(change))))
    }

    /// The signed-in person's birthday, `MM-DD`, nil for none.
    public func birthday() async throws -> String? {
        try decode(BirthdayBody.self, try expectSuccess(try await send("GET", "/v1/me/birthday"))).birthday
    }

    /// Sets the birthday friends see (`MM-DD`; nil clears it); answers it as stored.
    public func setBirthday(_ birthday: String?) async throws -> String? {
        let body = try Self.encoder.encode(BirthdayBody(birthday: birthday))
        return try decode(BirthdayBody.self, try expectSuccess(try await send("PUT", "/v1/me/birthday", body: body))).birthday
    }

    /// Friends and requests both ways (never a location).
    public func friends() async throws -> [FriendEntry] {
        try decode(FriendList.self, try expectSuccess(try await send("GET", "/v1/me/friends"))).friends
    }

    /// Asks `id` to be friends, or accepts their request.
    public func addFriend(_ id: String) async throws -> FriendStatus {
        try decode(FriendStatus.self, try expectSuccess(try await send("POST", "/v1/me/friends/" + Self.segment(id))))
    }

    /// Ends a friendship, or withdraws or declines a request.
    public func removeFriend(_ id: String) async throws {
        _ = try expectSuccess(try await send("DELETE", "/v1/me/friends/" + Self.segment(id)))
    }

    /// Blocks anyone who exists for the signed-in person: both are hidden from each other.
    public func block(_ id: String) async throws {
        _ = try expectSuccess(try await send("POST", "/v1/me/blocks/" + Self.segment(id)))
    }

    /// Lifts the signed-in person's block (the friendship does not come back by itself).
    public func unblock(_ id: String) async throws {
        _ = try expectSuccess(try await send("DELETE", "/v1/me/blocks/" + Self.segment(id)))
    }

    /// The signed-in person's Live Location shares both ways (theirs and those to them) that have not ended.
    public func liveShares() async throws -> [LiveShare] {
        try decode(LiveShareList.self, try expectSuccess(try await send("GET", "/v1/me/live-shares"))).shares
    }

    /// Shares Live Location with friend `friend` for `duration`, replacing a share already running to them.
    public func startLiveShare(with friend: String, for duration: LiveShareDuration) async throws -> LiveShare {
        let body = try Self.encoder.encode(LiveShareStart(friend: friend, duration: duration))
        return try decode(LiveShare.self, try expectSuccess(try await send("POST", "/v1/me/live-shares", body: body)))
    }

    /// Pauses (true) or resumes (false) the signed-in person's share with `friend`; its end stays where it was.
    public func pauseLiveShare(with friend: String, paused: Bool) async throws -> LiveShare {
        let body = try Self.encoder.encode(LiveSharePause(paused: paused))
        return try decode(LiveShare.self, try expectSuccess(try await send("PATCH", "/v1/me/live-shares/" + Self.segment(friend), body: body)))
    }

    /// Stops the signed-in person's share with `friend`.
    public func stopLiveShare(with friend: String) async throws {
        _ = try expectSuccess(try await send("DELETE", "/v1/me/live-shares/" + Self.segment(friend)))
    }

    /// Whether the signed-in person keeps Footsteps, and how many places they hold.
    public func footsteps() async throws -> FootstepsState {
        try decode(FootstepsState.self, try expectSuccess(try await send("GET", "/v1/me/footsteps")))
    }

    /// Turns Footsteps on or off (off stops keeping; the places stay until cleared).
    public func setFootsteps(on: Bool) async throws -> FootstepsState {
        let body = try Self.encoder.encode(FootstepsChange(on: on))
        return try decode(FootstepsState.self, try expectSuccess(try await send("PUT", "/v1/me/footsteps", body: body)))
    }

    /// A page of the places as GeoJSON (a FeatureCollection of Points with `firstVisit` and `lastVisit`, and `next`, the
    /// cursor to pass as `after` for the next page, absent on the last), at most `limit` (1…1000, default 1000) places.
    public func footstepsGeoJSON(after cursor: String? = nil, limit: Int? = nil) async throws -> Data {
        var query: [URLQueryItem] = []
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let cursor { query.append(URLQueryItem(name: "after", value: cursor)) }
        return try expectSuccess(try await send("GET", "/v1/me/footsteps.json", query: query))
    }

    /// How much of each neighbourhood the places have explored.
    public func explored() async throws -> Explored {
        try decode(Explored.self, try expectSuccess(try await send("GET", "/v1/me/explored.json")))
    }

    /// Forgets every place at once.
    public func clearFootsteps() async throws {
        _ = try expectSuccess(try await send("DELETE", "/v1/me/footsteps"))
    }

    /// Signs this phone out: its token is revoked and its streams end.
    public func signOut() async throws {
        _ = try expectSuccess(try await send("DELETE", "/v1/me/session"))
    }

    /// Deletes the account and everything of it.
    public func deleteAccount() async throws {
        _ = try expectSuccess(try await send("DELETE", "/v1/me"))
    }

    // MARK: The map

    /// The pin layout, revalidated with the tag of the copy held (`selected` with `atSelection`: the card's too).
    public func layout(_ viewport: MapViewport = MapViewport(), selected: String? = nil, atSelection: Bool = false) async throws -> Revalidated<Layout> {
        try await revalidated("/v1/me/layout.json", query: viewport.query + Self.selection(selected, atSelection)).map { try decode(Layout.self, $0) }
    }

    /// The frame as PNG, revalidated with the tag of the copy held.
    public func frame(_ viewport: MapViewport = MapViewport(), layers: [String]? = nil, selected: String? = nil,
                      atSelection: Bool = false) async throws -> Revalidated<Data> {
        let layers = layers.map { [URLQueryItem(name: "layers", value: $0.joined(separator: ","))] } ?? []
        return try await revalidated("/v1/me/frame.png", query: viewport.query + layers + Self.selection(selected, atSelection))
    }

    /// What a tap at (x, y) points hits.
    public func hit(x: Double, y: Double, _ viewport: MapViewport = MapViewport()) async throws -> Hit {
        let query = [URLQueryItem(name: "at", value: "\(x),\(y)")] + viewport.query
        return try decode(Hit.self, try await revalidated("/v1/me/hit", query: query).value)
    }

    /// The camera that shows `friend` (or a group's id) above the card.
    public func zoom(to friend: String, _ viewport: MapViewport = MapViewport()) async throws -> Zoom {
        let query = [URLQueryItem(name: "friend", value: friend)] + viewport.query
        return try decode(Zoom.self, try await revalidated("/v1/me/zoom", query: query).value)
    }

    /// The fly-to `friend` as an animated PNG.
    public func fly(to friend: String, fps: Int = 30, _ viewport: MapViewport = MapViewport()) async throws -> Data {
        let query = [URLQueryItem(name: "friend", value: friend), URLQueryItem(name: "fps", value: String(fps))] + viewport.query
        return try expectSuccess(try await send("GET", "/v1/me/fly.png", query: query))
    }

    private static func selection(_ selected: String?, _ atSelection: Bool) -> [URLQueryItem] {
        (selected.map { [URLQueryItem(name: "selected", value: $0)] } ?? []) + (atSelection ? [URLQueryItem(name: "at-selection", value: "true")] : [])
    }

    static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) ?? id
    }
}
