// The Snap Map screen on snapmap's HTTP API: a tap asks /v1/hit; a friend is zoomed to with /v1/zoom along
// its fly-to path and gets a card; a group is zoomed to fit; empty map closes the card.
"use strict";

const W = 393, H = 852, R = 6378137, SCALE = 2;
const frame = document.getElementById("frame");
const card = document.getElementById("card");
let camera = null;      // {lat, lon, zoom}
let layout = null;      // the current /v1/layout.json
let busy = false;

function query(extra) {
  const params = new URLSearchParams({ center: `${camera.lat},${camera.lon}`, zoom: String(camera.zoom), now: "scene", ...extra });
  return params.toString();
}

function mercator(lat, lon) {
  const phi = lat * Math.PI / 180;
  return { x: R * lon * Math.PI / 180, y: R * Math.atanh(Math.sin(phi)) };
}

async function getJSON(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

function loadFrame(selected) {
  return new Promise((resolve, reject) => {
    const next = new Image();
    next.onload = () => {
      frame.src = next.src;
      frame.style.transform = "";
      resolve();
    };
    next.onerror = reject;
    next.src = `/v1/frame.png?${query({ scale: String(SCALE), layers: "base,heat,pins", ...(selected ? { selected } : {}) })}`;
  });
}

async function refresh(selected) {
  layout = await getJSON(`/v1/layout.json?${query(selected ? { selected } : {})}`);
  await loadFrame(selected);
  document.body.dataset.ready = "true";
}

// Moves the current picture along the fly-to path: each frame's camera as a scale and translation of the
// start camera's picture.
function fly(path) {
  const start = camera, origin = mercator(start.lat, start.lon);
  const perMetre = 256 * Math.pow(2, start.zoom) / (2 * Math.PI * R);
  return new Promise((resolve) => {
    const began = performance.now();
    function step(now) {
      const t = (now - began) / 1000;
      const index = Math.max(0, Math.min(path.length - 1, Math.round(t * 60)));
      const f = path[index], p = mercator(f.center.lat, f.center.lon), s = Math.pow(2, f.zoom - start.zoom);
      const x = (p.x - origin.x) * perMetre + W / 2, y = (origin.y - p.y) * perMetre + H / 2;
      frame.style.transform = `translate(${W / 2 - s * x}px, ${H / 2 - s * y}px) scale(${s})`;
      if (index < path.length - 1) requestAnimationFrame(step); else resolve();
    }
    requestAnimationFrame(step);
  });
}

function openCard(pin) {
  const [, seen] = pin.labelText.split(" · ");
  document.getElementById("card-name").textContent = pin.name;
  document.getElementById("card-seen").textContent = seen === "now" ? "Active now" : `${seen} ago`;
  document.getElementById("card-avatar").textContent = pin.name.split(" ").map((w) => w[0]).join("").slice(0, 2);
  card.classList.add("open");
  card.setAttribute("aria-hidden", "false");
}

function closeCard() {
  card.classList.remove("open");
  card.setAttribute("aria-hidden", "true");
}

async function zoomTo(id, isFriend) {
  const answer = await getJSON(`/v1/zoom?${query({ friend: id })}`);
  await fly(answer.path);
  camera = { lat: answer.camera.center.lat, lon: answer.camera.center.lon, zoom: answer.camera.zoom };
  const pin = isFriend ? layout.pins.find((p) => p.id === id) : null;
  await refresh(isFriend ? id : null);
  if (pin) openCard(pin);
}

document.getElementById("map").addEventListener("click", async (event) => {
  if (busy || !camera) return;
  const box = event.currentTarget.getBoundingClientRect();
  const x = (event.clientX - box.left) * W / box.width, y = (event.clientY - box.top) * H / box.height;
  busy = true;
  try {
    const hit = await getJSON(`/v1/hit?${query({ at: `${x},${y}` })}`);
    if (hit.kind === "none") {
      closeCard();
    } else if (hit.kind === "group" || (hit.kind === "label" && hit.members)) {
      closeCard();
      await zoomTo(hit.id, false);
    } else {
      await zoomTo(hit.id, true);
    }
  } finally {
    busy = false;
  }
});

(async function start() {
  const scene = await getJSON("/v1/layout.json?now=scene");
  camera = { lat: scene.viewport.center.lat, lon: scene.viewport.center.lon, zoom: scene.viewport.zoom };
  await refresh(null);
})();
