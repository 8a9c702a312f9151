import Foundation
import GeoCore
import MapEngine
import PinLayout

/// `snapmap layout`: where every pin and label goes, as JSON.
let runLayout: Command.Run = { options in
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let view = try LiveOptions.view(options, engine: engine)
    return try JSONOutput.encode(engine.layout(viewport, friends: view.friends, selected: options.request.selected(among: view.friends), now: view.now))
}

/// `snapmap hit`: which pin, group or label a tap hits.
let runHit: Command.Run = { options in
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let point = try options.request.point("at", in: viewport.size)
    let view = try LiveOptions.view(options, engine: engine)
    let layout = try engine.layout(viewport, friends: view.friends, selected: options.request.selected(among: view.friends), now: view.now)
    return try JSONOutput.encode(engine.hit(point, in: layout))
}

/// `snapmap zoom`: the camera, visible rectangle and fly-to path for a selected friend or group.
let runZoom: Command.Run = { options in
    let id = try options.required("friend")
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let cardHeight = try options.request.number("card-height", in: SelectionCamera.cardHeightRange(for: viewport))
    let view = try LiveOptions.view(options, engine: engine)
    let layout = try engine.layout(viewport, friends: view.friends, now: view.now)
    return try JSONOutput.encode(engine.zoom(to: id, friends: view.friends, from: viewport, layout: layout, cardHeight: cardHeight))
}
