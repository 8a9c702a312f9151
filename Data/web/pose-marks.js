// Actionmoji marks for the MapLibre and Leaflet pages: each pose the layout names ("driving", "flying", "birthday",
// "asleep") as a canvas three avatars wide, centred on the friend, drawn as the raster pins draw it (PosePainter: the
// same shapes in avatar widths, the same colours): a car over the avatar, a plane window behind it, balloons up and
// left, "z z" up and right. The window and balloons go under the circle (BEHIND), the rest over it.

const INK = {
  windowFrame: "rgb(228,231,236)", sky: "rgb(178,220,255)", carBody: "rgb(229,72,77)", glass: "rgb(205,235,255)",
  tyre: "rgb(43,36,38)", hub: "rgb(200,203,208)", headlight: "rgb(255,252,0)", string: "rgb(120,120,130)",
  balloons: ["rgb(255,80,110)", "rgb(255,204,0)", "rgb(80,170,255)"], sleepInk: "rgb(58,74,140)", halo: "rgb(255,255,255)",
};

// Each draws around an avatar of width w centred at (cx, cy) on a 2D context.
const DRAW = {
  flying(g, cx, cy, w) {
    g.fillStyle = INK.windowFrame;
    g.beginPath(); g.roundRect(cx - 0.68 * w, cy - 0.8 * w, 1.36 * w, 1.6 * w, 0.6 * w); g.fill();
    g.fillStyle = INK.sky;
    g.beginPath(); g.roundRect(cx - 0.58 * w, cy - 0.7 * w, 1.16 * w, 1.4 * w, 0.5 * w); g.fill();
  },
  birthday(g, cx, cy, w) {
    const anchor = [cx - 0.3 * w, cy + 0.05 * w];
    [[-0.95, -0.95, 0], [-0.55, -1.2, 1], [-1.2, -0.5, 2]].forEach(([dx, dy, colour]) => {
      const [x, y] = [cx + dx * w, cy + dy * w];
      g.strokeStyle = INK.string; g.lineWidth = Math.max(0.6, 0.025 * w); g.lineCap = "round";
      g.beginPath(); g.moveTo(x, y + 0.22 * w); g.quadraticCurveTo((x + anchor[0]) / 2 + 0.08 * w, (y + anchor[1]) / 2, ...anchor); g.stroke();
      g.fillStyle = INK.balloons[colour];
      g.beginPath(); g.ellipse(x, y, 0.18 * w, 0.22 * w, 0, 0, 2 * Math.PI); g.fill();
      g.beginPath(); g.moveTo(x, y + 0.2 * w); g.lineTo(x - 0.05 * w, y + 0.27 * w); g.lineTo(x + 0.05 * w, y + 0.27 * w); g.fill();
      g.fillStyle = "rgba(255,255,255,0.59)";
      g.beginPath(); g.ellipse(x - 0.06 * w, y - 0.09 * w, 0.04 * w, 0.06 * w, 0, 0, 2 * Math.PI); g.fill();
    });
  },
  driving(g, cx, cy, w) {
    g.fillStyle = INK.glass;
    g.beginPath(); g.moveTo(cx - 0.55 * w, cy + 0.18 * w); g.lineTo(cx + 0.42 * w, cy + 0.18 * w);
    g.lineTo(cx + 0.62 * w, cy + 0.02 * w); g.lineTo(cx + 0.68 * w, cy + 0.18 * w); g.closePath(); g.fill();
    g.fillStyle = INK.carBody;
    g.beginPath(); g.roundRect(cx - 0.85 * w, cy + 0.16 * w, 1.7 * w, 0.36 * w, 0.14 * w); g.fill();
    g.fillStyle = INK.headlight;
    g.beginPath(); g.arc(cx + 0.76 * w, cy + 0.27 * w, 0.055 * w, 0, 2 * Math.PI); g.fill();
    for (const x of [cx - 0.5 * w, cx + 0.5 * w]) {
      g.fillStyle = INK.tyre; g.beginPath(); g.arc(x, cy + 0.52 * w, 0.16 * w, 0, 2 * Math.PI); g.fill();
      g.fillStyle = INK.hub; g.beginPath(); g.arc(x, cy + 0.52 * w, 0.065 * w, 0, 2 * Math.PI); g.fill();
    }
  },
  asleep(g, cx, cy, w) {
    g.lineJoin = "round"; g.lineCap = "round";
    for (const [dx, dy, size] of [[0.5, -0.45, 0.2], [0.78, -0.78, 0.28]]) {
      const [x, y, s] = [cx + dx * w, cy + dy * w, size * w];
      for (const [ink, width] of [[INK.halo, Math.max(1.5, 0.11 * w)], [INK.sleepInk, Math.max(0.8, 0.055 * w)]]) {
        g.strokeStyle = ink; g.lineWidth = width;
        g.beginPath(); g.moveTo(x, y); g.lineTo(x + s, y); g.lineTo(x, y + s); g.lineTo(x + s, y + s); g.stroke();
      }
    }
  },
};

// The poses drawn under the avatar's circle; the others are drawn over it.
export const BEHIND = new Set(["flying", "birthday"]);

// The poses a mark is drawn for.
export const POSES = Object.keys(DRAW);

// A canvas with the mark of `pose` around an avatar `avatarWidth` CSS pixels wide at its centre, `ratio` pixels to a
// CSS pixel; its side is three avatars.
export function poseCanvas(pose, avatarWidth, ratio) {
  const side = Math.ceil(3 * avatarWidth * ratio);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = side;
  DRAW[pose](canvas.getContext("2d"), side / 2, side / 2, avatarWidth * ratio);
  return canvas;
}

// The screen's pixels to a CSS pixel, whole.
export function pixelRatio() {
  return Math.max(1, Math.round(window.devicePixelRatio || 1));
}

// Adds the pose images `pose-NAME` to the MapLibre `map` for avatars `avatarWidth` CSS pixels wide.
export function addPoseImages(map, avatarWidth) {
  const ratio = pixelRatio();
  for (const name of POSES) {
    const canvas = poseCanvas(name, avatarWidth, ratio);
    map.addImage(`pose-${name}`, canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height), { pixelRatio: ratio });
  }
}
