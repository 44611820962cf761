// Installing Folio to a home screen: the page links a web app manifest that the server sends as
// such, with a standalone display, theme colours for both system themes, and icons that load at
// the sizes the manifest declares.
import { expect, test } from './support/fixtures.ts';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
}

for (const width of [360, 1440]) {
  test(`at ${width} px, the page links a manifest with a standalone display and icons that load at their sizes`, async ({
    page,
    archive,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await archive.open(page, '/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).not.toBeNull();
    const manifestUrl = new URL(href!, page.url());
    // As the browser fetches it: no token, no cookie.
    const response = await fetch(manifestUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Record<string, unknown> & {
      icons: ManifestIcon[];
    };
    expect(manifest).toMatchObject({
      name: 'Folio',
      short_name: 'Folio',
      display: 'standalone',
    });
    // start_url and scope cover the app's origin.
    expect(new URL(String(manifest.start_url), manifestUrl).href).toBe(`${archive.url}/`);
    expect(new URL(String(manifest.scope), manifestUrl).href).toBe(`${archive.url}/`);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

    // A theme colour for each system theme.
    const themeColours = await page
      .locator('meta[name="theme-color"]')
      .evaluateAll((metas) =>
        metas.map((meta) => [meta.getAttribute('media'), meta.getAttribute('content')]),
      );
    expect(themeColours.map(([media]) => media).sort()).toEqual([
      '(prefers-color-scheme: dark)',
      '(prefers-color-scheme: light)',
    ]);
    for (const [, colour] of themeColours) expect(colour).toMatch(/^#[0-9a-f]{6}$/i);

    // Every icon loads in the page, at its declared size (the SVG at any size).
    const pngSizes: string[] = [];
    for (const icon of manifest.icons) {
      const src = new URL(icon.src, manifestUrl).href;
      const size = await page.evaluate(
        (url) =>
          new Promise<string>((done, fail) => {
            const image = new Image();
            image.onload = () => done(`${image.naturalWidth}x${image.naturalHeight}`);
            image.onerror = () => fail(new Error(`${url} did not load`));
            image.src = url;
          }),
        src,
      );
      if (icon.sizes === 'any') {
        expect(icon.type).toBe('image/svg+xml');
        expect(size, icon.src).not.toBe('0x0');
      } else {
        expect(size, icon.src).toBe(icon.sizes);
        pngSizes.push(size);
      }
    }
    expect(pngSizes.sort()).toEqual(['192x192', '512x512']);
  });
}
