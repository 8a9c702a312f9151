import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapRequest
import MapScene
import PinLayout
import Raster

/// `/v1/me/layout.json`, `/frame.png`, `/hit` and `/zoom`: the four map answers for the signed-in viewer, made of
/// the friends the visibility rule lets them see at the server's clock. ETags hash what is answered (or, for
/// frames, everything drawn and nothing else: `MapEngine.frameInputs`), so a revalidation never hides a change.
extension MapAPI {
    func map(_ me: PersonID, _ request: HTTPRequest, answer: String) throws -> HTTPResponse {
        let parameters = RequestParameters(request.query)
        let clockNow = clock()
        // A layout answer is kept under the viewer's stamp, read before anything it is made from.
        let stamp = answer == "layout.json" && layoutAnswers != nil ? live.answerStamp(of: me) : nil
        let key = LayoutAnswers.key(me, query: request.query, at: clockNow)
        if let kept = layoutAnswers?.answer(key, stamp: stamp, at: clockNow) {
            return conditional(request, tag: kept.tag, cacheControl: "private, no-cache") {
                HTTPResponse(status: 200, contentType: "application/json", body: kept.body)
            }
        }
        let (friends, until) = try live.friendsUntil(of: me, at: clockNow)
        let keep: @Sendable ([UInt8], String) -> Void = { [layoutAnswers, live] body, tag in
            guard let stamp else { return }
            layoutAnswers?.keep(LayoutAnswers.Answer(body: body, tag: tag, stamp: stamp, until: until), for: key,
                                stampNow: { live.answerStamp(of: me) })
        }
        let now = Date(timeIntervalSince1970: (clockNow.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let viewport = try parameters.viewport(scene: engine.scene)
        let selected = try parameters.selected(among: friends)
        let cacheControl = "private, no-cache"
        if let flag = try parameters.string("at-selection"), answer == "frame.png" || answer == "layout.json" {
            guard ["1", "true"].contains(flag) else { throw BadField(field: "at-selection", message: "must be true or 1, got \"\(flag.prefix(20))\"") }
            guard let selected else { throw BadField(field: "selected", message: "is required with at-selection") }
            return try selectedFrame(me, request, viewport: viewport, friends: friends, selected: selected, now: now, answer: answer, keep: keep)
        }
        switch answer {
        case "frame.png":
            let layers = try parameters.layers(default: [.base, .heat, .pins])
            try engine.checkFrame(viewport)
            let places = try ownFootsteps(me, layers: layers, in: viewport)
            let layout = layers.contains(.pins) ? try engine.layout(viewport, friends: friends, selected: selected, now: now) : nil
            let tag = try frameTag(viewport, layers: layers, layout: layout, friends: friends, now: now, places: places)
            let (engine, sharedLayers) = (self.engine, self.sharedLayers)
            return conditional(request, tag: tag, cacheControl: cacheControl) {
                renders.answer(for: me.rawValue, bytes: MapEngine.renderBytes(pixels: viewport.pixelWidth * viewport.pixelHeight)) { stop in
                    let frame = try engine.encodeFrame(viewport, layers: layers, friends: friends, selected: selected, now: now, places: places,
                                                       sharing: sharedLayers, stopWhen: stop)
                    return HTTPResponse(status: 200, contentType: "image/png", body: frame.png)
                }
            }
        case "layout.json":
            return try layoutJSON(request, engine.layout(viewport, friends: friends, selected: selected, now: now), keep: keep)
        case "fly.png":
            let id = try parameters.required("friend")
            guard friends.contains(where: { $0.id == id }) else { throw UnknownFriend(id: id) }
            let fps = Int(try parameters.number("fps", in: 30...60) ?? 30)
            let viewer = try live.ownFix(of: me, at: now)?.coordinate
            try engine.checkFly(viewport, friends: friends, selected: id, now: now, viewer: viewer, framesPerSecond: fps)
            let engine = self.engine
            return renders.answer(for: me.rawValue, bytes: MapEngine.flyRenderBytes(pixels: viewport.pixelWidth * viewport.pixelHeight)) { stop in
                let frames = try engine.flyAnimation(viewport, friends: friends, selected: id, now: now, viewer: viewer, framesPerSecond: fps,
                                                     stopWhen: stop)
                return HTTPResponse(status: 200, contentType: "image/apng", body: try APNG.encode(frames), headers: [("Cache-Control", cacheControl)])
            }
        case "hit":
            let point = try parameters.point("at", in: viewport.size)
            let layout = try engine.layout(viewport, friends: friends, selected: selected, now: now)
            return try tagged(request, engine.hit(point, in: layout), cacheControl: cacheControl)
        default:
            let id = try parameters.required("friend")
            let card = try parameters.number("card-height", in: SelectionCamera.cardHeightRange(for: viewport))
            let layout = try engine.layout(viewport, friends: friends, now: now)
            return try tagged(request, engine.zoom(to: id, friends: friends, from: viewport, layout: layout, cardHeight: card), cacheControl: cacheControl)
        }
    }

    /// The selected frame (or its layout, with the card): at the friend's selection camera, the card over the bottom.
    private func selectedFrame(_ me: PersonID, _ request: HTTPRequest, viewport: Viewport, friends: [Friend], selected: String, now: Date,
                               answer: String, keep: ([UInt8], String) -> Void) throws -> HTTPResponse {
        let viewer = try live.ownFix(of: me, at: now)?.coordinate
        let (framed, layout, _) = try engine.selectionLayout(viewport, friends: friends, selected: selected, now: now, viewer: viewer)
        guard answer == "frame.png" else { return try layoutJSON(request, layout, keep: keep) }
        let layers = try RequestParameters(request.query).layers(default: [.base, .heat, .pins])
        let places = try ownFootsteps(me, layers: layers, in: framed)
        let tag = try frameTag(framed, layers: layers.union([.pins]), layout: layout, friends: friends, now: now, places: places)
        let (engine, sharedLayers) = (self.engine, self.sharedLayers)
        return conditional(request, tag: tag, cacheControl: "private, no-cache") {
            renders.answer(for: me.rawValue, bytes: MapEngine.renderBytes(pixels: viewport.pixelWidth * viewport.pixelHeight)) { stop in
                let frame = try engine.encodeFrame(viewport, layers: layers, friends: friends, selected: selected, atSelection: true, now: now,
                                                   viewer: viewer, places: places, sharing: sharedLayers, stopWhen: stop)
                return HTTPResponse(status: 200, contentType: "image/png", body: frame.png)
            }
        }
    }

    /// A frame's tag: the code, the base map's data when the base layer is drawn, and everything else it is drawn from
    /// (`MapEngine.frameInputs`).
    private func frameTag(_ viewport: Viewport, layers: Set<MapLayer>, layout: PinLayoutResult?, friends: [Friend], now: Date,
                          places: [MercatorPoint]) throws -> String {
        let drawn = try engine.frameInputs(viewport, layers: layers, layout: layout, friends: friends, now: now, places: places)
        return EntityTag.of([Self.code, layers.contains(.base) ? baseMapData : "", drawn])
    }

    /// The signed-in person's own Footsteps that can tint a frame drawn at `framed`, read as the frame is asked for (so a
    /// cleared history tints nothing at once), when the footsteps layer is asked for; it is drawn over the base, which
    /// it then needs. Only the places in the frame's part of the map are read, through the store's index.
    private func ownFootsteps(_ me: PersonID, layers: Set<MapLayer>, in framed: Viewport) throws -> [MercatorPoint] {
        guard layers.contains(.footsteps) else { return [] }
        guard layers.contains(.base) else { throw BadField(field: "layers", message: "footsteps is drawn over the base layer: add base") }
        guard let box = engine.footstepsBounds(framed, layers: layers) else { return [] }
        return try live.footsteps(of: me, in: box).map { WebMercator.projectUnchecked(lat: $0.lat, lon: $0.lon) }
    }

    /// A layout answer, tagged with the hash of its bytes (hashed once), handed to `keep` with its tag before it is answered.
    private func layoutJSON(_ request: HTTPRequest, _ layout: PinLayoutResult, keep: ([UInt8], String) -> Void) throws -> HTTPResponse {
        let body = try LayoutJSON.encode(layout)
        let tag = EntityTag.of(bytes: body)
        keep(body, tag)
        return conditional(request, tag: tag, cacheControl: "private, no-cache") {
            HTTPResponse(status: 200, contentType: "application/json", body: body)
        }
    }

    /// A JSON answer whose ETag is the hash of its bytes.
    func tagged<T: Encodable>(_ request: HTTPRequest, _ value: T, cacheControl: String, vary: String? = nil) throws -> HTTPResponse {
        try tagged(request, json: Self.jsonBytes(value), cacheControl: cacheControl, vary: vary)
    }

    /// JSON bytes tagged with their hash; `vary` names the request header they depend on (for shared caches).
    func tagged(_ request: HTTPRequest, json body: [UInt8], cacheControl: String, vary: String? = nil) -> HTTPResponse {
        conditional(request, tag: EntityTag.of(bytes: body), cacheControl: cacheControl, vary: vary) {
            HTTPResponse(status: 200, contentType: "application/json", body: body)
        }
    }

    static func jsonBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        try encoded(value, status: 200).body
    }
}
