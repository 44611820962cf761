// A lean HTTP/1.1 client for the ingest bench's load: one keep-alive socket, each request written
// as prebuilt bytes, each answer read by its Content-Length. The bench's clients run on the same
// two cores as the server they measure: Node's http client (HttpClient) costs ~0.7 ms of CPU per
// request, which the server's figure would pay for; a load generator should cost next to nothing
// (as wrk or autocannon do). It speaks only what Folio's server answers: no chunked answers, no
// 1xx, one request at a time.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { HttpResult } from './server-process.ts';

const HEADERS_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /^content-length:\s*(\d+)\s*$/im;

interface Waiting {
  resolve: (result: HttpResult) => void;
  reject: (error: Error) => void;
  started: number;
}

export class RawHttpClient {
  private socket: Socket | undefined;
  private received: Buffer = Buffer.alloc(0);
  private waiting: Waiting | undefined;
  private readonly host: string;
  private readonly port: number;

  constructor(
    origin: string,
    private readonly token: string,
  ) {
    const url = new URL(origin);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  /** POSTs a JSON body to the API; resolves with the answer once all of it has arrived. */
  post(path: string, body: Buffer): Promise<HttpResult> {
    if (this.waiting !== undefined) {
      return Promise.reject(new Error('one request at a time on a RawHttpClient'));
    }
    const head = Buffer.from(
      `POST /public/api/v1${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n` +
        `Authorization: Bearer ${this.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
      'latin1',
    );
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject, started: performance.now() };
      const socket = this.socket ?? this.connect();
      socket.cork();
      socket.write(head);
      socket.write(body);
      socket.uncork();
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const fail = (error: Error) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      this.socket = undefined;
      this.received = Buffer.alloc(0);
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    this.socket = socket;
    return socket;
  }

  private receive(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const headersEnd = this.received.indexOf(HEADERS_END);
    if (headersEnd === -1) return;
    const head = this.received.toString('latin1', 0, headersEnd);
    const length = CONTENT_LENGTH.exec(head)?.[1];
    const waiting = this.waiting;
    if (length === undefined) {
      this.close();
      waiting?.reject(new Error(`an answer without Content-Length: ${head.slice(0, 200)}`));
      return;
    }
    const bodyStart = headersEnd + HEADERS_END.length;
    const bodyEnd = bodyStart + Number(length);
    if (this.received.length < bodyEnd) return;
    const body = this.received.subarray(bodyStart, bodyEnd);
    this.received = this.received.subarray(bodyEnd);
    this.waiting = undefined;
    waiting?.resolve({
      status: Number(head.slice(9, 12)),
      body,
      ms: performance.now() - (waiting?.started ?? 0),
    });
  }
}
