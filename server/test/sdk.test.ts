import {
  HamsterBase,
  HttpError,
  ResponseError,
  type HamsterBaseRequestLibOption,
  WebsiteExt,
  type WebpagesViewFilter,
} from '@hamsterbase/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml, makeMhtml, makePng, makeWebarchive } from '../../test/support/archives.ts';
import { expectSpecResponse } from './support/spec-checker.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/**
 * The official client against Folio. Every answer it receives also goes through the spec checker
 * (its request hook sees the raw response and the operation is named per call).
 */
let server: TestServer;
let operation = 'getVersion';
let sdk: HamsterBase;
let lastRequest: HamsterBaseRequestLibOption | undefined;

function sdkFor(token: string): HamsterBase {
  return new HamsterBase({
    endpoint: server.url,
    token,
    // The SDK's own fetch call, plus the spec check.
    requestLib: async (url, options) => {
      lastRequest = options;
      const response = await fetch(url, {
        method: options.method,
        headers: options.headers,
        body: options.body,
      });
      const body = await response.text();
      expectSpecResponse(operation, response.status, JSON.parse(body));
      return { status: response.status, body };
    },
  });
}

/** Names the operation the next SDK call performs (for the spec check). */
function as<T>(operationId: string, run: () => Promise<T>): Promise<T> {
  operation = operationId;
  return run();
}

beforeAll(async () => {
  server = await startTestServer();
  sdk = sdkFor(server.token);
});

afterAll(async () => {
  await server.close();
});

describe('@hamsterbase/sdk against Folio', () => {
  it('version()', async () => {
    expect(await as('getVersion', () => sdk.version())).toEqual({
      version: '0.1.0',
      name: 'folio',
    });
  });

  it('sends GET and DELETE with a JSON content type and no body, which Folio accepts', async () => {
    const page = await as('uploadWebpage', () =>
      sdk.webpages.create({
        content: makeHtml({ title: 'No body' }).toString('base64'),
        ext: WebsiteExt.html,
      }),
    );
    await as('getWebpage', () => sdk.webpages.get(page.id));
    expect(lastRequest).toMatchObject({ method: 'GET', body: undefined });
    expect(lastRequest?.headers['Content-Type']).toBe('application/json');
    expect((await as('deleteWebpage', () => sdk.webpages.delete(page.id))).title).toBe('No body');
    expect(lastRequest).toMatchObject({ method: 'DELETE', body: undefined });
    expect(lastRequest?.headers['Content-Type']).toBe('application/json');
  });

  it('webpages: create, get, getContent, update, delete', async () => {
    const file = makeMhtml({
      html: '<html><head><title>SDK page</title></head><body><p>Made for the SDK.</p></body></html>',
      url: 'https://sdk.example/page',
    });
    const created = await as('uploadWebpage', () =>
      sdk.webpages.create({ content: file.toString('base64'), ext: WebsiteExt.mhtml }),
    );
    expect(created).toMatchObject({
      title: 'SDK page',
      link: 'https://sdk.example/page',
      ext: 'mhtml',
    });

    expect(await as('getWebpage', () => sdk.webpages.get(created.id))).toEqual(created);
    const content = await as('getWebpageContent', () => sdk.webpages.getContent(created.id));
    expect(Buffer.from(content, 'base64').equals(file)).toBe(true);

    const updated = await as('patchWebpage', () =>
      sdk.webpages.update(created.id, {
        title: 'Renamed',
        excerpt: 'e',
        liked: true,
        read: true,
        link: 'https://sdk.example/other',
        labels: ['sdk', 'sdk', 'test'],
      }),
    );
    expect(updated).toMatchObject({
      title: 'Renamed',
      excerpt: 'e',
      liked: true,
      read: true,
      link: 'https://sdk.example/other',
      labels: ['sdk', 'test'],
    });

    const deleted = await as('deleteWebpage', () => sdk.webpages.delete(created.id));
    expect(deleted).toEqual(updated);
    const error = await as('getWebpage', () => sdk.webpages.get(created.id)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: 'webpage not found' });
  });

  it('webpages: highlights', async () => {
    const page = await as('uploadWebpage', () =>
      sdk.webpages.create({
        content: makeWebarchive({
          html: '<html><title>Notes</title><body><p>Some text to mark.</p></body></html>',
          url: 'https://notes.example/',
        }).toString('base64'),
        ext: WebsiteExt.webarchive,
      }),
    );
    const highlightId = await as('createHighlight', () =>
      sdk.webpages.createHighlight(page.id, {
        text: 'text',
        textBefore: 'Some ',
        textAfter: ' to mark.',
        tenThousandth: 5000,
      }),
    );
    expect(typeof highlightId).toBe('string');
    const noted = await as('patchHighlight', () =>
      sdk.webpages.updateHighlight(page.id, highlightId, { note: 'remember' }),
    );
    expect(noted.highlights).toEqual([
      expect.objectContaining({ highlightId, text: 'text', note: 'remember', type: 1 }),
    ]);
    const cleared = await as('deleteHighlight', () =>
      sdk.webpages.deleteHighlight(page.id, highlightId),
    );
    expect(cleared.highlights).toEqual([]);
  });

  it('webpages: list with every option, and search', async () => {
    const seeded = [];
    for (const [index, title] of ['Gamma sdk', 'alpha sdk', 'Beta sdk'].entries()) {
      server.clock.set(1_900_000_000_000 + index * 1000);
      const page = await as('uploadWebpage', () =>
        sdk.webpages.create({
          content: makeHtml({ title, body: `<p>listable ${title} okapi</p>` }).toString('base64'),
          ext: WebsiteExt.html,
          link: `https://list${index}.example/`,
        }),
      );
      seeded.push(page);
    }
    const [gamma, alpha, beta] = seeded;
    if (!gamma || !alpha || !beta) throw new Error('seed');
    await as('patchWebpage', () =>
      sdk.webpages.update(alpha.id, { liked: true, labels: ['l1', 'l2'] }),
    );
    await as('patchWebpage', () => sdk.webpages.update(beta.id, { read: true, labels: ['l1'] }));
    await as('createHighlight', () =>
      sdk.webpages.createHighlight(gamma.id, { text: 'x', textBefore: '', textAfter: '' }),
    );

    const list = async (options?: Parameters<HamsterBase['webpages']['list']>[0]) =>
      (await as('listWebpages', () => sdk.webpages.list(options))).webpages.map((page) => page.id);

    expect((await list()).slice(0, 3)).toEqual([beta.id, alpha.id, gamma.id]);
    expect(await list({ host: ['list0.example', 'list2.example'] })).toEqual([beta.id, gamma.id]);
    expect(await list({ host: 'list1.example' })).toEqual([alpha.id]);
    expect(await list({ labels: ['l1', 'l2'] })).toEqual([alpha.id]);
    expect(await list({ labels: 'l1' })).toEqual([beta.id, alpha.id]);
    expect(await list({ liked: true })).toEqual([alpha.id]);
    expect(await list({ read: true })).toEqual([beta.id]);
    expect(await list({ annotated: true })).toEqual([gamma.id]);
    expect(
      await list({
        ext: WebsiteExt.html,
        host: ['list0.example', 'list1.example', 'list2.example'],
        sort: 'title_asc',
      }),
    ).toEqual([alpha.id, beta.id, gamma.id]);
    expect(await list({ ext: [WebsiteExt.mhtml, WebsiteExt.webarchive], labels: 'l1' })).toEqual(
      [],
    );
    expect(await list({ labels: 'l1', sort: 'title_desc' })).toEqual([beta.id, alpha.id]);
    expect(await list({ labels: 'l1', sort: 'first_add_time_asc' })).toEqual([alpha.id, beta.id]);
    expect((await list({ sort: 'annotate_count_desc' }))[0]).toBe(gamma.id);
    expect(
      await list({ labels: 'l1', sort: 'annotate_count_asc', per_page: 1, page: 2 }),
    ).toHaveLength(1);
    expect(await list({ per_page: 2, page: 99 })).toEqual([]);

    const found = await as('searchWebpages', () =>
      sdk.webpages.search({ q: 'okapi', liked: true }),
    );
    expect(found.webpages.map((page) => page.id)).toEqual([alpha.id]);
    const paged = await as('searchWebpages', () =>
      sdk.webpages.search({
        q: 'listable',
        per_page: 2,
        page: 2,
        host: ['list0.example', 'list1.example', 'list2.example'],
      }),
    );
    expect(paged.webpages).toHaveLength(1);
  });

  it('webpagesView: create, get, patch, views, getWebpages, delete', async () => {
    const filters: WebpagesViewFilter[] = [
      { type: 0, key: 'liked', operator: true },
      { type: 2, key: 'host', operator: true, rightOperand: ['list1.example'] },
    ];
    const view = await as('createView', () =>
      sdk.webpagesView.create({ title: 'SDK view', filters, match: 'and', sort: 1 }),
    );
    expect(view).toMatchObject({ title: 'SDK view', sort: 1, limit: 25, enableLimit: false });
    expect(view.filters?.every((filter) => typeof filter.id === 'string')).toBe(true);

    expect(await as('getView', () => sdk.webpagesView.get(view.id))).toEqual(view);
    const patched = await as('patchView', () =>
      sdk.webpagesView.patch(view.id, {
        title: 'SDK view 2',
        limit: 1,
        enableLimit: true,
        match: 'or',
      }),
    );
    expect(patched).toMatchObject({
      title: 'SDK view 2',
      limit: 1,
      enableLimit: true,
      match: 'or',
    });
    const views = await as('listViews', () => sdk.webpagesView.views());
    expect(views.map((item) => item.id)).toContain(view.id);

    const pages = await as('listViewWebpages', () => sdk.webpagesView.getWebpages(view.id));
    expect(pages.webpages).toHaveLength(1);

    await as('deleteView', () => sdk.webpagesView.delete(view.id));
    const error = await as('listViewWebpages', () => sdk.webpagesView.getWebpages(view.id)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: `view ${view.id} not found` });
  });

  it('errors surface as HttpError and ResponseError', async () => {
    const garbage = await as('uploadWebpage', () =>
      sdk.webpages.create({ content: makePng(3, 3).toString('base64'), ext: WebsiteExt.mhtml }),
    ).catch((e: unknown) => e);
    expect(garbage).toBeInstanceOf(ResponseError);
    expect(garbage).toMatchObject({ code: 'E0001' });
    expect((garbage as Error).message).toMatch(/^parse error: /);

    const invalid = await as('uploadWebpage', () =>
      sdk.webpages.create({ content: 'AAAA', ext: 'pdf' as WebsiteExt }),
    ).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(HttpError);
    expect(invalid).toMatchObject({
      status: 400,
      message: 'content or ext is invalid',
    });

    const wrongToken = await as('getVersion', () => sdkFor('wrong').version()).catch(
      (e: unknown) => e,
    );
    expect(wrongToken).toBeInstanceOf(HttpError);
    expect(wrongToken).toMatchObject({ status: 401, message: 'Invalid token' });

    const missing = await as('getWebpageContent', () =>
      sdk.webpages.getContent('0'.repeat(64)),
    ).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404 });
  });
});
