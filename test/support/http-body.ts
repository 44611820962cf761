// The body of a Node HTTP answer, for the tests and the bench that send raw requests.
import type { IncomingMessage } from 'node:http';

/** The whole body of an answer, once it has ended. */
export function bodyOf(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
  });
}
