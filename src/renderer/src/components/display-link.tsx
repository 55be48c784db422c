import { useEffect, useState } from 'react';
import { TOKEN_KEY } from '../bridge/http-bridge';

/** 22 base64url characters, as main's displayTokenFor cuts them. */
const DISPLAY_TOKEN_LENGTH = 22;

/**
 * The customer display's token for a browser shell token: base64url(HMAC-SHA256(key = shell
 * token, "customer-display")) cut to 22, the rule of main's displayTokenFor (a test holds the two
 * together). The till already holds its token; the display's can do less, so it is safe to hand on.
 */
export async function displayTokenOf(shellToken: string, subtle: SubtleCrypto): Promise<string> {
  const encoder = new TextEncoder();
  const key = await subtle.importKey(
    'raw',
    encoder.encode(shellToken),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await subtle.sign('HMAC', key, encoder.encode('customer-display')));
  const base64 = btoa(String.fromCharCode(...mac));
  return base64
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
    .slice(0, DISPLAY_TOKEN_LENGTH);
}

/**
 * Where this till's customer display opens: in the desktop app the display route (main opens it
 * in its own window), in the browser shell the display's own address with its own token. Null
 * where there is none (a paired counter: its display is the hub's).
 */
export async function displayAddress(page: Window): Promise<string | null> {
  const here = page.location.href.split('#')[0] ?? '';
  if (page.till) return `${here}#/display`;
  const token = page.sessionStorage.getItem(TOKEN_KEY);
  if (!token || !page.crypto?.subtle) return null;
  return `${here}#/display&display=${await displayTokenOf(token, page.crypto.subtle)}`;
}

/**
 * "Open customer display": the display in a window of its own, never this one (a till turned
 * into the display has no way back).
 */
export function DisplayLink() {
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void displayAddress(window).then((found) => {
      if (live) setAddress(found);
    });
    return () => {
      live = false;
    };
  }, []);
  if (address === null) return null;
  return (
    <button
      type="button"
      className="display-link"
      data-testid="open-display"
      onClick={() => window.open(address, '_blank', 'noopener')}
    >
      Open customer display
    </button>
  );
}
