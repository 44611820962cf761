import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { operations } from '../../../shared/contract/schema.gen.ts';
import {
  createRequestValidators,
  RequestValidationError,
  type ApiSpec,
  type RequestParts,
  type RequestValidator,
  type ValidatedRequest,
} from '../spec.ts';
import { success } from './envelope.ts';

/** The operations of the contract (types generated from it by `npm run gen:api`). */
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer C } } ? C : never;
type SuccessBody<K extends OperationId> = JsonContent<operations[K]['responses'][200]>;
/** What a handler returns: the `data` of the operation's success envelope. */
export type SuccessData<K extends OperationId> = Extract<SuccessBody<K>, { success: true }>['data'];

type Part<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;
export type OperationParams<K extends OperationId> = Part<operations[K]['parameters']['path']>;
export type OperationQuery<K extends OperationId> = Part<operations[K]['parameters']['query']>;
export type OperationBody<K extends OperationId> = operations[K] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : undefined;

/** A request that passed the contract's validation. */
export interface OperationInput<K extends OperationId> {
  params: OperationParams<K>;
  query: OperationQuery<K>;
  body: OperationBody<K>;
  request: FastifyRequest;
  /** For the answer's headers that the contract declares (the body is the handler's value). */
  reply: FastifyReply;
}

export type OperationHandler<K extends OperationId> = (
  input: OperationInput<K>,
) => Answer<K> | Promise<Answer<K>>;

type Answer<K extends OperationId> = SuccessData<K> | StreamedEnvelope | NotModified | StreamedFile;

export interface OperationOptions {
  /** Largest accepted request body in bytes (the app's default otherwise). */
  bodyLimit?: number;
  /**
   * Registers the route in its own plugin scope, set up by this function first (e.g. a body
   * parser of its own); hooks and the error handler of the app still apply.
   */
  scope?: (scope: FastifyInstance) => void;
  /**
   * The message of a refused body field, by field, instead of the contract validator's (HamsterBase's
   * wording for the upload: hamsterbase-messages.ts).
   */
  bodyFieldMessages?: Readonly<Record<string, string>>;
}

/**
 * A handler's answer that is already the whole JSON envelope, as a stream of `length` bytes (for
 * large answers that should not be built in memory).
 */
export class StreamedEnvelope {
  constructor(
    readonly stream: Readable,
    readonly length: number,
    /** Sent as the ETag (with `Cache-Control: private, no-cache`: clients revalidate). */
    readonly etag?: string,
  ) {}
}

/** A handler's answer that is a file (not JSON): streamed as it is read, with its media type. */
export class StreamedFile {
  constructor(
    readonly stream: Readable,
    readonly type: string,
    /** The Content-Disposition header. */
    readonly disposition: string,
    /** Its size in bytes, when known (sent as Content-Length). */
    readonly length?: number,
  ) {}
}

/** A handler's answer when the client's copy is current (its If-None-Match has the ETag). */
export class NotModified {
  constructor(readonly etag: string) {}
}

/** Whether the request's If-None-Match names this ETag (or `*`). */
export function clientHas(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

const REVALIDATE = 'private, no-cache';

/** Validates a request; a refused body field gets its message from `bodyFieldMessages`. */
function validateWith(
  validate: RequestValidator,
  bodyFieldMessages: Readonly<Record<string, string>> | undefined,
  parts: RequestParts,
): ValidatedRequest {
  try {
    return validate(parts);
  } catch (error) {
    if (
      bodyFieldMessages !== undefined &&
      error instanceof RequestValidationError &&
      error.part === 'body' &&
      error.field !== undefined &&
      Object.hasOwn(bodyFieldMessages, error.field)
    ) {
      throw new RequestValidationError('body', bodyFieldMessages[error.field]!, error.field);
    }
    throw error;
  }
}

/**
 * Registers handlers by operationId: the method and path come from the contract, every request is
 * validated against it before the handler runs, and the handler's value is sent in the success
 * envelope. `assertComplete` fails when an operation of the contract has no handler.
 */
export class OperationRegistry {
  private readonly validators: ReadonlyMap<string, RequestValidator>;
  private readonly registered = new Set<string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly spec: ApiSpec,
  ) {
    this.validators = createRequestValidators(spec);
  }

  register<K extends OperationId>(
    operationId: K,
    handler: OperationHandler<K>,
    options: OperationOptions = {},
  ): void {
    const operation = this.spec.operations.get(operationId);
    const validate = this.validators.get(operationId);
    if (operation === undefined || validate === undefined) {
      throw new Error(`the contract has no operation ${operationId}`);
    }
    if (this.registered.has(operationId)) throw new Error(`${operationId} is registered twice`);
    this.registered.add(operationId);
    const route: RouteOptions = {
      method: operation.method,
      // Relative to the scope the registry is given (`api-scope.ts`: the contract's server path).
      url: toRoutePath(operation.path),
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      handler: async (request, reply) => {
        const valid = validateWith(validate, options.bodyFieldMessages, {
          params: request.params,
          query: request.query,
          body: request.body,
        });
        const data = await handler({
          params: valid.params as OperationParams<K>,
          query: valid.query as OperationQuery<K>,
          body: valid.body as OperationBody<K>,
          request,
          reply,
        });
        if (data instanceof NotModified) {
          return reply
            .code(304)
            .header('etag', data.etag)
            .header('cache-control', REVALIDATE)
            .send();
        }
        if (data instanceof StreamedFile) {
          if (data.length !== undefined) reply.header('content-length', data.length);
          return reply
            .type(data.type)
            .header('content-disposition', data.disposition)
            .header('cache-control', 'no-store')
            .send(data.stream);
        }
        if (data instanceof StreamedEnvelope) {
          if (data.etag !== undefined) {
            reply.header('etag', data.etag).header('cache-control', REVALIDATE);
          }
          return reply
            .type('application/json; charset=utf-8')
            .header('content-length', data.length)
            .send(data.stream);
        }
        return reply.type('application/json; charset=utf-8').send(success(data));
      },
    };
    const setUp = options.scope;
    if (setUp === undefined) {
      this.app.route(route);
      return;
    }
    void this.app.register(async (scope) => {
      setUp(scope);
      scope.route(route);
    });
  }

  assertComplete(): void {
    const missing = [...this.spec.operations.keys()].filter((id) => !this.registered.has(id));
    if (missing.length > 0) throw new Error(`no handler for: ${missing.join(', ')}`);
  }
}

/** `/webpages/{id}` → `/webpages/:id` */
export function toRoutePath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}
