import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHtml } from '../../test/support/archives.ts';
import {
  createRequestValidators,
  loadSpec,
  RequestValidationError,
  type RequestValidator,
} from '../src/spec.ts';
import { call, fails, ok, upload } from './support/api.ts';
import { loadPrecompiledValidators } from './support/precompiled.ts';
import { ALL_OPERATIONS } from './support/operations.ts';
import { expectSpecResponse } from './support/spec-checker.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const spec = loadSpec();

describe('the spec', () => {
  it('is indexed with every operation', () => {
    expect(spec.basePath).toBe('/public/api/v1');
    expect([...spec.operations.keys()].sort()).toEqual([...ALL_OPERATIONS].sort());
    const patch = spec.operations.get('patchHighlight');
    expect(patch?.method).toBe('PATCH');
    expect(patch?.path).toBe('/webpages/{id}/highlights/{highlight_id}');
    expect(patch?.parameters.map((parameter) => parameter.name)).toEqual(['id', 'highlight_id']);
  });
});

// The same checks of the validators compiled from the sources at run time and of those the
// server's bundle carries, compiled at build time.
describe.each([
  ['compiled at run time', () => Promise.resolve(null)],
  ['precompiled by the build', () => loadPrecompiledValidators(spec)],
])('request validation derived from the spec (%s)', (_, precompiled) => {
  let validators: ReadonlyMap<string, RequestValidator>;
  beforeAll(async () => {
    validators = createRequestValidators(spec, await precompiled());
  });
  function validate(
    operationId: string,
    parts: { params?: unknown; query?: unknown; body?: unknown },
  ) {
    const validator = validators.get(operationId);
    if (!validator) throw new Error(operationId);
    return validator({ params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body });
  }
  function messageOf(run: () => unknown): string {
    try {
      run();
    } catch (error) {
      if (error instanceof RequestValidationError) return `${error.part}: ${error.message}`;
      throw error;
    }
    throw new Error('no validation error');
  }

  it('compiles the schemas of every operation (in strict mode, at its first request)', () => {
    // A schema Ajv's strict mode refuses throws a plain Error at its first use, not a
    // RequestValidationError: try each operation once with nothing in it.
    for (const operationId of spec.operations.keys()) {
      try {
        validate(operationId, {});
      } catch (error) {
        expect(error, operationId).toBeInstanceOf(RequestValidationError);
      }
    }
    expect(validators.size).toBe(spec.operations.size);
  });

  it('coerces query values, makes repeated keys arrays and applies defaults', () => {
    const valid = validate('listWebpages', {
      query: { page: '3', host: 'a.example', labels: ['x', 'y'], liked: 'true' },
    });
    expect(valid.query).toEqual({
      page: 3,
      per_page: 30,
      host: ['a.example'],
      labels: ['x', 'y'],
      liked: 'true',
    });
  });

  it('does not coerce bodies', () => {
    expect(
      messageOf(() => validate('patchWebpage', { params: { id: 'x' }, body: { liked: 'true' } })),
    ).toBe('body: body/liked must be a boolean');
  });

  it('checks path parameters', () => {
    expect(messageOf(() => validate('getWebpage', { params: { id: 'x'.repeat(201) } }))).toBe(
      'path: path/id must be at most 200 characters long',
    );
  });

  it('names the field of a view filter that fits none of its kinds', () => {
    const view = (filter: object) => () =>
      validate('createView', { body: { title: 'x', filters: [filter] } });
    expect(messageOf(view({ type: 1, key: 'annotation', operator: 4, rightOperand: 1 }))).toBe(
      'body: body/filters/0/operator must be one of 0, 1, 2, 3',
    );
    expect(messageOf(view({ type: 2, key: 'host', operator: true }))).toBe(
      'body: body/filters/0/rightOperand is required',
    );
    expect(validate('createView', { body: { title: 'x' } }).body).toEqual({ title: 'x' });
  });

  it('ignores the query string of operations without query parameters', () => {
    expect(validate('getWebpage', { params: { id: 'x' }, query: { _: '123' } }).query).toEqual({});
    expect(validate('listViews', { query: { x: ['1', '2'] } }).query).toEqual({});
    expect(messageOf(() => validate('listWebpages', { query: { x: '1' } }))).toBe(
      'query: query/x is not allowed',
    );
  });
});

describe('the response checker', () => {
  const webpage = {
    id: 'a'.repeat(64),
    title: 't',
    excerpt: '',
    firstAddTime: 1,
    createTime: 1,
    liked: false,
    read: false,
    size: 1,
    ext: 'html',
    highlights: [],
    labels: [],
  };

  it('accepts what the spec describes', () => {
    expect(() =>
      expectSpecResponse('getWebpage', 200, { success: true, data: webpage }),
    ).not.toThrow();
    expect(() =>
      expectSpecResponse('uploadWebpage', 200, {
        success: false,
        error: 'E0001',
        message: 'parse error: x',
      }),
    ).not.toThrow();
  });

  it('fails on wrong shapes and undocumented statuses', () => {
    expect(() =>
      expectSpecResponse('getWebpage', 200, { success: true, data: { ...webpage, link: null } }),
    ).toThrow(/data\/link must be string/);
    const { id: _id, ...noId } = webpage;
    expect(() => expectSpecResponse('getWebpage', 200, { success: true, data: noId })).toThrow(
      /id/,
    );
    expect(() =>
      expectSpecResponse('getWebpage', 200, { success: true, data: { ...webpage, ext: 'pdf' } }),
    ).toThrow();
    expect(() => expectSpecResponse('getWebpage', 409, { message: 'x' })).toThrow(/does not list/);
    expect(() => expectSpecResponse('getWebpage', 404, { success: false })).toThrow(/message/);
    expect(() => expectSpecResponse('listWebpages', 200, { success: true, data: [] })).toThrow();
    expect(() => expectSpecResponse('noSuchOperation', 200, {})).toThrow(/no operation/);
  });
});

describe('contract edges over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers a path parameter that breaks the contract with 404', async () => {
    const error = await fails(server, 'getWebpage', 404, { params: { id: 'x'.repeat(201) } });
    expect(error.message).toBe('path/id must be at most 200 characters long');
  });

  it('ignores a cache buster on an operation without query parameters', async () => {
    const page = await upload(server, makeHtml({ title: 'Busted' }), 'html');
    const got = await ok(server, 'getWebpage', { params: { id: page.id }, query: { _: '1' } });
    expect(got.id).toBe(page.id);
  });

  it('every registered route answers JSON with the envelope', async () => {
    const response = await call(server, 'listViews');
    expect(response.body).toEqual({ success: true, data: [] });
  });
});
