// Draws images/icon.png (128×128): a white die showing five on green baize. Plain Node: the PNG is
// written by hand (zlib for the image data, CRC-32 per chunk), so no image library is needed.
// Run: node scripts/make-icon.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const SIZE = 128;
const SUB = 4; // 4×4 samples per pixel smooth the edges

/** Inside a rounded rectangle centred at (cx, cy) with half-size h and corner radius r. */
function inRoundedSquare(x, y, cx, cy, h, r) {
    const dx = Math.max(Math.abs(x - cx) - (h - r), 0);
    const dy = Math.max(Math.abs(y - cy) - (h - r), 0);
    return dx * dx + dy * dy <= r * r;
}

const BAIZE = [32, 112, 64];
const BAIZE_EDGE = [22, 80, 45];
const DIE = [250, 248, 240];
const DIE_SHADE = [214, 208, 196];
const PIP = [150, 24, 32];
const SHADOW = [12, 50, 28];

/** The colour of one sample point, back to front; null is transparent. */
function sample(x, y) {
    let colour = null;
    if (inRoundedSquare(x, y, 64, 64, 63, 22)) colour = BAIZE_EDGE;
    if (inRoundedSquare(x, y, 64, 64, 59, 19)) colour = BAIZE;
    if (inRoundedSquare(x, y, 68, 70, 38, 10)) colour = SHADOW;
    if (inRoundedSquare(x, y, 64, 64, 38, 10)) colour = DIE_SHADE;
    if (inRoundedSquare(x, y, 63, 62, 35, 9)) colour = DIE;
    for (const [px, py] of [[42, 41], [84, 41], [63, 62], [42, 83], [84, 83]]) {
        if ((x - px) ** 2 + (y - py) ** 2 <= 8.5 ** 2) colour = PIP;
    }
    return colour;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
    raw[y * (SIZE * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < SIZE; x++) {
        let r = 0, g = 0, b = 0, a = 0;
        for (let sy = 0; sy < SUB; sy++) {
            for (let sx = 0; sx < SUB; sx++) {
                const c = sample(x + (sx + 0.5) / SUB, y + (sy + 0.5) / SUB);
                if (!c) continue;
                r += c[0]; g += c[1]; b += c[2]; a += 1;
            }
        }
        const o = y * (SIZE * 4 + 1) + 1 + x * 4;
        raw[o] = a ? Math.round(r / a) : 0;
        raw[o + 1] = a ? Math.round(g / a) : 0;
        raw[o + 2] = a ? Math.round(b / a) : 0;
        raw[o + 3] = Math.round((255 * a) / (SUB * SUB));
    }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
});

function crc32(buf) {
    let c = 0xffffffff;
    for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0))
]);
mkdirSync(new URL('../images/', import.meta.url), { recursive: true });
writeFileSync(new URL('../images/icon.png', import.meta.url), png);
console.log(`images/icon.png: ${png.length} bytes`);
