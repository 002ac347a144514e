import { request as httpRequest } from 'node:http';

/**
 * A raw GET, so the test controls every byte of the URL and headers and sees the body as it came over the
 * wire (fetch would normalise the one and inflate the other).
 */
export function rawGet(baseUrl: string, target: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    bytes: Buffer;
    body: string;
  }>((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: target, headers, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, body: bytes.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
