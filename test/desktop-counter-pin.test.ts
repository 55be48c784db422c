/**
 * The desktop counter's pin against the real hub: a real core (SQLite file), the real LAN
 * service over HTTPS on 127.0.0.1, and the pairing link it makes. What Electron would see of the
 * hub's certificate ("sha256/<base64>" of the DER) is computed from the certificate the TLS
 * handshake really presents; the desktop's pure rules must accept exactly that one.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '#main/core/create-core';
import { counterModeFileText, counterModeFrom, pairingCompleted } from '#main/desktop/counter-mode';
import { certificateVerdict, isHubUrl } from '#main/desktop/counter-trust';
import { startLanService, type LanService } from '#main/web/lan-service';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface RunningHub {
  readonly core: Core;
  readonly lan: LanService;
  close(): Promise<void>;
}

async function startHub(dataDir: string): Promise<RunningHub> {
  const core = await createCore({ dataDir, shell: 'browser', version: '0.0.0-test' });
  const rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>hub</title>');
  const lan = await startLanService({
    core,
    rendererDir,
    dataDir,
    host: '127.0.0.1',
    port: 0,
    forceOn: true,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await lan.close();
    await core.close();
  };
  cleanups.push(close);
  return { core, lan, close };
}

/** The certificate's fingerprint as Electron's Certificate.fingerprint writes it. */
function presentedFingerprint(origin: string): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    // Not verified here on purpose: the point is what the pin makes of whatever is presented.
    const socket = connect(
      { host: url.hostname, port: Number(url.port), rejectUnauthorized: false },
      () => {
        const der = socket.getPeerCertificate().raw;
        socket.end();
        resolve(`sha256/${createHash('sha256').update(der).digest('base64')}`);
      },
    );
    socket.on('error', reject);
  });
}

function postPair(origin: string, code: string): Promise<number> {
  const url = new URL('/api/pair', origin);
  const body = JSON.stringify({ code });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        rejectUnauthorized: false,
        headers: {
          'content-type': 'application/json',
          origin,
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function codeOf(link: string): string {
  const code = new URLSearchParams(new URL(link).hash.split('&').slice(1).join('&')).get('code');
  if (!code) throw new Error(`no code in ${link}`);
  return code;
}

describe('the desktop counter against a real hub', () => {
  it("reads the hub's pairing link and pins exactly the certificate the hub presents", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-counter-pin-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { core, lan } = await startHub(dataDir);
    const link = core.hub.createPairingLink('Counter 1').url;

    const mode = counterModeFrom(['/opt/transfer-till', '--counter', link], null);
    if (!mode) throw new Error('expected counter mode');
    const hubUrl = lan.view().url;
    expect(hubUrl).not.toBeNull();
    expect(mode.hubOrigin).toBe(new URL(hubUrl ?? '').origin);
    expect(isHubUrl(hubUrl, mode.hubOrigin)).toBe(true);

    const presented = await presentedFingerprint(mode.hubOrigin);
    const hostname = new URL(mode.hubOrigin).hostname;
    expect(certificateVerdict({ hostname, certFingerprint: presented, pinned: mode })).toBe(
      'accept',
    );

    // The hub's page pairs with the code: the desktop saves the choice on that 200 only.
    const pairUrl = `${mode.hubOrigin}/api/pair`;
    const first = await postPair(mode.hubOrigin, codeOf(link));
    expect(
      pairingCompleted({ url: pairUrl, method: 'POST', statusCode: first }, mode.hubOrigin),
    ).toBe(true);
    const again = await postPair(mode.hubOrigin, codeOf(link));
    expect(
      pairingCompleted({ url: pairUrl, method: 'POST', statusCode: again }, mode.hubOrigin),
    ).toBe(false);
  });

  it('keeps trusting the hub after its restart, and refuses it once it has made a new certificate', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'till-counter-pin-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startHub(dataDir);
    const mode = counterModeFrom(
      ['--counter', first.core.hub.createPairingLink('Counter 1').url],
      null,
    );
    if (!mode) throw new Error('expected counter mode');
    // What a paired counter keeps: the origin and the fingerprint.
    const saved = counterModeFileText(mode);
    await first.close();

    const restarted = await startHub(dataDir);
    const origin = new URL(restarted.lan.view().url ?? '').origin;
    const again = counterModeFrom([], saved);
    if (!again) throw new Error('expected the saved counter mode');
    const hostname = new URL(origin).hostname;
    expect(
      certificateVerdict({
        hostname,
        certFingerprint: await presentedFingerprint(origin),
        pinned: again,
      }),
    ).toBe('accept');
    await restarted.close();

    // The hub's data folder lost its certificate: the new one is not the pinned one.
    rmSync(join(dataDir, 'hub-tls.json'), { force: true });
    const renewed = await startHub(dataDir);
    const renewedOrigin = new URL(renewed.lan.view().url ?? '').origin;
    expect(
      certificateVerdict({
        hostname,
        certFingerprint: await presentedFingerprint(renewedOrigin),
        pinned: again,
      }),
    ).toBe('refuse');
  });
});
