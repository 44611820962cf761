// The upload transport: `POST {base}/public/api/v1/webpages` with XMLHttpRequest, because fetch
// reports no upload progress. Answers go through the same `unwrap` as every other call, so an upload
// fails with the same ApiError kinds, statuses, codes and messages as the rest of the app.
import { ApiError, unwrap } from '../../api/errors.ts';
import type { FetchResult } from '../../api/errors.ts';
import type { components, paths } from '../../../shared/contract/schema.gen.ts';
import { apiBaseUrl } from '../../lib/connection-settings.ts';
import type { ConnectionSettings } from '../../lib/connection-settings.ts';

export type Webpage = components['schemas']['Webpage'];
export type UploadWebpageRequest = components['schemas']['UploadWebpageRequest'];
/** Everything of the request body but the file itself. */
export type UploadFields = Omit<UploadWebpageRequest, 'content'>;
type UploadAnswer = paths['/webpages']['post']['responses'][200]['content']['application/json'];

export interface UploadRequest {
  readonly connection: ConnectionSettings;
  /** The file's padded standard base64 (ASCII text). */
  readonly content: Blob;
  readonly fields: UploadFields;
  readonly signal: AbortSignal;
  /** Bytes of the request body sent so far. */
  readonly onProgress?: (loaded: number, total: number) => void;
  /** Called with the HTTP status of every answer (the app tracks 401s with it). */
  readonly onStatus?: (status: number) => void;
}

export interface UploadResult {
  readonly webpage: Webpage;
  /** The bytes were already in the archive: the server answered with the existing record. */
  readonly alreadyArchived: boolean;
}

/** Slack for clock resolution and rounding when comparing `firstAddTime` with the request. */
const CLOCK_SLACK_MS = 1000;
/**
 * The `Date` header has whole seconds; within this distance the client's clock (milliseconds) is
 * taken to agree with the server's and is used instead.
 */
const CLOCK_AGREEMENT_MS = 2000;

export interface RequestTiming {
  /** Client clock (epoch ms) when the request was opened. */
  readonly sentAt: number;
  /** Client clock when the answer arrived. */
  readonly answeredAt: number;
  /** The answer's `Date` header (epoch ms, whole seconds) when readable, else null. */
  readonly serverDate: number | null;
}

/**
 * Whether the server answered with a record that existed before this request. A new record's
 * `firstAddTime` is set while the server handles the request, so it is never older than the
 * request's start. That start is `sentAt` when the clocks agree (or the server's `Date` header is
 * not readable, as on another origin); when the header shows the server's clock is off, the start on
 * the server's clock is at least `serverDate - (answeredAt - sentAt)`.
 */
export function wasAlreadyArchived(firstAddTime: number, timing: RequestTiming): boolean {
  const { sentAt, answeredAt, serverDate } = timing;
  const clocksAgree = serverDate === null || Math.abs(answeredAt - serverDate) < CLOCK_AGREEMENT_MS;
  const requestStart = clocksAgree
    ? sentAt
    : (serverDate ?? sentAt) - Math.max(0, answeredAt - sentAt);
  return firstAddTime < requestStart - CLOCK_SLACK_MS;
}

/**
 * The JSON body `{"content": …, ...fields}` as a Blob: the base64 Blob is referenced, never turned
 * into a string (base64 needs no JSON escaping).
 */
export function buildUploadBody(content: Blob, fields: UploadFields): Blob {
  const rest = JSON.stringify(fields satisfies UploadFields).slice(1); // `"ext":"html",…}`
  return new Blob(['{"content":"', content, rest === '}' ? '"}' : `",${rest}`], {
    type: 'application/json',
  });
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The upload was canceled', 'AbortError');
}

function parseDate(header: string | null): number | null {
  if (!header) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : time;
}

/**
 * The answer's `Date` when the app may read it: from another origin, only when the server exposes
 * it (`Access-Control-Expose-Headers`; HamsterBase does not). `getResponseHeader` on a hidden header
 * makes the browser log "Refused to get unsafe header"; `getAllResponseHeaders` lists exactly the
 * readable ones, silently.
 */
function exposedDate(xhr: XMLHttpRequest): number | null {
  for (const line of xhr.getAllResponseHeaders().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'date') {
      return parseDate(line.slice(colon + 1).trim());
    }
  }
  return null;
}

/** The answer as openapi-fetch would report it: parsed JSON, else the text. */
function toFetchResult(xhr: XMLHttpRequest): Promise<FetchResult<UploadAnswer>> {
  const response = new Response(null, { status: xhr.status, statusText: xhr.statusText });
  const text = xhr.responseText;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (response.ok) return Promise.reject(error);
    parsed = text;
  }
  return Promise.resolve(
    response.ok ? { data: parsed as UploadAnswer, response } : { error: parsed, response },
  );
}

/** Sends one upload. Resolves with the stored webpage; rejects with an ApiError or the abort reason. */
export function sendUpload(request: UploadRequest): Promise<UploadResult> {
  const { connection, content, fields, signal, onProgress, onStatus } = request;
  if (signal.aborted) return Promise.reject(abortError(signal));
  const body = buildUploadBody(content, fields);
  const xhr = new XMLHttpRequest();
  const url = `${apiBaseUrl(connection.baseUrl)}/webpages`;
  try {
    xhr.open('POST', url);
  } catch (error) {
    return Promise.reject(
      new ApiError({
        kind: 'offline',
        message: `The archive address "${connection.baseUrl}" is not a valid URL`,
        cause: error,
      }),
    );
  }
  xhr.setRequestHeader('Content-Type', 'application/json');
  if (connection.token) xhr.setRequestHeader('Authorization', `Bearer ${connection.token}`);
  xhr.upload.onprogress = (event) => {
    onProgress?.(event.loaded, event.lengthComputable ? event.total : body.size);
  };

  const sentAt = Date.now();
  const answered = new Promise<XMLHttpRequest>((resolve, reject) => {
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: () => void) => {
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    xhr.onload = () => settle(() => resolve(xhr));
    // unwrap turns a TypeError from the transport into the `offline` kind, like a failed fetch.
    xhr.onerror = () => settle(() => reject(new TypeError('Network request failed')));
    xhr.ontimeout = () => settle(() => reject(new TypeError('Network request timed out')));
    xhr.onabort = () => settle(() => reject(abortError(signal)));
  });
  xhr.send(body);

  return unwrap(
    answered.then((answer) => {
      onStatus?.(answer.status);
      return toFetchResult(answer);
    }),
  ).then((webpage) => ({
    webpage,
    alreadyArchived: wasAlreadyArchived(webpage.firstAddTime, {
      sentAt,
      answeredAt: Date.now(),
      serverDate: exposedDate(xhr),
    }),
  }));
}
