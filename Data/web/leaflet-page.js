// snapmap's XYZ tiles and the glow overlay tiles in Leaflet (public); with #token=… in the address, also the
// signed-in viewer's friends from /v1/me/layout.json.
// window.tileStatus counts loaded and failed tiles for the browser test.
"use strict";

window.tileStatus = { loaded: 0, failed: 0, layersLoaded: 0 };

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
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!token) return;
  const layout = await (await fetch("/v1/me/layout.json", { headers: { Authorization: `Bearer ${token}` } })).json();
  for (const group of layout.groups) {
    L.circleMarker([group.coordinate.lat, group.coordinate.lon], { radius: 12, color: "#fff", fillColor: "#FFFC00", fillOpacity: 1 })
      .bindTooltip(group.labelText, { permanent: true, direction: "bottom", className: "pin-label" }).addTo(map);
  }
  for (const pin of layout.pins.filter((p) => p.visible && !p.groupId)) {
    L.circleMarker([pin.coordinate.lat, pin.coordinate.lon], { radius: 10, color: "#fff", fillColor: "#0EADFF", fillOpacity: 1 })
      .bindTooltip(pin.labelText, { permanent: true, direction: "bottom", className: "pin-label" }).addTo(map);
  }
})();
