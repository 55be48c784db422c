/**
 * The hub's TLS certificate for its LAN listener. A shop's hub has an IP address on the shop's
 * network and no domain name, so no public authority can vouch for it: the hub makes its own
 * (self-signed, on first use) and counters pin its SHA-256 fingerprint, which the pairing link
 * carries. The certificate lives in `<dataDir>/hub-tls.json`, its private key encrypted by the
 * core's secret box; the same certificate is used for years so that pinned counters keep working.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { z } from 'zod';
import { keepPrivate } from '#main/config/private-files';
import type { Logger } from '#main/logging/logger';
import type { Redactor } from '#main/logging/redact';
import { writeFileAtomic } from '#main/secrets/atomic-write';
import type { SecretBox } from '#main/secrets/secret-box';
import { AppError } from '#shared/errors';

export const HUB_TLS_FILE = 'hub-tls.json';
export const HUB_CERTIFICATE_NAME = 'Transfer Till hub';
/** Ten years: a certificate that expired would make every counter pair again. */
export const HUB_CERTIFICATE_DAYS = 3650;
const DAY_MS = 24 * 60 * 60_000;

export interface HubCertificate {
  readonly certPem: string;
  /** In memory only: on disk it is encrypted by the secret box. */
  readonly keyPem: string;
  /** SHA-256 of the certificate's DER, "AB:CD:…" (what a browser's certificate viewer shows). */
  readonly fingerprint: string;
  /** The same, 64 lower-case hex digits without colons (what a pairing link carries). */
  readonly fingerprintHex: string;
  readonly validTo: Date;
}

export class HubCertificateError extends AppError<'HUB_CERTIFICATE_FAILED'> {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('HUB_CERTIFICATE_FAILED', message, options);
    this.name = 'HubCertificateError';
  }
}

const fileSchema = z.object({
  format: z.literal(1),
  createdAt: z.number(),
  cert: z.string().startsWith('-----BEGIN CERTIFICATE-----'),
  /** base64 of the secret box's ciphertext of the PKCS#8 PEM. */
  key: z.string().min(1),
});

export interface HubCertificateOptions {
  readonly dataDir: string;
  readonly box: SecretBox;
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** Names the certificate covers when it is made (see certificateNames in lan-address.ts). */
  readonly names: { readonly dns: readonly string[]; readonly ips: readonly string[] };
  readonly now?: () => number;
}

/** "AB:CD:…" → "abcd…" (64 hex digits), the pairing link's form. */
export function fingerprintHexOf(fingerprint: string): string {
  return fingerprint.replaceAll(':', '').toLowerCase();
}

function describe(certPem: string, keyPem: string): HubCertificate {
  const cert = new X509Certificate(certPem);
  return {
    certPem,
    keyPem,
    fingerprint: cert.fingerprint256,
    fingerprintHex: fingerprintHexOf(cert.fingerprint256),
    validTo: new Date(cert.validTo),
  };
}

/** The saved certificate, or why it cannot be used (then a new one is made). */
function readSaved(
  path: string,
  box: SecretBox,
  now: number,
):
  | { readonly ok: true; readonly certificate: HubCertificate }
  | { readonly ok: false; readonly why: string } {
  let file: z.infer<typeof fileSchema>;
  try {
    file = fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return { ok: false, why: 'the file is damaged' };
  }
  let keyPem: string;
  try {
    keyPem = box.decrypt(Buffer.from(file.key, 'base64'));
  } catch {
    return { ok: false, why: 'its private key cannot be decrypted with this computer’s key' };
  }
  try {
    const cert = new X509Certificate(file.cert);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) {
      return { ok: false, why: 'its private key does not belong to the certificate' };
    }
    // Renewed a month early, so that no counter meets an expired certificate.
    if (new Date(cert.validTo).getTime() - now < 30 * DAY_MS) {
      return { ok: false, why: 'it expires within a month' };
    }
    return { ok: true, certificate: describe(file.cert, keyPem) };
  } catch {
    return { ok: false, why: 'the certificate cannot be read' };
  }
}

async function makeCertificate(
  options: HubCertificateOptions,
  now: number,
): Promise<HubCertificate> {
  const pems = await generate([{ name: 'commonName', value: HUB_CERTIFICATE_NAME }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // A day back: a counter whose clock runs a little behind must not see "not yet valid".
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + HUB_CERTIFICATE_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...options.names.dns.map((value) => ({ type: 2 as const, value })),
          ...options.names.ips.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return describe(pems.cert, pems.private);
}

/**
 * The hub's certificate: the saved one, or a new one made and saved now (first use, or the saved
 * one was unusable: logged, since every paired counter then has to pair again).
 */
export async function openHubCertificate(options: HubCertificateOptions): Promise<HubCertificate> {
  const path = join(options.dataDir, HUB_TLS_FILE);
  keepPrivate(path);
  const now = options.now?.() ?? Date.now();
  if (existsSync(path)) {
    const saved = readSaved(path, options.box, now);
    if (saved.ok) {
      options.redactor.addSecret(saved.certificate.keyPem);
      return saved.certificate;
    }
    options.logger.warn(
      { file: path, reason: saved.why },
      `hub certificate unusable (${saved.why}): a new one is made; every paired counter must pair again (its pinned fingerprint no longer matches)`,
    );
  }
  let certificate: HubCertificate;
  try {
    certificate = await makeCertificate(options, now);
    const file: z.infer<typeof fileSchema> = {
      format: 1,
      createdAt: now,
      cert: certificate.certPem,
      key: options.box.encrypt(certificate.keyPem).toString('base64'),
    };
    writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
  } catch (error) {
    throw new HubCertificateError(
      `Cannot make the LAN listener's certificate in ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  options.redactor.addSecret(certificate.keyPem);
  options.logger.info(
    { file: path, fingerprint: certificate.fingerprint },
    'hub certificate made for the LAN listener',
  );
  return certificate;
}
