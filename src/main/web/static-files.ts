/** The renderer bundle as both listeners serve it: the same files, CSP and security headers. */
import { createReadStream, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { rendererCspHeader } from '#shared/csp';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Serves files under `rendererDir` only; a path that climbs out of it is not found. */
export function createStaticFiles(
  rendererDir: string,
): (pathname: string, response: ServerResponse) => void {
  const root = normalize(rendererDir);
  return (pathname, response) => {
    const relative = pathname === '/' || pathname === '/display' ? '/index.html' : pathname;
    let file: string;
    try {
      file = normalize(join(root, decodeURIComponent(relative)));
    } catch {
      // A malformed %-escape names no file.
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (!file.startsWith(root + sep)) {
      response.writeHead(404).end();
      return;
    }
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'content-security-policy': rendererCspHeader({ dev: false }),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': extname(file) === '.html' ? 'no-store' : 'public, max-age=3600',
    });
    createReadStream(file).pipe(response);
  };
}
