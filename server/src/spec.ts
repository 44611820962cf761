import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { precompiled, type PrecompiledValidators } from './precompiled-validators.ts';
import { describeValidationError } from './validation-messages.ts';

/** The API contract: every path, schema and error. The server derives its validation from it. */
export const SPEC_FILE = fileURLToPath(new URL('../../openapi/archive.yaml', import.meta.url));

/** Component schemas are registered in Ajv under this base, and `$ref`s are rewritten to it. */
const SCHEMA_BASE = 'https://folio.invalid/openapi/components/schemas/';
const SCHEMA_REF_PREFIX = '#/components/schemas/';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

export type HttpMethod = Uppercase<(typeof HTTP_METHODS)[number]>;
export type JsonSchema = Record<string, unknown> | boolean;
type JsonObject = Record<string, unknown>;

export interface SpecParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface SpecRequestBody {
  required: boolean;
  /** The JSON body's schema (`application/json`). */
  schema: JsonSchema;
}

export interface SpecOperation {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path, relative to the server URL, e.g. `/webpages/{id}`. */
  path: string;
  parameters: SpecParameter[];
  requestBody: SpecRequestBody | undefined;
  /** Status code (`'200'`, `'404'`…) → the `application/json` schema of that response. */
  responses: ReadonlyMap<string, JsonSchema | undefined>;
}

export interface ApiSpec {
  /** The path of the first server, e.g. `/public/api/v1`. */
  basePath: string;
  operations: ReadonlyMap<string, SpecOperation>;
  componentSchemas: Readonly<Record<string, JsonSchema>>;
}

/** The contract as JSON text, defined by the server's bundle only (server/build.ts). */
declare const FOLIO_BUNDLED_SPEC: string | undefined;

const loaded = new Map<string, ApiSpec>();
/** The specs read from the bundle's own contract: the build's precompiled validators are theirs. */
const bundledSpecs = new WeakSet<ApiSpec>();

/** Loads and indexes the contract (once per file). */
export function loadSpec(file: string = SPEC_FILE): ApiSpec {
  const cached = loaded.get(file);
  if (cached) return cached;
  // The server's bundle carries the contract as JSON (server/build.ts): no YAML parse at start.
  const bundled = file === SPEC_FILE && typeof FOLIO_BUNDLED_SPEC === 'string';
  const document = asObject(
    bundled ? JSON.parse(FOLIO_BUNDLED_SPEC) : parse(readFileSync(file, 'utf8')),
    'the OpenAPI document',
  );
  const spec = indexSpec(document);
  loaded.set(file, spec);
  if (bundled) bundledSpecs.add(spec);
  return spec;
}

/**
 * An Ajv (JSON Schema 2020-12) instance that knows every component schema of the spec, so that
 * schemas taken from the spec (rewritten by `toAjvSchema`) resolve their `$ref`s.
 */
export function createSpecAjv(spec: ApiSpec, options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, verbose: true, ...options });
  addFormats(ajv);
  // OpenAPI keywords that are not JSON Schema: annotations only.
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
  for (const [name, schema] of Object.entries(spec.componentSchemas)) {
    ajv.addSchema(toAjvSchema(schema) as object, `${SCHEMA_BASE}${name}`);
  }
  return ajv;
}

/** A copy of a schema from the spec whose `#/components/schemas/…` refs point into Ajv. */
export function toAjvSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjvSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === '$ref' && typeof value === 'string' ? rewriteRef(value) : toAjvSchema(value);
  }
  return copy;
}

/** Where the invalid value was: a path parameter, a query parameter or the body. */
export type RequestPart = 'path' | 'query' | 'body';

export class RequestValidationError extends Error {
  override name = 'RequestValidationError';

  constructor(
    readonly part: RequestPart,
    message: string,
    /** The top-level field of `part` the failure is about, when it is about one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface RequestParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

export interface ValidatedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export type RequestValidator = (parts: RequestParts) => ValidatedRequest;

/** How path and query parameters are validated: coerced from strings, defaults applied. */
export const PARAMETER_OPTIONS: Options = { coerceTypes: 'array', useDefaults: true };

/** The schemas a request to `operation` is validated against, by part (no body schema: none). */
export function operationSchemas(operation: SpecOperation): {
  path: object;
  query: object;
  body: object | undefined;
} {
  return {
    path: parametersSchema(operation, 'path'),
    query: parametersSchema(operation, 'query'),
    body: operation.requestBody ? (toAjvSchema(operation.requestBody.schema) as object) : undefined,
  };
}

/** The name of the validator of an operation's `part` (among the build's precompiled ones). */
export function validatorName(operationId: string, part: RequestPart): string {
  return `${operationId}_${part}`;
}

const compiledValidators = new WeakMap<ApiSpec, ReadonlyMap<string, RequestValidator>>();

/**
 * Builds the request validator of every operation from the spec: path and query parameters
 * (coerced from strings, repeated query keys as arrays, defaults applied, unknown keys refused)
 * and the JSON body (no coercion). Throws `RequestValidationError` with a message naming the field.
 *
 * The server's bundle has them compiled at build time (`precompiled-validators.ts`): compiling
 * an operation's schemas and the Ajv instances they need took ~0.5 s of CPU at each server's first
 * requests. From the sources (tsx, Vitest), each operation's are compiled at its first request.
 */
export function createRequestValidators(
  spec: ApiSpec,
  /**
   * Validators compiled ahead from `spec`; by default the build's own for its own contract, if any.
   * `null`: compile them at run time.
   */
  ahead?: PrecompiledValidators | null,
): ReadonlyMap<string, RequestValidator> {
  // Only the default choice is kept per spec: a caller that chooses gets its own.
  const byDefault = ahead === undefined;
  const cached = byDefault ? compiledValidators.get(spec) : undefined;
  if (cached) return cached;
  const built = (byDefault ? (bundledSpecs.has(spec) ? precompiled : null) : ahead) ?? undefined;
  const parameterAjv = once(() => createSpecAjv(spec, PARAMETER_OPTIONS));
  const bodyAjv = once(() => createSpecAjv(spec));
  const validators = new Map<string, RequestValidator>();
  for (const operation of spec.operations.values()) {
    // An operation without query parameters ignores the query string (cache busters…); one
    // with query parameters refuses unknown ones.
    const hasQuery = operation.parameters.some((parameter) => parameter.in === 'query');
    const requestBody = operation.requestBody;
    const compiled = once(() => {
      if (built) {
        const named = (part: RequestPart, from: Readonly<Record<string, ValidateFunction>>) => {
          const validate = from[validatorName(operation.operationId, part)];
          if (!validate)
            throw new Error(`no precompiled ${part} validator for ${operation.operationId}`);
          return validate;
        };
        return {
          params: named('path', built.parameters),
          query: named('query', built.parameters),
          body: requestBody ? named('body', built.bodies) : undefined,
        };
      }
      const schemas = operationSchemas(operation);
      return {
        params: parameterAjv().compile(schemas.path),
        query: parameterAjv().compile(schemas.query),
        body: schemas.body ? bodyAjv().compile(schemas.body) : undefined,
      };
    });
    validators.set(operation.operationId, (parts) => {
      const { params, query, body } = compiled();
      const validParams = check(parameterAjv, params, { ...asRecord(parts.params) }, 'path');
      const validQuery = hasQuery
        ? check(parameterAjv, query, { ...asRecord(parts.query) }, 'query')
        : {};
      if (!requestBody || !body) {
        return { params: validParams, query: validQuery, body: undefined };
      }
      if (parts.body === undefined) {
        if (requestBody.required) {
          throw new RequestValidationError(
            'body',
            'body is required: send a JSON object with Content-Type: application/json',
          );
        }
        return { params: validParams, query: validQuery, body: undefined };
      }
      return {
        params: validParams,
        query: validQuery,
        body: check(bodyAjv, body, parts.body, 'body'),
      };
    });
  }
  if (byDefault) compiledValidators.set(spec, validators);
  return validators;
}

/** `make`'s value, made at the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** `data` if `validate` accepts it; else a RequestValidationError (worded with `ajv`'s help). */
function check<T>(ajv: () => Ajv2020, validate: ValidateFunction, data: T, part: RequestPart): T {
  if (validate(data)) return data;
  const errors = validate.errors ?? [];
  throw new RequestValidationError(
    part,
    describeValidationError(ajv(), part, errors),
    failedField(errors),
  );
}

/** The top-level field the (last, failing) validation error is about, if any. */
function failedField(errors: readonly ErrorObject[]): string | undefined {
  const error = errors[errors.length - 1];
  if (error === undefined) return undefined;
  const segment = error.instancePath.split('/')[1];
  if (segment !== undefined && segment !== '')
    return segment.replace(/~1/g, '/').replace(/~0/g, '~');
  const params = error.params as Record<string, unknown>;
  const named = params.missingProperty ?? params.additionalProperty;
  return typeof named === 'string' ? named : undefined;
}

/** One object schema for all the parameters of an operation found `in` one place. */
function parametersSchema(operation: SpecOperation, place: 'path' | 'query'): object {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== place) continue;
    properties[parameter.name] = toAjvSchema(parameter.schema);
    if (parameter.required) required.push(parameter.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function indexSpec(document: JsonObject): ApiSpec {
  const components = asObject(document.components ?? {}, 'components');
  const componentSchemas = asObject(components.schemas ?? {}, 'components.schemas') as Record<
    string,
    JsonSchema
  >;
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const firstServer = servers[0] === undefined ? {} : asObject(servers[0], 'servers[0]');
  const basePath = typeof firstServer.url === 'string' ? firstServer.url.replace(/\/$/, '') : '';
  const operations = new Map<string, SpecOperation>();
  for (const [path, rawItem] of Object.entries(asObject(document.paths, 'paths'))) {
    const item = resolve(document, rawItem, `paths.${path}`);
    const shared = parameterList(document, item.parameters, path);
    for (const method of HTTP_METHODS) {
      if (item[method] === undefined) continue;
      const raw = asObject(item[method], `${method} ${path}`);
      const operationId = raw.operationId;
      if (typeof operationId !== 'string') throw new Error(`${method} ${path} has no operationId`);
      const own = parameterList(document, raw.parameters, operationId);
      const parameters = [
        ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)),
        ...own,
      ];
      operations.set(operationId, {
        operationId,
        method: method.toUpperCase() as HttpMethod,
        path,
        parameters,
        requestBody: requestBodyOf(document, raw.requestBody, operationId),
        responses: responsesOf(document, raw.responses, operationId),
      });
    }
  }
  return { basePath, operations, componentSchemas };
}

function parameterList(document: JsonObject, value: unknown, where: string): SpecParameter[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where}: parameters must be an array`);
  return value.map((entry) => {
    const parameter = resolve(document, entry, `${where} parameter`);
    const place = parameter.in;
    if (typeof parameter.name !== 'string') throw new Error(`${where}: a parameter has no name`);
    if (place !== 'path' && place !== 'query' && place !== 'header' && place !== 'cookie') {
      throw new Error(`${where}: parameter ${parameter.name} has an invalid "in"`);
    }
    return {
      name: parameter.name,
      in: place,
      required: parameter.required === true,
      schema: (parameter.schema ?? {}) as JsonSchema,
    };
  });
}

function requestBodyOf(document: JsonObject, value: unknown, where: string) {
  if (value === undefined) return undefined;
  const body = resolve(document, value, `${where} requestBody`);
  const content = asObject(body.content ?? {}, `${where} requestBody.content`);
  const json = content['application/json'];
  if (json === undefined) throw new Error(`${where}: only application/json bodies are supported`);
  const schema = (asObject(json, `${where} body`).schema ?? {}) as JsonSchema;
  return { required: body.required === true, schema };
}

function responsesOf(document: JsonObject, value: unknown, where: string) {
  const responses = new Map<string, JsonSchema | undefined>();
  for (const [status, raw] of Object.entries(asObject(value ?? {}, `${where} responses`))) {
    const response = resolve(document, raw, `${where} ${status}`);
    const content = response.content === undefined ? {} : asObject(response.content, status);
    const json = content['application/json'];
    const schema = json === undefined ? undefined : asObject(json, status).schema;
    responses.set(status, schema as JsonSchema | undefined);
  }
  return responses;
}

/** Follows `$ref`s of OpenAPI objects (parameters, responses, request bodies, path items). */
function resolve(document: JsonObject, value: unknown, where: string): JsonObject {
  let current = asObject(value, where);
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`${where}: $ref loop`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`${where}: only local $refs are supported (${ref})`);
    let target: unknown = document;
    for (const segment of ref.slice(2).split('/')) {
      const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
      target = asObject(target, ref)[key];
    }
    current = asObject(target, ref);
  }
  return current;
}

function rewriteRef(ref: string): string {
  if (!ref.startsWith(SCHEMA_REF_PREFIX)) {
    throw new Error(`schemas may only refer to #/components/schemas/…, not ${ref}`);
  }
  const rest = ref.slice(SCHEMA_REF_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash === -1
    ? `${SCHEMA_BASE}${rest}`
    : `${SCHEMA_BASE}${rest.slice(0, slash)}#${rest.slice(slash)}`;
}

function asObject(value: unknown, what: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${what} must be an object`);
  }
  return value as JsonObject;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
