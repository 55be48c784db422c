/**
 * Which Host and Origin headers each listener answers (the browser shell, the hub's LAN listener,
 * the sandbox provider). A page on a DNS name that an attacker points at this machine (DNS
 * rebinding) sends that name as Host: refusing every name but the ones below keeps such a page
 * from reading our answers, whatever token it guesses.
 */
import { ipFamily } from '#shared/settings-schema';

/** The loopback listener: 127.0.0.1 or localhost, with its own port. */
export function loopbackHostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** Same-origin pages of the loopback listener (http). */
export function loopbackOriginAllowed(origin: string, port: number): boolean {
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** The host and port of a Host header; null when it is not `name[:port]` or `[v6][:port]`. */
function splitHost(host: string): { readonly name: string; readonly port: number } | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match?.[1]) return null;
  // https's own port may be left out of Host (a browser does for 443).
  const port = match[2] === undefined ? 443 : Number(match[2]);
  return { name: match[1], port };
}

/**
 * The LAN listener: an IP literal (v4, or v6 in brackets) or localhost, with the LAN port. A
 * device on the shop's network has no DNS name for the hub, so no name is ever needed.
 */
export function lanHostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const parts = splitHost(host);
  if (!parts || parts.port !== port) return false;
  const { name } = parts;
  if (name === 'localhost') return true;
  if (name.startsWith('[')) return ipFamily(name.slice(1, -1)) === 6;
  return ipFamily(name) === 4;
}

/** A page of the LAN listener calls from https://<the Host it reached us by>. */
export function lanOriginAllowed(origin: string, host: string): boolean {
  try {
    return new URL(origin).origin === new URL(`https://${host}`).origin;
  } catch {
    return false;
  }
}
