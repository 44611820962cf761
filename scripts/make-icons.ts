// Draws the app's PNG icons (the web app manifest's 192 and 512 px icons) from the same shapes as
// public/favicon.svg, without an image library: each pixel is the coverage of the shapes, 4 × 4
// samples a pixel, written as an RGBA PNG with node:zlib. `npx tsx scripts/make-icons.ts` writes
// them to public/icons/; test/icons.test.ts checks that the committed files are what it draws.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

const BLUE: Rgb = [0x2f, 0x5b, 0xd3];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const FOLD: Rgb = [0xc9, 0xd6, 0xf7];

export const ICON_SIZES = [192, 512] as const;

/** favicon.svg's drawing, in its 32 × 32 units: the topmost shape's colour at (x, y), or none. */
function colourAt(x: number, y: number): Rgb | null {
  const inRoundedRect = (x0: number, y0: number, x1: number, y1: number, r: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
    return dx * dx + dy * dy <= r * r;
  };
  const nearSegment = (x0: number, x1: number, ly: number, half: number) => {
    const cx = Math.min(Math.max(x, x0), x1);
    return (x - cx) ** 2 + (y - ly) ** 2 <= half * half;
  };
  // The text lines on the page (stroke 1.6, round caps).
  if (nearSegment(12, 20, 16, 0.8) || nearSegment(12, 20, 19.5, 0.8)) return BLUE;
  if (nearSegment(12, 17, 23, 0.8)) return BLUE;
  // The folded corner, then the page (its top right corner cut off by the fold).
  if (x >= 19 && y <= 12 && x - 19 <= y - 7) return FOLD;
  if (inRoundedRect(9, 7, 24, 26, 1) && !(x > 19 && y < 12 && x - 19 > y - 7)) return WHITE;
  if (inRoundedRect(0, 0, 32, 32, 7)) return BLUE;
  return null;
}

/** The icon's pixels, `size` × `size` RGBA. */
export function drawIcon(size: number): Uint8Array {
  const samples = 4;
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) * 32) / size;
          const y = ((py + (sy + 0.5) / samples) * 32) / size;
          const colour = colourAt(x, y);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered > 0) {
        pixels[at] = Math.round(r / covered);
        pixels[at + 1] = Math.round(g / covered);
        pixels[at + 2] = Math.round(b / covered);
        pixels[at + 3] = Math.round((covered * 255) / samples ** 2);
      }
    }
  }
  return pixels;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** An RGBA image as a PNG file (8 bits a channel, no filter, deflated). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // depth 8, colour type RGBA, deflate, no filter, no interlace
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter type (0: none).
    rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

export function iconPng(size: number): Buffer {
  return encodePng(size, size, drawIcon(size));
}

export const ICONS_DIR = resolve(import.meta.dirname, '../public/icons');

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  for (const size of ICON_SIZES) {
    const path = join(ICONS_DIR, `icon-${size}.png`);
    const png = iconPng(size);
    writeFileSync(path, png);
    console.log(`${path}: ${png.length} bytes`);
  }
}
