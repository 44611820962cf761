// The web app manifest's fields and icons as committed in public/: what an install needs, and
// icons that are exactly what scripts/make-icons.ts draws at the sizes the manifest declares.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICON_SIZES, iconPng } from '../scripts/make-icons.ts';

const PUBLIC_DIR = resolve(import.meta.dirname, '../public');

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string }[];
}

const manifest = JSON.parse(
  readFileSync(join(PUBLIC_DIR, 'manifest.webmanifest'), 'utf8'),
) as Manifest;

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('the web app manifest', () => {
  it('installs as a standalone app of the whole origin', () => {
    expect(manifest).toMatchObject({
      name: 'Folio',
      short_name: 'Folio',
      start_url: '/',
      scope: '/',
      display: 'standalone',
    });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('declares an SVG icon and 192 and 512 px PNGs that have those sizes', () => {
    expect(manifest.icons).toContainEqual(
      expect.objectContaining({ src: '/favicon.svg', type: 'image/svg+xml', sizes: 'any' }),
    );
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512']);
    for (const icon of pngs) {
      const file = readFileSync(join(PUBLIC_DIR, icon.src));
      const [width, height] = pngSize(file);
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      expect(file.length, icon.src).toBeLessThan(16_000);
    }
  });

  it('ships the icons that scripts/make-icons.ts draws', () => {
    for (const size of ICON_SIZES) {
      const committed = readFileSync(join(PUBLIC_DIR, 'icons', `icon-${size}.png`));
      expect(committed.equals(iconPng(size)), `icon-${size}.png`).toBe(true);
    }
  });
});
