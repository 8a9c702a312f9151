// The Snap Map screen on snapmap's HTTP API, signed in with the token in the address (#token=…, as
// `snapmap serve --demo` prints it): a tap asks /v1/me/hit; a friend is zoomed to with /v1/me/zoom along its
// fly-to path and gets a card; a group is zoomed to fit; empty map closes the card. Friends' moves arrive on
// /v1/me/events and redraw the map. The Footsteps button adds the footsteps layer (your own visited streets,
// tinted) to the frames. Without a token it shows the public map (tiles and glow) only. What people
// wrote (names) reaches the page only as textContent.
import { takeToken } from "/static/token.js";

const TOKEN = takeToken().token;
const AUTH = { headers: { Authorization: `Bearer ${TOKEN}` } };

const W = 393, H = 852, R = 6378137, SCALE = 2;
const frame = document.getElementById("frame");
const card = document.getElementById("card");
let camera = null;      // {lat, lon, zoom}
let layout = null;      // the current /v1/layout.json
let busy = false;
let footsteps = false;  // whether frames carry the signed-in viewer's footsteps layer
let selection = null;   // the friend the current frame is selected for
window.frameLayers = "";

function query(extra) {
  const params = new URLSearchParams({ center: `${camera.lat},${camera.lon}`, zoom: String(camera.zoom), ...extra });
  return params.toString();
}

function mercator(lat, lon) {
  const phi = lat * Math.PI / 180;
  return { x: R * lon * Math.PI / 180, y: R * Math.atanh(Math.sin(phi)) };
}

async function getJSON(url) {
  const response = await fetch(url, AUTH);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

async function loadFrame(selected) {
  const layers = footsteps ? "base,footsteps,heat,pins" : "base,heat,pins";
  const url = `/v1/me/frame.png?${query({ scale: String(SCALE), layers, ...(selected ? { selected } : {}) })}`;
  const response = await fetch(url, AUTH);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const previous = frame.src;
  frame.src = URL.createObjectURL(await response.blob());
  frame.style.transform = "";
  await frame.decode();
  if (previous.startsWith("blob:")) URL.revokeObjectURL(previous);
  window.frameLayers = layers;
  window.frameCenter = [camera.lat, camera.lon];
}

async function refresh(selected) {
  selection = selected;
  layout = await getJSON(`/v1/me/layout.json?${query(selected ? { selected } : {})}`);
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

// Friends sharing Live Location with the viewer (id → the share's end), from live-started and live-ended events.
const live = new Map();
function liveText(until) {
  const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" }).format(new Date(until));
  return `Live · until ${time.replace(/\s/g, " ")}`;
}

function openCard(pin) {
  const [, seen] = pin.labelText.split(" · ");
  document.getElementById("card-name").textContent = pin.name;
  document.getElementById("card-seen").textContent = live.has(pin.id) ? liveText(live.get(pin.id)) : seen === "now" ? "Active now" : `${seen} ago`;
  document.getElementById("card-avatar").textContent = pin.name.split(" ").map((w) => w[0]).join("").slice(0, 2);
  chatting = { id: pin.id, name: pin.name };
  card.classList.add("open");
  card.setAttribute("aria-hidden", "false");
}

// "Chat" opens the conversation: the app would follow snapchat://chat/ID; here a chat sheet opens over the map.
let chatting = null;
document.getElementById("card-chat").addEventListener("click", (event) => {
  event.stopPropagation();
  if (!chatting) return;
  document.getElementById("chat-name").textContent = chatting.name;
  document.getElementById("chat").dataset.link = `snapchat://chat/${chatting.id}`;
  document.getElementById("chat").classList.add("open");
  document.getElementById("chat").setAttribute("aria-hidden", "false");
  document.getElementById("chat-input").focus({ preventScroll: true });
});
document.getElementById("footsteps-toggle").addEventListener("click", async (event) => {
  if (busy || !camera) return;
  footsteps = !footsteps;
  event.currentTarget.setAttribute("aria-pressed", String(footsteps));
  busy = true;
  try {
    await loadFrame(selection);
  } finally {
    busy = false;
  }
});
document.getElementById("chat-close").addEventListener("click", () => {
  document.getElementById("chat").classList.remove("open");
  document.getElementById("chat").setAttribute("aria-hidden", "true");
});
document.getElementById("chat-form").addEventListener("submit", (event) => event.preventDefault());

function closeCard() {
  card.classList.remove("open");
  card.setAttribute("aria-hidden", "true");
}

async function zoomTo(id, isFriend) {
  const answer = await getJSON(`/v1/me/zoom?${query({ friend: id })}`);
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
    const hit = await getJSON(`/v1/me/hit?${query({ at: `${x},${y}` })}`);
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

// Reads /v1/me/events (Server-Sent Events over a streamed fetch, which can carry the token) and redraws the
// map when a friend appears, moves or disappears. window.liveEvents counts them for the browser test.
window.liveEvents = 0;
async function listen() {
  const response = await fetch("/v1/me/events", AUTH);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = (message.match(/^event: (.*)$/m) || [])[1];
      const data = JSON.parse((message.match(/^data: (.*)$/m) || [])[1] || "null");
      if (name === "live-started") live.set(data.id, data.until);
      if (name === "live-ended") live.delete(data.id);
      if (name === "appear" || name === "move" || name === "disappear") {
        window.liveEvents += 1;
        if (!busy) await refresh(null);
      }
    }
  }
}

(async function start() {
  if (!TOKEN) {
    location.replace("/leaflet.html");
    return;
  }
  const scene = await getJSON("/v1/me/layout.json");
  camera = { lat: scene.viewport.center.lat, lon: scene.viewport.center.lon, zoom: scene.viewport.zoom };
  await refresh(null);
  listen();
})();
