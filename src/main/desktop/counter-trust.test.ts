import { createHash, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  certificateVerdict,
  counterStartFailedDialog,
  electronFingerprintHex,
  isHubUrl,
  LEAVE_CONFIRMED,
  leaveCounterModeDialog,
  loadFailureAction,
  loadRetryDelay,
  PIN_MISMATCH_LEAVE,
  pinMismatchDialog,
  unreachableTitle,
  START_FAILED_LEAVE,
  VERIFY_PROC_RESULT,
  type PinnedHub,
} from './counter-trust';
import { fingerprintPairs } from './pairing-link';

/** A self-signed hub certificate (EC P-256, CN "Transfer Till hub", SAN 192.168.1.20, 127.0.0.1, localhost). */
const HUB_CERT = `-----BEGIN CERTIFICATE-----
MIIBrzCCAVWgAwIBAgIURQzzNhomW2dRgAZXnq0lKNcVOQgwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRVHJhbnNmZXIgVGlsbCBodWIwHhcNMjYxMTIzMTg0OTQ2WhcN
MzYxMTIwMTg0OTQ2WjAcMRowGAYDVQQDDBFUcmFuc2ZlciBUaWxsIGh1YjBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABH38SNN894v95mb/Xl08rHgo2m1S4nL3yyIX
4h3m4iySB7gTwQSln/p40tvO3mitgZAvQCT5Dz+IxhV1kRpAEWmjdTBzMB0GA1Ud
DgQWBBQYTzv6r+S5VmNllos6DhZyWCAedTAfBgNVHSMEGDAWgBQYTzv6r+S5VmNl
los6DhZyWCAedTAPBgNVHRMBAf8EBTADAQH/MCAGA1UdEQQZMBeHBMCoARSHBH8A
AAGCCWxvY2FsaG9zdDAKBggqhkjOPQQDAgNIADBFAiEA9lILKB08zNM5s5EaL2dv
Kd6kBJenPa1C0N2Cj8TfntMCIAaqG4N19iytx8RXi6Fj+GsCcAH3YZc834+IkYxy
mQnY
-----END CERTIFICATE-----`;

const cert = new X509Certificate(HUB_CERT);
/** How the hub writes the fingerprint in its link: node's "AB:CD:…" without the colons. */
const HUB_FP = cert.fingerprint256.replaceAll(':', '').toLowerCase();
/** How Electron reports the same certificate: "sha256/" + base64 of the DER's SHA-256. */
const ELECTRON_FP = `sha256/${createHash('sha256').update(cert.raw).digest('base64')}`;
const OTHER_ELECTRON_FP = `sha256/${createHash('sha256').update('another certificate').digest('base64')}`;

const pinned: PinnedHub = { hubOrigin: 'https://192.168.1.20:7443', fingerprint: HUB_FP };

describe('electronFingerprintHex', () => {
  it("reads Electron's sha256/<base64> as the hex the hub's link carries", () => {
    expect(electronFingerprintHex(ELECTRON_FP)).toBe(HUB_FP);
  });

  it.each([
    'sha1/2jmj7l5rSw0yVb/vlWAYkK/YBwk=',
    'sha256/too-short=',
    HUB_FP,
    fingerprintPairs(HUB_FP),
    '',
  ])('refuses %s', (value) => {
    expect(electronFingerprintHex(value)).toBeNull();
  });
});

describe('certificateVerdict', () => {
  it("accepts the hub's pinned certificate although no authority signed it", () => {
    expect(
      certificateVerdict({ hostname: '192.168.1.20', certFingerprint: ELECTRON_FP, pinned }),
    ).toBe('accept');
  });

  it("refuses another certificate at the hub's address (a pin mismatch)", () => {
    expect(
      certificateVerdict({ hostname: '192.168.1.20', certFingerprint: OTHER_ELECTRON_FP, pinned }),
    ).toBe('refuse');
    expect(
      certificateVerdict({ hostname: '192.168.1.20', certFingerprint: 'garbage', pinned }),
    ).toBe('refuse');
  });

  it('leaves every other host to Chromium, even with the pinned certificate', () => {
    expect(
      certificateVerdict({ hostname: '192.168.1.21', certFingerprint: ELECTRON_FP, pinned }),
    ).toBe('chromium');
    expect(
      certificateVerdict({ hostname: 'example.com', certFingerprint: ELECTRON_FP, pinned }),
    ).toBe('chromium');
  });

  it('matches an IPv6 hub with or without brackets', () => {
    const v6: PinnedHub = { hubOrigin: 'https://[fe80::1]:7443', fingerprint: HUB_FP };
    expect(
      certificateVerdict({ hostname: 'fe80::1', certFingerprint: ELECTRON_FP, pinned: v6 }),
    ).toBe('accept');
    expect(
      certificateVerdict({ hostname: '[fe80::1]', certFingerprint: OTHER_ELECTRON_FP, pinned: v6 }),
    ).toBe('refuse');
  });

  it("maps to the verify proc's numbers: 0 trusts, -2 refuses, -3 is Chromium's own result", () => {
    expect(VERIFY_PROC_RESULT).toEqual({ accept: 0, refuse: -2, chromium: -3 });
  });
});

describe('isHubUrl (the counter window navigation rule)', () => {
  it("allows the hub's own pages", () => {
    expect(isHubUrl('https://192.168.1.20:7443/', pinned.hubOrigin)).toBe(true);
    expect(isHubUrl('https://192.168.1.20:7443/#/sale', pinned.hubOrigin)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'not a url',
    'http://192.168.1.20:7443/',
    'https://192.168.1.20:7444/',
    'https://192.168.1.21:7443/',
    'https://192.168.1.20.evil.com:7443/',
    'https://user@192.168.1.20:7443/',
    'https://example.com/',
    'file:///etc/passwd',
    'data:text/html,<script>1</script>',
  ])('refuses %s', (url) => {
    expect(isHubUrl(url, pinned.hubOrigin)).toBe(false);
  });
});

describe('dialogs', () => {
  it('shows both fingerprints in pairs on a pin mismatch, and never offers to accept', () => {
    const dialog = pinMismatchDialog({ pinned, presented: OTHER_ELECTRON_FP });
    expect(dialog.detail).toContain(fingerprintPairs(HUB_FP));
    expect(dialog.detail).toContain(
      fingerprintPairs(electronFingerprintHex(OTHER_ELECTRON_FP) ?? ''),
    );
    expect(dialog.buttons.join(' ')).not.toMatch(/accept|trust|continue/i);
    expect(dialog.buttons[dialog.cancelId]).toBe('Quit');
    expect(dialog.buttons[PIN_MISMATCH_LEAVE]).toBe('Leave counter mode');
  });

  it('asks before leaving counter mode, Cancel by default', () => {
    const dialog = leaveCounterModeDialog(pinned.hubOrigin);
    expect(dialog.buttons[dialog.defaultId]).toBe('Cancel');
    expect(dialog.buttons[LEAVE_CONFIRMED]).toBe('Leave counter mode');
    expect(dialog.detail).toContain(pinned.hubOrigin);
  });

  it('offers to leave counter mode only when there is a saved setting to leave', () => {
    const withLeave = counterStartFailedDialog('bad', true);
    expect(withLeave.buttons).toEqual(['Quit', 'Leave counter mode']);
    expect(withLeave.buttons[START_FAILED_LEAVE]).toBe('Leave counter mode');
    expect(counterStartFailedDialog('bad', false).buttons).toEqual(['Quit']);
  });
});

describe('loading the hub page', () => {
  it.each([
    [-3, 'ignore'],
    [-102, 'retry'],
    [-106, 'retry'],
    [-109, 'retry'],
    [-118, 'retry'],
    [-7, 'retry'],
    [-21, 'retry'],
    [-2, 'give-up'],
    [-202, 'give-up'],
    [-200, 'give-up'],
  ] as const)('error %i: %s', (code, action) => {
    expect(loadFailureAction(code)).toBe(action);
  });

  it('waits longer after each failure, up to 15 s', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(loadRetryDelay)).toEqual([
      1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
    ]);
  });

  it('says in the title why the window is blank', () => {
    expect(unreachableTitle(pinned.hubOrigin, 3500)).toContain('trying again in 4 s');
  });
});
