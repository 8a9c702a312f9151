// snapmap's XYZ tiles and the glow overlay tiles in Leaflet (public); with #token=… in the address, also the
// signed-in viewer's friends from /v1/me/layout.json, their labels as text (a tooltip given a string sets it as HTML).
// window.tileStatus counts loaded and failed tiles for the browser test.
import { takeToken } from "/static/token.js";

window.tileStatus = { loaded: 0, failed: 0, layersLoaded: 0 };
const { token } = takeToken();

// A tooltip's content as a text node's: whatever a person wrote stays text.
function label(text) {
  const span = document.createElement("span");
  span.textContent = text;
  return span;
}

(async function start() {
  const tilejson = await (await fetch("/tiles.json")).json();
  const [lon, lat, zoom] = tilejson.center;
  const map = L.map("map", { minZoom: tilejson.minzoom, maxZoom: tilejson.maxzoom }).setView([lat, lon], zoom);
  const track = (layer) => layer
    .on("tileload", () => { window.tileStatus.loaded += 1; })
    .on("tileerror", () => { window.tileStatus.failed += 1; })
    .on("load", () => { window.tileStatus.layersLoaded += 1; });
  track(L.tileLayer("/tiles/{z}/{x}/{y}{r}.png", { attribution: tilejson.attribution, maxZoom: 20 })).addTo(map);
  track(L.tileLayer("/heat/{z}/{x}/{y}.png", { opacity: 1, maxZoom: 20 })).addTo(map);
  if (!token) return;
  const layout = await (await fetch("/v1/me/layout.json", { headers: { Authorization: `Bearer ${token}` } })).json();
  for (const group of layout.groups) {
    L.circleMarker([group.coordinate.lat, group.coordinate.lon], { radius: 12, color: "#fff", fillColor: "#FFFC00", fillOpacity: 1 })
      .bindTooltip(label(group.labelText), { permanent: true, direction: "bottom", className: "pin-label" }).addTo(map);
  }
  for (const pin of layout.pins.filter((p) => p.visible && !p.groupId)) {
    L.circleMarker([pin.coordinate.lat, pin.coordinate.lon], { radius: 10, color: "#fff", fillColor: "#0EADFF", fillOpacity: 1 })
      .bindTooltip(label(pin.labelText), { permanent: true, direction: "bottom", className: "pin-label" }).addTo(map);
  }
})();
