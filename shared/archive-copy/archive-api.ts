// A small client of the archive API for copying between servers (a Folio or a HamsterBase): plain
// fetch, the envelope unwrapped, a failure an ArchiveApiError with the server's message.
// The shapes are the contract's (openapi/archive.yaml), written out here as far as a copy reads
// them: lib imports nothing from the app's api layer.

export interface Highlight {
  highlightId: string;
  type?: number;
  marker: { meta: { textBefore: string; textAfter: string } };
  text: string;
  note?: string;
  tenThousandth?: number;
  editTime?: number;
}

export interface Webpage {
  id: string;
  title: string;
  excerpt: string;
  firstAddTime: number;
  createTime: number;
  liked: boolean;
  read: boolean;
  link?: string;
  size: number;
  ext: 'html' | 'mhtml' | 'webarchive';
  highlights: Highlight[];
  labels: string[];
}

export interface WebpagesListItem {
  id: string;
  title: string;
}

export interface WebpagesView {
  id: string;
  title: string;
  description: string;
  createdAt: number;
  enableLimit: boolean;
  limit: number;
  sort: number;
  match: 'and' | 'or';
  filters: Record<string, unknown>[];
}

export interface ArchiveEndpoint {
  /** The archive's base URL (the API is under `/public/api/v1`). */
  baseUrl: string;
  token: string;
}

export class ArchiveApiError extends Error {
  override name = 'ArchiveApiError';

  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const API_PATH = '/public/api/v1';

export class ArchiveApi {
  constructor(
    readonly endpoint: ArchiveEndpoint,
    private readonly fetchFn: typeof fetch = (input, init) => globalThis.fetch(input, init),
  ) {}

  /** The API's answer's data, with the answer's headers. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ data: T; headers: Headers }> {
    const url = `${this.endpoint.baseUrl.replace(/\/+$/, '')}${API_PATH}${path}`;
    let response: Response;
    try {
      response = await this.fetchFn(url, {
        method,
        headers: {
          authorization: `Bearer ${this.endpoint.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ArchiveApiError(
        `${this.endpoint.baseUrl} cannot be reached (${(error as Error).message})`,
        0,
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      throw new ArchiveApiError(
        `${method} ${path}: the answer is not JSON (HTTP ${response.status}; is this an archive's base URL?)`,
        response.status,
      );
    }
    const envelope = json as { success?: unknown; data?: unknown; message?: unknown };
    if (response.ok && envelope.success === true) {
      return { data: envelope.data as T, headers: response.headers };
    }
    const message = typeof envelope.message === 'string' ? envelope.message : 'failed';
    throw new ArchiveApiError(`${message} (HTTP ${response.status})`, response.status);
  }

  async get<T>(path: string): Promise<T> {
    return (await this.request<T>('GET', path)).data;
  }

  /** A page of the list, oldest first, and the total when the server tells it (Folio does). */
  async listPage(page: number, perPage: number) {
    const { data, headers } = await this.request<{ webpages: WebpagesListItem[] }>(
      'GET',
      `/webpages?sort=first_add_time_asc&page=${page}&per_page=${perPage}`,
    );
    const total = Number(headers.get('x-total-count') ?? NaN);
    return { webpages: data.webpages, total: Number.isSafeInteger(total) ? total : undefined };
  }

  /** The page, or undefined when the archive has none with this id. */
  async findWebpage(id: string): Promise<Webpage | undefined> {
    try {
      return await this.get<Webpage>(`/webpages/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof ArchiveApiError && error.status === 404) return undefined;
      throw error;
    }
  }
}
