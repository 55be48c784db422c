/**
 * The renderer's Content Security Policy: only our own bundle runs, nothing is framed, and the
 * only network peer is our own origin (the browser shell's bridge). QR codes are data: images.
 * The development variant admits what the Vite dev server needs: React's inline refresh
 * preamble, injected styles and the HMR socket.
 */
export function rendererCsp(options: { readonly dev: boolean }): string {
  const inline = options.dev ? " 'unsafe-inline'" : '';
  return [
    "default-src 'none'",
    `script-src 'self'${inline}`,
    `style-src 'self'${inline}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? ' ws://localhost:* http://localhost:*' : ''}`,
    "media-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The policy as index.html carries it (a <meta> CSP cannot say frame-ancestors). */
export const RENDERER_CSP = rendererCsp({ dev: false });

/** The same policy as an HTTP header, which can also forbid framing. */
export function rendererCspHeader(options: { readonly dev: boolean }): string {
  return `${rendererCsp(options)}; frame-ancestors 'none'`;
}
