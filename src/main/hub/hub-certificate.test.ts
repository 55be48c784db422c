import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppLogger, type AppLogger } from '#main/logging/logger';
import { createFileSecretBox } from '#main/secrets/file-secret-box';
import {
  HUB_CERTIFICATE_NAME,
  HUB_TLS_FILE,
  fingerprintHexOf,
  openHubCertificate,
  type HubCertificateOptions,
} from './hub-certificate';

const dirs: string[] = [];
const logs: AppLogger[] = [];
afterEach(() => {
  for (const log of logs.splice(0)) log.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(): {
  readonly dataDir: string;
  readonly log: AppLogger;
  readonly options: HubCertificateOptions;
} {
  const dataDir = mkdtempSync(join(tmpdir(), 'tt-hub-cert-'));
  dirs.push(dataDir);
  const log = createAppLogger({ dataDir });
  logs.push(log);
  return {
    dataDir,
    log,
    options: {
      dataDir,
      box: createFileSecretBox(dataDir),
      logger: log.logger,
      redactor: log.redactor,
      names: { dns: ['localhost'], ips: ['127.0.0.1', '192.168.1.20'] },
    },
  };
}

/** Waits for pino's asynchronous write to reach the log file. */
async function logText(log: AppLogger, expected: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const text = readFileSync(log.path, 'utf8');
    if (text.includes(expected)) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return readFileSync(log.path, 'utf8');
}

describe("the hub's certificate", () => {
  it('is made on first use: ECDSA P-256, CN "Transfer Till hub", the LAN names, ten years', async () => {
    const { options } = setup();
    const made = await openHubCertificate(options);
    const cert = new X509Certificate(made.certPem);
    expect(cert.subject).toBe(`CN=${HUB_CERTIFICATE_NAME}`);
    expect(cert.subjectAltName).toBe(
      'DNS:localhost, IP Address:127.0.0.1, IP Address:192.168.1.20',
    );
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(createPrivateKey(made.keyPem).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.checkPrivateKey(createPrivateKey(made.keyPem))).toBe(true);
    const years = (new Date(cert.validTo).getTime() - Date.now()) / (365.25 * 24 * 3600_000);
    expect(years).toBeGreaterThan(9.9);
    expect(made.fingerprint).toBe(cert.fingerprint256);
    expect(made.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(made.fingerprintHex).toMatch(/^[0-9a-f]{64}$/);
    expect(made.fingerprintHex).toBe(fingerprintHexOf(made.fingerprint));
  });

  it('is kept and reused: the same fingerprint after a restart', async () => {
    const { options } = setup();
    const first = await openHubCertificate(options);
    const again = await openHubCertificate({
      ...options,
      names: { dns: ['localhost'], ips: ['10.0.0.9'] },
    });
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(again.keyPem).toBe(first.keyPem);
  });

  it('keeps the private key encrypted on disk, in a file private to this user', async () => {
    const { dataDir, options, log } = setup();
    const made = await openHubCertificate(options);
    const path = join(dataDir, HUB_TLS_FILE);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('-----BEGIN CERTIFICATE-----');
    expect(text).not.toContain('PRIVATE KEY');
    const keyBody = made.keyPem.split('\n').slice(1, -2).join('');
    expect(keyBody.length).toBeGreaterThan(40);
    expect(text).not.toContain(keyBody.slice(0, 40));
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    const logged = await logText(log, 'hub certificate made');
    expect(logged).toContain(made.fingerprint);
    expect(logged).not.toContain(keyBody.slice(0, 40));
  });

  it.each([
    ['not JSON', () => 'garbage{'],
    [
      'a key another box made',
      (file: Record<string, unknown>) =>
        JSON.stringify({ ...file, key: Buffer.from('x'.repeat(64)).toString('base64') }),
    ],
  ])(
    'replaces a damaged file (%s), and logs that counters must pair again',
    async (_what, damage) => {
      const { dataDir, options, log } = setup();
      const first = await openHubCertificate(options);
      const path = join(dataDir, HUB_TLS_FILE);
      const file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(path, damage(file));
      const second = await openHubCertificate(options);
      expect(second.fingerprint).not.toBe(first.fingerprint);
      expect((await openHubCertificate(options)).fingerprint).toBe(second.fingerprint);
      const logged = await logText(log, 'must pair again');
      expect(logged).toContain('hub certificate unusable');
      expect(logged).toContain('every paired counter must pair again');
    },
  );

  it('replaces a certificate whose key does not belong to it', async () => {
    const { dataDir, options } = setup();
    const first = await openHubCertificate(options);
    const otherDir = mkdtempSync(join(tmpdir(), 'tt-hub-cert-other-'));
    dirs.push(otherDir);
    const otherLog = createAppLogger({ dataDir: otherDir });
    logs.push(otherLog);
    const other = await openHubCertificate({
      ...options,
      dataDir: otherDir,
      logger: otherLog.logger,
    });
    const path = join(dataDir, HUB_TLS_FILE);
    const file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...file, cert: other.certPem }));
    const replaced = await openHubCertificate(options);
    expect([first.fingerprint, other.fingerprint]).not.toContain(replaced.fingerprint);
  });
});
