/** The API's path under the base URL (openapi/archive.yaml `servers`). */
const API_PATH = '/public/api/v1';

/** A webpage as the API answers it (only what the extension reads). */
export interface SavedWebpage {
  id: string;
  title: string;
  link?: string;
  labels: string[];
}

/** A failed call: the server's reason when it gave one. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';

  constructor(
    message: string,
    /** HTTP status; undefined when nothing answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Calls to one archive. The token goes to the base URL's origin and nowhere else: every URL is
 * built here from the base URL and a fixed path (ids percent-encoded), checked to be on that
 * origin before the token is attached, and sent with `redirect: 'error'`, so a redirect (to
 * another origin, or anywhere) is a failure instead of a second request carrying the header.
 */
export class ArchiveClient {
  private readonly origin: string;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchImpl: Fetch = (input, init) => globalThis.fetch(input, init),
  ) {
    this.origin = new URL(baseUrl).origin;
  }

  /** `GET /version`: what answered ("folio", or another name for HamsterBase) and its version. */
  async version(): Promise<{ name: string; version: string }> {
    const data = (await this.call('GET', '/version')) as { name?: unknown; version?: unknown };
    if (typeof data !== 'object' || data === null || typeof data.version !== 'string') {
      throw new ArchiveError('Not a compatible server (no version in the answer)');
    }
    return {
      name: typeof data.name === 'string' ? data.name : 'HamsterBase',
      version: data.version,
    };
  }

  /** The live page with this id, undefined when the archive has none (404). */
  async find(id: string): Promise<SavedWebpage | undefined> {
    try {
      return (await this.call('GET', `/webpages/${encodeURIComponent(id)}`)) as SavedWebpage;
    } catch (error) {
      if (error instanceof ArchiveError && error.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * A live page whose link is exactly `link`. Folio filters by it (its `link` extension); a
   * server that ignores the parameter (HamsterBase) lists any pages, so the answer is checked.
   */
  async findByLink(link: string): Promise<SavedWebpage | undefined> {
    const data = (await this.call(
      'GET',
      `/webpages?link=${encodeURIComponent(link)}&per_page=20`,
    )) as { webpages?: (Omit<SavedWebpage, 'link'> & { link?: string | null })[] };
    const found = data.webpages?.find((page) => page.link === link);
    return found === undefined ? undefined : { ...found, link };
  }

  async upload(content: string, ext: 'mhtml' | 'html'): Promise<SavedWebpage> {
    return (await this.call('POST', '/webpages', { content, ext })) as SavedWebpage;
  }

  async patch(id: string, fields: { link?: string; labels?: string[] }): Promise<SavedWebpage> {
    return (await this.call(
      'PATCH',
      `/webpages/${encodeURIComponent(id)}`,
      fields,
    )) as SavedWebpage;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = `${this.baseUrl}${API_PATH}${path}`;
    if (new URL(url).origin !== this.origin) {
      throw new ArchiveError('Refused: the address is not on the configured origin');
    }
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        cache: 'no-store',
      });
    } catch {
      throw new ArchiveError(`Could not reach ${this.origin} (offline, or it redirected)`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ArchiveError(
        `${this.origin} answered ${response.status} without JSON (not the archive's API?)`,
        response.status,
      );
    }
    const envelope = json as { success?: unknown; data?: unknown; message?: unknown };
    const message = typeof envelope.message === 'string' ? envelope.message : undefined;
    if (!response.ok) {
      throw new ArchiveError(message ?? `HTTP ${response.status}`, response.status);
    }
    if (envelope.success !== true) {
      throw new ArchiveError(message ?? 'The archive refused the request', response.status);
    }
    return envelope.data;
  }
}
