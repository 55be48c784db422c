/**
 * Rules that several settings share (an https address, an IP address, a time zone): the
 * registry's entries build their schemas from these. Pure: main and the renderer both run them.
 */
import { z } from 'zod';
import { checkAddress } from '../provider-url';

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-NG', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The address rule (provider-url.ts) in the settings form's words. */
const ADDRESS_PROBLEM_WORDS = {
  'not-absolute': 'Enter a full address, e.g. https://api.example.com',
  scheme: 'The address must start with https://',
  credentials: 'The address must not contain a user name or password',
  'query-or-fragment': 'The address must not contain ? or # parts',
} as const;

/** Why a URL typed into settings cannot be used, or null when it can. Empty means "not set". */
export function urlProblem(value: string): string | null {
  if (value === '') return null;
  const { problem } = checkAddress(value);
  if (problem === null) return null;
  // Without an environment the transport is not judged here (the profile refinement does it).
  return problem.kind === 'transport' ? problem.words : ADDRESS_PROBLEM_WORDS[problem.kind];
}

export const httpsUrlOrEmpty = z
  .string()
  .trim()
  .max(300, 'At most 300 characters')
  .superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** 4 or 6 for an IP address, 0 otherwise (pure: this module is shared with the renderer). */
export function ipFamily(address: string): 0 | 4 | 6 {
  if (IPV4.test(address)) return 4;
  if (!address.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(address)) return 0;
  try {
    // The URL parser validates IPv6 literals exactly (including embedded IPv4 forms).
    return new URL(`http://[${address}]/`).hostname.length > 2 ? 6 : 0;
  } catch {
    return 0;
  }
}

export function isCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = ipFamily(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
