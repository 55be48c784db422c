import { render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectCounter } from '../../bridge';
import { COUNTER_TOKEN_KEY } from '../../bridge/counter-token';
import { Root } from '../../root';
import { createFakeShellHttp, type FakeCall } from '#support/renderer/fake-shell-http';
import { appInfo, counterSession, HUB_FINGERPRINT, status } from '#support/renderer/fixtures';
import { pairingResultOf } from './pair-request';

const CODE = 'pAiRiNg_CoDe-0123456789';
const FP = HUB_FINGERPRINT.replace(/:/g, '');
const TOKEN = 'counter_TOKEN-abcdefghij';
const COUNTER = { id: 3, name: 'Front counter', tillId: 'till-f3k9' };

/** What the hub answers a counter's calls with (just enough for the sale screen). */
function answerAsCounter(call: FakeCall) {
  const values: Readonly<Record<string, unknown>> = {
    getAppInfo: appInfo(),
    getStatus: status({ tillId: COUNTER.tillId }),
    getSession: counterSession({ counter: COUNTER }),
    getPrintSetup: { paperWidthMm: 80, printerName: null, silent: false },
    getActivity: { sales: [], inflows: [], alerts: [], standingAccounts: [] },
  };
  return call.name in values
    ? { body: { ok: true, value: values[call.name] } }
    : { status: 404, body: { ok: false, error: { code: 'UNKNOWN_CHANNEL', message: call.name } } };
}

/** The hub over fetch: POST /api/pair answered as given, everything else by the fake shell. */
function stubHub(pair: () => Promise<Response>) {
  const shell = createFakeShellHttp();
  shell.answerCalls(answerAsCounter);
  const pairBodies: unknown[] = [];
  const fetchStub = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    if (input === '/api/pair') {
      pairBodies.push(typeof init?.body === 'string' ? JSON.parse(init.body) : null);
      return pair();
    }
    return shell.fetch(input, init);
  });
  vi.stubGlobal('fetch', fetchStub);
  return { shell, pairBodies, fetchStub };
}

function json(status: number, body: unknown): Promise<Response> {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

function openLink(hash: string) {
  window.history.replaceState(null, '', `/${hash}`);
  return render(
    <StrictMode>
      <Root start={{ bridge: null, displayOnly: false }} connectCounter={connectCounter} />
    </StrictMode>,
  );
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the pairing page', () => {
  it('pairs once, keeps the token on the device, clears the code and opens the sale screen', async () => {
    const { shell, pairBodies } = stubHub(() => json(200, { token: TOKEN, counter: COUNTER }));
    openLink(`#/pair&code=${CODE}&fp=${FP}`);
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    // One request although strict mode mounts the page twice: a code works once.
    expect(pairBodies).toEqual([{ code: CODE }]);
    expect(window.localStorage.getItem(COUNTER_TOKEN_KEY)).toBe(TOKEN);
    expect(window.location.hash).toBe('#/sale');
    expect(window.location.href).not.toContain(CODE);
    expect(await screen.findByTestId('session-who')).toHaveProperty(
      'textContent',
      'Counter: Front counter',
    );
    expect((await screen.findByTestId('till-id')).textContent).toBe('till-f3k9');
    // From now on every call carries the counter's own token.
    await waitFor(() => expect(shell.calls.length).toBeGreaterThan(0));
    for (const call of shell.calls) {
      expect(call.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    }
  });

  it("shows main's refusal and how to get a new link, and keeps no token", async () => {
    const { pairBodies } = stubHub(() =>
      json(410, {
        ok: false,
        error: { code: 'PAIRING_USED', message: 'This pairing link was already used.' },
      }),
    );
    openLink(`#/pair&code=${CODE}&fp=${FP}`);
    const failed = await screen.findByTestId('pairing-failed');
    expect(failed.textContent).toContain('This pairing link was already used.');
    expect(failed.textContent).toContain('The owner makes a new one at the hub');
    expect(pairBodies).toHaveLength(1);
    expect(window.localStorage.getItem(COUNTER_TOKEN_KEY)).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();
    // The fingerprint the link carries, to compare with the browser's.
    expect(screen.getByTestId('pairing-fingerprint').textContent).toBe(
      HUB_FINGERPRINT.replace(/:/g, ' '),
    );
  });

  it('says when the hub cannot be reached', async () => {
    stubHub(() => Promise.reject(new TypeError('Failed to fetch')));
    openLink(`#/pair&code=${CODE}&fp=${FP}`);
    expect((await screen.findByTestId('pairing-failed')).textContent).toContain(
      'The hub did not answer',
    );
  });

  it('asks for nothing with a link that has no code', () => {
    const { fetchStub } = stubHub(() => json(200, {}));
    openLink(`#/pair&fp=${FP}`);
    expect(screen.getByRole('alert').textContent).toContain('not complete');
    expect(fetchStub).not.toHaveBeenCalled();
  });
});

describe('pairingResultOf', () => {
  it('reads a bare PairingResult or one inside a BridgeResult, and nothing else', () => {
    const result = { token: TOKEN, counter: COUNTER };
    expect(pairingResultOf(result)).toEqual(result);
    expect(pairingResultOf({ ok: true, value: result })).toEqual(result);
    expect(pairingResultOf({ token: TOKEN })).toBeNull();
    expect(pairingResultOf({ token: '', counter: COUNTER })).toBeNull();
    expect(pairingResultOf('nope')).toBeNull();
  });
});
