// snapmap's XYZ tiles and the glow overlay tiles in Leaflet (public); with #token=… in the address, also the
// signed-in viewer's friends from /v1/me/layout.json, their labels as text (a tooltip given a string sets it as HTML),
// and each friend's Actionmoji pose (the layout's `pose`) around their circle (pose-marks.js), in panes under and over
// the circles. #glow=off leaves the glow out. window.tileStatus counts loaded and failed tiles and the friends drawn
// for the browser tests; window.map is the map.
import { BEHIND, POSES, pixelRatio, poseCanvas } from "/static/pose-marks.js";
import { takeToken } from "/static/token.js";

window.tileStatus = { loaded: 0, failed: 0, layersLoaded: 0, friends: null };
const { token, parameters } = takeToken();
// A friend's circle: its radius and ring in CSS pixels (the ring is centred on the circle's edge). Its label goes
// below the circle, clear of the car (which reaches 0.68 avatar widths down).
const PIN = { radius: 10, weight: 3 };

// The pose's mark for a friend at `at`, in the pane under or over the circles; null for a pose without one.
function poseMark(pose, at) {
  if (!POSES.includes(pose)) return null;
  const width = 2 * PIN.radius + PIN.weight;
  const canvas = poseCanvas(pose, width, pixelRatio());
  const side = canvas.width / pixelRatio();
  canvas.style.width = canvas.style.height = `${side}px`;
  const icon = L.divIcon({ html: canvas, className: "pose-mark", iconSize: [side, side], iconAnchor: [side / 2, side / 2] });
  return L.marker(at, { icon, pane: BEHIND.has(pose) ? "posesBehind" : "poses", interactive: false, keyboard: false });
}

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
  if (parameters.get("glow") !== "off") track(L.tileLayer("/heat/{z}/{x}/{y}.png", { opacity: 1, maxZoom: 20 })).addTo(map);
  window.map = map;
  if (!token) return;
  map.createPane("posesBehind").style.zIndex = 390;
  map.createPane("poses").style.zIndex = 450;
  const layout = await (await fetch("/v1/me/layout.json", { headers: { Authorization: `Bearer ${token}` } })).json();
  for (const group of layout.groups) {
    L.circleMarker([group.coordinate.lat, group.coordinate.lon], { radius: 12, color: "#fff", fillColor: "#FFFC00", fillOpacity: 1 })
      .bindTooltip(label(group.labelText), { permanent: true, direction: "bottom", className: "pin-label" }).addTo(map);
  }
  const pins = layout.pins.filter((p) => p.visible && !p.groupId);
  for (const pin of pins) {
    const at = [pin.coordinate.lat, pin.coordinate.lon];
    L.circleMarker(at, { radius: PIN.radius, weight: PIN.weight, color: "#fff", fillColor: "#0EADFF", fillOpacity: 1 })
      .bindTooltip(label(pin.labelText), { permanent: true, direction: "bottom", className: "pin-label", offset: [0, PIN.radius + PIN.weight] })
      .addTo(map);
    const mark = poseMark(pin.pose || "standing", at);
    if (mark) mark.addTo(map);
  }
  window.tileStatus.friends = layout.groups.length + pins.length;
})();
