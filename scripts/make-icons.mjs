// Draws Relay Desk's icons as PNGs (no image tools needed): the app icon and the tray icon in
// its four states. Run `node scripts/make-icons.mjs` after changing a colour; the PNGs are committed.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x += 1) {
      const [r, g, b, a] = pixel(x + 0.5, y + 0.5, size);
      raw.set([r, g, b, a], y * (size * 4 + 1) + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
const clamp = (v) => Math.max(0, Math.min(1, v));

/** Two linked rings (a relay) on a rounded square, optionally with a status dot. */
function relayMark(background, ring, dot) {
  return (x, y, size) => {
    const u = x / size;
    const v = y / size;
    const corner = 0.22;
    const dx = Math.max(Math.abs(u - 0.5) - (0.5 - corner), 0);
    const dy = Math.max(Math.abs(v - 0.5) - (0.5 - corner), 0);
    const inSquare = clamp((corner - Math.hypot(dx, dy)) * size);
    let [r, g, b] = background;
    let alpha = background[3] === 0 ? 0 : inSquare;
    for (const cx of [0.38, 0.62]) {
      const d = Math.abs(Math.hypot(u - cx, v - 0.5) - 0.17);
      const cover = clamp((0.045 - d) * size);
      if (cover > 0) {
        [r, g, b] = [r + (ring[0] - r) * cover, g + (ring[1] - g) * cover, b + (ring[2] - b) * cover];
        alpha = Math.max(alpha, cover);
      }
    }
    if (dot) {
      const cover = clamp((0.2 - Math.hypot(u - 0.78, v - 0.78)) * size);
      if (cover > 0) {
        [r, g, b] = [r + (dot[0] - r) * cover, g + (dot[1] - g) * cover, b + (dot[2] - b) * cover];
        alpha = Math.max(alpha, cover);
      }
    }
    return [Math.round(r), Math.round(g), Math.round(b), Math.round(alpha * 255)];
  };
}

const INK = [40, 44, 52];
const STATES = {
  idle: null,
  watching: [46, 160, 67],
  waiting: [219, 154, 4],
  error: [207, 34, 46],
};

mkdirSync('resources/tray', { recursive: true });
writeFileSync('resources/icon.png', png(1024, relayMark([28, 33, 40, 255], [88, 166, 255], null)));
for (const [state, dot] of Object.entries(STATES)) {
  writeFileSync(`resources/tray/${state}.png`, png(16, relayMark([0, 0, 0, 0], INK, dot)));
  writeFileSync(`resources/tray/${state}@2x.png`, png(32, relayMark([0, 0, 0, 0], INK, dot)));
}
console.log('wrote resources/icon.png and resources/tray/{idle,watching,waiting,error}{,@2x}.png');
