// snapmap's vector tiles in MapLibre GL JS with the style made from Data/styles/snapmap.json (public); the glow as
// raster tiles; with #token=… in the address, also the signed-in viewer's friends from /v1/me/layout.json.
// #lat=…&lon=…&zoom=… (snapmap's zoom, one more than MapLibre's for the same scale) moves the camera; #glow=off hides
// the glow. Each friend's Actionmoji pose (the layout's `pose`) is drawn around their circle (pose-marks.js).
// window.mapStatus says when the map has drawn everything (and what failed) for the browser test. Friends' labels are
// text fields drawn on the canvas, never HTML.
import { addPoseImages } from "/static/pose-marks.js";
import { takeToken } from "/static/token.js";

window.mapStatus = { idle: false, errors: [] };

(function start() {
  const { token, parameters } = takeToken();
  const map = window.map = new maplibregl.Map({ container: "map", style: "/styles/snapmap.json", attributionControl: { compact: true },
                                   fadeDuration: 0, canvasContextAttributes: { preserveDrawingBuffer: true } });
  const [lat, lon, zoom] = ["lat", "lon", "zoom"].map((name) => parseFloat(parameters.get(name)));
  if ([lat, lon, zoom].every(Number.isFinite)) map.jumpTo({ center: [lon, lat], zoom: zoom - 1 });
  map.on("error", (event) => { window.mapStatus.errors.push(String(event.error && event.error.message)); });
  map.once("load", async () => {
    if (parameters.get("glow") === "off") map.setLayoutProperty("heat", "visibility", "none");
    if (token) {
      const circle = map.getStyle().layers.find((layer) => layer.id === "friends").paint;
      addPoseImages(map, 2 * (circle["circle-radius"] + circle["circle-stroke-width"]));
      const layout = await (await fetch("/v1/me/layout.json", { headers: { Authorization: `Bearer ${token}` } })).json();
      const point = (item, color) => ({ type: "Feature", geometry: { type: "Point", coordinates: [item.coordinate.lon, item.coordinate.lat] },
                                        properties: { label: item.labelText, color, pose: item.pose || "standing" } });
      map.getSource("friends").setData({ type: "FeatureCollection", features: [
        ...layout.groups.filter((group) => group.visible).map((group) => point(group, "#FFFC00")),
        ...layout.pins.filter((pin) => pin.visible && !pin.groupId).map((pin) => point(pin, "#0EADFF")),
      ] });
    }
    map.once("idle", () => { window.mapStatus.idle = true; });
    map.triggerRepaint();
  });
})();
