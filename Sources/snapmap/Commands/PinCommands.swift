import Foundation
import GeoCore
import MapEngine
import PinLayout

/// `snapmap layout`: where every pin and label goes, as JSON.
let layoutCommand = Command(
    name: "layout",
    summary: "lay out the friends' pins and labels of a viewport (collisions resolved), as JSON",
    usage: "layout [--center LAT,LON] [--zoom Z] [--size WxH] [--scale S] [--selected ID] [--viewer ID] [--clock ISO8601|scene] [--db PATH]",
    options: ViewportOptions.specs + PinOptions.specs + [DataLocator.option]
) { options in
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let view = try LiveOptions.view(options, engine: engine)
    return try JSONOutput.encode(engine.layout(viewport, friends: view.friends, selected: options.request.selected(among: view.friends), now: view.now))
}

/// `snapmap hit`: which pin, group or label a tap hits.
let hitCommand = Command(
    name: "hit",
    summary: "tell which pin, group or label a tap at X,Y (points) hits, as JSON",
    usage: "hit --at X,Y [--center LAT,LON] [--zoom Z] [--size WxH] [--scale S] [--selected ID] [--viewer ID] [--clock ISO8601|scene] [--db PATH]",
    options: [.value("at", "X,Y", "the tap in points from the top-left corner")] + ViewportOptions.specs + PinOptions.specs + [DataLocator.option]
) { options in
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let point = try options.request.point("at", in: viewport.size)
    let view = try LiveOptions.view(options, engine: engine)
    let layout = try engine.layout(viewport, friends: view.friends, selected: options.request.selected(among: view.friends), now: view.now)
    return try JSONOutput.encode(engine.hit(point, in: layout))
}

/// `snapmap zoom`: the camera, visible rectangle and fly-to path for a selected friend or group.
let zoomCommand = Command(
    name: "zoom",
    summary: "the camera, visible map rectangle and fly-to path that put a friend (or group) in the middle of the free area",
    usage: "zoom --friend ID [--card-height PT] [--center LAT,LON] [--zoom Z] [--size WxH] [--scale S] [--viewer ID] [--clock ISO8601|scene] [--db PATH]",
    options: [
        .value("friend", "ID", "a friend's id, or a group id from the layout (group-<id>)"),
        .value("card-height", "PT", "the card's height in points (default: the scene's)"),
    ] + ViewportOptions.specs + LiveOptions.viewSpecs + [DataLocator.option]
) { options in
    let id = try options.required("friend")
    let engine = try DataLocator.engine(options)
    let viewport = try options.request.viewport(scene: engine.scene)
    let cardHeight = try options.request.number("card-height", in: SelectionCamera.cardHeightRange(for: viewport))
    let view = try LiveOptions.view(options, engine: engine)
    let layout = try engine.layout(viewport, friends: view.friends, now: view.now)
    return try JSONOutput.encode(engine.zoom(to: id, friends: view.friends, from: viewport, layout: layout, cardHeight: cardHeight))
}
