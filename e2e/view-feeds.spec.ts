// A view's RSS feed: turned on in the view's editor, read without the token by a feed reader (this
// test's own fetch), rotated (the old address stops working) and turned off; and against a server
// without Folio's feed extension (HamsterBase), a section that says so and changes nothing.
import { DomUtils, parseDocument } from 'htmlparser2';
import { expect, test } from './support/fixtures.ts';

const page1 = '<html><head><title>Feed page one</title></head><body><p>One</p></body></html>';
const page2 = '<html><head><title>Feed page two</title></head><body><p>Two</p></body></html>';

/** What a feed reader gets at `url` (no token): the status, and the item titles of valid RSS 2.0. */
async function readFeed(url: string): Promise<{ status: number; titles: string[] }> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, titles: [] };
  expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
  const document = parseDocument(text, { xmlMode: true });
  const rss = DomUtils.findOne((element) => element.name === 'rss', document.children, false);
  expect(rss?.attribs.version).toBe('2.0');
  const items = DomUtils.findAll((element) => element.name === 'item', document.children);
  for (const item of items) {
    expect(DomUtils.findOne((element) => element.name === 'guid', item.children)).not.toBeNull();
  }
  const titles = items.map((item) =>
    DomUtils.textContent(
      DomUtils.findOne((element) => element.name === 'title', item.children) ?? [],
    ),
  );
  return { status: 200, titles };
}

test('turn a view’s feed on, read it without the token, rotate it, turn it off', async ({
  page,
  archive,
  context,
}) => {
  await archive.upload(Buffer.from(page1), 'html', { link: 'https://one.example/' });
  await archive.upload(Buffer.from(page2), 'html');
  const view = await archive.api<{ id: string }>('POST', '/views', { title: 'Feed view' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: archive.url });

  await archive.open(page, `/views/${view.id}/edit`);
  const section = page.getByRole('region', { name: 'RSS feed' });
  await expect(section.getByText(/^Off\./)).toBeVisible();
  await section.getByRole('button', { name: 'Turn on' }).click();

  const address = section.getByLabel('Feed address');
  await expect(address).toHaveValue(/\/feeds\/views\/.+\/webpages\?key=/);
  const first = await address.inputValue();
  expect(first.startsWith(`${archive.url}/feeds/views/${view.id}/webpages?key=`)).toBe(true);
  expect(await readFeed(first)).toEqual({
    status: 200,
    titles: ['Feed page two', 'Feed page one'],
  });
  await section.getByRole('button', { name: 'Copy' }).click();
  await expect(section.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

  await section.getByRole('button', { name: 'Rotate' }).click();
  await expect(
    section.getByText('Make a new address? The current one stops working.'),
  ).toBeVisible();
  await section.getByRole('button', { name: 'Make a new address' }).click();
  await expect(address).not.toHaveValue(first);
  const second = await address.inputValue();
  expect((await readFeed(first)).status).toBe(404);
  expect((await readFeed(second)).status).toBe(200);

  await section.getByRole('button', { name: 'Turn off' }).click();
  await expect(section.getByRole('button', { name: 'Turn on' })).toBeVisible();
  expect((await readFeed(second)).status).toBe(404);
});

test('against HamsterBase: the section says feeds are managed there, and writes nothing', async ({
  page,
  hamster: archive,
}) => {
  const view = await archive.api<{ id: string }>('POST', '/views', { title: 'Plain view' });
  const feedCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/feed')) feedCalls.push(`${request.method()} ${request.url()}`);
  });
  await archive.open(page, `/views/${view.id}/edit`);
  const section = page.getByRole('region', { name: 'RSS feed' });
  await expect(section.getByText(/managed in HamsterBase/)).toBeVisible();
  await expect(section.getByRole('button')).toHaveCount(0);
  expect(feedCalls.every((call) => call.startsWith('GET '))).toBe(true);
});
