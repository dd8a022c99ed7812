// Writes resources/icon.png (512×512) and resources/icon.svg: a compass rose on a navy tile.
// Plain Node (zlib) so the icon can be regenerated anywhere without image tools.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const out = join(import.meta.dirname, '..', 'resources');

const C = SIZE / 2;
// Star points (long N/S/E/W, short diagonals), as polygons of [x, y] in a 512 box.
const star = (r1, r2, rot) => {
  const pts = [];
  for (let i = 0; i < 8; i++) {
    const r = i % 2 === 0 ? r1 : r2;
    const a = rot + (i * Math.PI) / 4;
    pts.push([C + r * Math.sin(a), C - r * Math.cos(a)]);
  }
  return pts;
};
const big = star(200, 48, 0);
const small = star(130, 36, Math.PI / 4);
const north = [
  [C, C - 200],
  [C + 48 * Math.sin(Math.PI / 4), C - 48 * Math.cos(Math.PI / 4)],
  [C, C],
  [C - 48 * Math.sin(Math.PI / 4), C - 48 * Math.cos(Math.PI / 4)],
];

const inside = (pts, x, y) => {
  let c = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i];
    const [xj, yj] = pts[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
};
const inTile = (x, y) => {
  const r = 96;
  const m = 16;
  const dx = Math.max(m + r - x, 0, x - (SIZE - m - r));
  const dy = Math.max(m + r - y, 0, y - (SIZE - m - r));
  return x >= m && x <= SIZE - m && y >= m && y <= SIZE - m && dx * dx + dy * dy <= r * r;
};
const ring = (x, y) => {
  const d = Math.hypot(x - C, y - C);
  return d > 214 && d < 226;
};

const NAVY = [22, 44, 84];
const WHITE = [245, 247, 250];
const GOLD = [230, 170, 60];
const SKY = [120, 170, 220];

function colourAt(x, y) {
  if (!inTile(x, y)) return null;
  if (inside(north, x, y)) return GOLD;
  if (inside(big, x, y)) return WHITE;
  if (inside(small, x, y)) return SKY;
  if (ring(x, y)) return SKY;
  return NAVY;
}

const S = 4; // supersampling for smooth edges
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0;
  for (let x = 0; x < SIZE; x++) {
    let r = 0,
      g = 0,
      b = 0,
      a = 0;
    for (let sy = 0; sy < S; sy++) {
      for (let sx = 0; sx < S; sx++) {
        const c = colourAt(x + (sx + 0.5) / S, y + (sy + 0.5) / S);
        if (c) {
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
    }
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    raw[o] = a ? Math.round(r / a) : 0;
    raw[o + 1] = a ? Math.round(g / a) : 0;
    raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((255 * a) / (S * S));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(join(out, 'icon.png'), png);

const poly = (pts) => pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
const rgb = (c) => `rgb(${c.join(',')})`;
writeFileSync(
  join(out, 'icon.svg'),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}">
  <rect x="16" y="16" width="480" height="480" rx="96" fill="${rgb(NAVY)}"/>
  <circle cx="${C}" cy="${C}" r="220" fill="none" stroke="${rgb(SKY)}" stroke-width="12"/>
  <polygon points="${poly(small)}" fill="${rgb(SKY)}"/>
  <polygon points="${poly(big)}" fill="${rgb(WHITE)}"/>
  <polygon points="${poly(north)}" fill="${rgb(GOLD)}"/>
</svg>
`,
);
console.log(`wrote ${join(out, 'icon.png')} (${png.length} bytes) and icon.svg`);
