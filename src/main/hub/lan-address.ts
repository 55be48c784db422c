/**
 * Which address of this machine counters should use, and which names the hub's certificate
 * covers. Pure functions over what os.networkInterfaces() returns, so that they are tested
 * without the machine's own network.
 */
import { ipFamily } from '#shared/settings-schema';

/** The part of os.networkInterfaces()'s entries these rules read. */
export interface InterfaceAddress {
  readonly address: string;
  readonly family: string | number;
  readonly internal: boolean;
}

export type NetworkInterfaces = Readonly<Record<string, readonly InterfaceAddress[] | undefined>>;

const ANY_ADDRESS = new Set(['0.0.0.0', '::', '']);

function isIpv4(entry: InterfaceAddress): boolean {
  // Node 18.0-18.3 said 4 (a number); later ones say 'IPv4'.
  return entry.family === 'IPv4' || entry.family === 4;
}

/** Link-local IPv4 (169.254/16) is what a machine gives itself without DHCP: no counter reaches it. */
function isLinkLocal(address: string): boolean {
  return address.startsWith('169.254.');
}

/** This machine's IPv4 addresses on the shop's network, in the order the system lists them. */
export function lanIpv4Addresses(interfaces: NetworkInterfaces): readonly string[] {
  const found: string[] = [];
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (!isIpv4(entry) || entry.internal || isLinkLocal(entry.address)) continue;
      if (!found.includes(entry.address)) found.push(entry.address);
    }
  }
  return found;
}

/**
 * The address to print in links: the host the listener was given, unless it listens on every
 * address (0.0.0.0 or ::); then the first LAN IPv4, else 127.0.0.1 (no network: this machine only).
 */
export function lanAddressFor(host: string, interfaces: NetworkInterfaces): string {
  if (!ANY_ADDRESS.has(host)) return host;
  return lanIpv4Addresses(interfaces)[0] ?? '127.0.0.1';
}

/** An address as it is written in a URL's authority ("[::1]" for IPv6). */
export function urlHost(address: string): string {
  return ipFamily(address) === 6 ? `[${address}]` : address;
}

/** The names the certificate covers: this machine, and every LAN address it has now. */
export function certificateNames(
  host: string,
  interfaces: NetworkInterfaces,
): { readonly dns: readonly string[]; readonly ips: readonly string[] } {
  const ips = ['127.0.0.1', ...lanIpv4Addresses(interfaces)];
  if (!ANY_ADDRESS.has(host) && ipFamily(host) !== 0 && !ips.includes(host)) ips.push(host);
  return { dns: ['localhost'], ips };
}
