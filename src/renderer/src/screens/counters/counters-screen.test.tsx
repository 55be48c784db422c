import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAIRING_TTL_MS } from '#shared/hub';
import { BridgeProvider } from '../../bridge-context';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import {
  fail,
  HUB_FINGERPRINT,
  hubView,
  lanListener,
  ok,
  pairedCounter,
  pairingLink,
} from '#support/renderer/fixtures';
import { CountersScreen, HUB_REFRESH_MS } from './counters-screen';
import { lastContactWords } from './paired-counter-list';

function renderScreen(bridge: FakeBridge) {
  return render(
    <BridgeProvider bridge={bridge}>
      <CountersScreen />
    </BridgeProvider>,
  );
}

function hubBridge(view = hubView()): FakeBridge {
  const bridge = createFakeBridge();
  bridge.getHub.mockImplementation(() => ok(view));
  return bridge;
}

async function rowOf(name: string): Promise<HTMLElement> {
  const rows = await screen.findAllByTestId('counter-row');
  const row = rows.find((candidate) => candidate.getAttribute('aria-label') === name);
  if (!row) throw new Error(`no counter row for ${name}`);
  return row;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Counters screen: the LAN listener', () => {
  it('shows its address, port, fingerprint in pairs and its problem', async () => {
    renderScreen(
      hubBridge(
        hubView({ lan: lanListener({ problem: 'Port 7443 is taken by another program.' }) }),
      ),
    );
    expect((await screen.findByTestId('lan-url')).textContent).toBe('https://192.168.1.20:7443/');
    expect(screen.getByText('7443')).toBeTruthy();
    expect(screen.getByTestId('lan-state').textContent).toBe('On');
    // Four lines of eight pairs, spaced as a browser's certificate viewer shows them.
    const fingerprint = screen.getByTestId('lan-fingerprint');
    expect(fingerprint.textContent).toBe(HUB_FINGERPRINT.replace(/:/g, ' '));
    expect(fingerprint.querySelectorAll('.fingerprint-line')).toHaveLength(4);
    expect(screen.getByTestId('lan-problem').textContent).toContain('Port 7443 is taken');
    expect(screen.getByRole<HTMLInputElement>('switch').checked).toBe(true);
    // The page its problem names, one click away.
    expect(screen.getByRole('link', { name: 'Settings → Shop hub' }).getAttribute('href')).toBe(
      '#/settings/hub',
    );
  });

  it('turns it off through main and shows what main answers', async () => {
    const user = userEvent.setup();
    const bridge = hubBridge();
    bridge.setLanListener.mockImplementation(() =>
      ok(
        hubView({
          lan: lanListener({ enabled: false, running: false, url: null, fingerprint: null }),
        }),
      ),
    );
    renderScreen(bridge);
    await user.click(await screen.findByRole('switch'));
    expect(bridge.setLanListener).toHaveBeenCalledWith({ enabled: false });
    expect(await screen.findByText('Off')).toBeTruthy();
    expect(screen.getByTestId('lan-url').textContent).toBe('—');
    expect(screen.getByRole<HTMLInputElement>('switch').checked).toBe(false);
    // No pairing without the listener: the button says so by being unavailable.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add counter' }).disabled).toBe(
      true,
    );
  });

  it('says so when this copy cannot host counters', async () => {
    renderScreen(hubBridge(hubView({ available: false })));
    expect((await screen.findByRole('note')).textContent).toContain('cannot host counters');
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

describe('Counters screen: adding a counter', () => {
  it('shows the one-time link, its QR code and its time left', async () => {
    const user = userEvent.setup();
    const bridge = hubBridge();
    const link = pairingLink();
    bridge.createPairingLink.mockImplementation(() => ok(link));
    renderScreen(bridge);
    await user.type(await screen.findByLabelText('Counter name'), '  Back counter ');
    await user.click(screen.getByRole('button', { name: 'Add counter' }));
    expect(bridge.createPairingLink).toHaveBeenCalledWith({ name: 'Back counter' });
    expect((await screen.findByTestId('pairing-url')).textContent).toBe(link.url);
    const qr = await screen.findByTestId('pairing-qr');
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png/);
    expect(qr.getAttribute('alt')).toBe('Pairing link (QR)');
    expect(screen.getByTestId('pairing-expiry').textContent).toMatch(/^(09:59|10:00)$/);
    expect(screen.getByText(/Valid 10 minutes, once/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
  });

  it('takes the link away when it expires', async () => {
    // Fake from the start: the countdown's ticks are set up when the link shows.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const bridge = hubBridge();
    bridge.createPairingLink.mockImplementation(() =>
      ok(pairingLink({ expiresAt: Date.now() + PAIRING_TTL_MS })),
    );
    renderScreen(bridge);
    await user.type(await screen.findByLabelText('Counter name'), 'Back counter');
    await user.click(screen.getByRole('button', { name: 'Add counter' }));
    await screen.findByTestId('pairing-url');
    await act(() => vi.advanceTimersByTimeAsync(PAIRING_TTL_MS + 1000));
    expect(screen.getByTestId('pairing-expired').textContent).toContain('has expired');
    expect(screen.queryByTestId('pairing-url')).toBeNull();
    expect(screen.queryByTestId('pairing-qr')).toBeNull();
  });

  it('says the counter is paired once the list shows it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const bridge = hubBridge(hubView({ counters: [] }));
    const link = pairingLink();
    bridge.createPairingLink.mockImplementation(() => ok(link));
    renderScreen(bridge);
    await user.type(await screen.findByLabelText('Counter name'), 'Back counter');
    await user.click(screen.getByRole('button', { name: 'Add counter' }));
    await screen.findByTestId('pairing-url');
    bridge.getHub.mockImplementation(() =>
      ok(
        hubView({
          counters: [pairedCounter({ id: 4, name: 'Back counter', pairedAt: Date.now() })],
        }),
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(HUB_REFRESH_MS));
    expect(screen.getByText('Back counter is paired.')).toBeTruthy();
    expect(screen.queryByTestId('pairing-url')).toBeNull();
  });

  it("asks for a name first, and shows main's refusal in its words", async () => {
    const user = userEvent.setup();
    const bridge = hubBridge();
    bridge.createPairingLink.mockImplementation(() =>
      fail('HUB_LAN_OFF', 'Turn on the LAN listener first.'),
    );
    renderScreen(bridge);
    const name = await screen.findByLabelText('Counter name');
    await user.click(screen.getByRole('button', { name: 'Add counter' }));
    expect(screen.getByText('Name the counter')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(bridge.createPairingLink).not.toHaveBeenCalled();
    await user.type(name, 'Back counter');
    await user.click(screen.getByRole('button', { name: 'Add counter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Turn on the LAN listener first.');
    expect(screen.queryByTestId('pairing-url')).toBeNull();
  });
});

describe('Counters screen: the list', () => {
  it('shows each counter: name, till id, paired at, last contact; revoked ones greyed', async () => {
    const now = Date.now();
    renderScreen(
      hubBridge(
        hubView({
          counters: [
            pairedCounter({
              id: 5,
              name: 'Phone',
              tillId: 'till-p5',
              connected: false,
              lastContactAt: now - 7 * 60_000,
            }),
            pairedCounter({ id: 3 }),
            pairedCounter({
              id: 2,
              name: 'Old tablet',
              tillId: 'till-o2',
              connected: false,
              revokedAt: now - 3_600_000,
            }),
          ],
        }),
      ),
    );
    const front = await rowOf('Front counter');
    expect(front.textContent).toContain('till-f3k9');
    expect(within(front).getByTestId('counter-last-contact').textContent).toBe('connected now');
    expect(front.textContent).toContain('Paired');
    const phone = await rowOf('Phone');
    expect(within(phone).getByTestId('counter-last-contact').textContent).toBe('7 min ago');
    const old = await rowOf('Old tablet');
    expect(old.className).toContain('paired-counter-revoked');
    expect(old.textContent).toContain('Revoked');
    expect(within(old).queryByRole('button')).toBeNull();
    expect(within(front).getByRole('button', { name: 'Rename' })).toBeTruthy();
  });

  it('reads the list again every 5 s while open, and stops when closed', async () => {
    vi.useFakeTimers();
    const bridge = hubBridge();
    const { unmount } = renderScreen(bridge);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(bridge.getHub).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(HUB_REFRESH_MS));
    expect(bridge.getHub).toHaveBeenCalledTimes(2);
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(3 * HUB_REFRESH_MS));
    expect(bridge.getHub).toHaveBeenCalledTimes(2);
  });

  it('revokes only after asking, through main', async () => {
    const user = userEvent.setup();
    const bridge = hubBridge();
    bridge.revokeCounter.mockImplementation(() =>
      ok(hubView({ counters: [pairedCounter({ connected: false, revokedAt: Date.now() })] })),
    );
    renderScreen(bridge);
    const row = await rowOf('Front counter');
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    const question = within(row).getByRole('group', { name: 'Revoke Front counter?' });
    expect(question.textContent).toContain('stops working at once');
    await user.click(within(question).getByRole('button', { name: 'No, keep it' }));
    expect(bridge.revokeCounter).not.toHaveBeenCalled();

    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    await user.click(within(row).getByRole('button', { name: 'Yes, revoke' }));
    expect(bridge.revokeCounter).toHaveBeenCalledWith({ counterId: 3 });
    const revoked = await rowOf('Front counter');
    expect(revoked.className).toContain('paired-counter-revoked');
    expect(within(revoked).getByTestId('counter-last-contact').textContent).not.toBe(
      'connected now',
    );
  });

  it("changes a till id, showing main's field error beside the field", async () => {
    const user = userEvent.setup();
    const bridge = hubBridge();
    bridge.updateCounter.mockImplementationOnce(() =>
      fail('TILL_ID_TAKEN', 'Another till of this shop already uses till-1.', 'tillId'),
    );
    renderScreen(bridge);
    const row = await rowOf('Front counter');
    await user.click(within(row).getByRole('button', { name: 'Rename' }));
    const tillId = within(row).getByLabelText('Till id');
    await user.clear(tillId);
    await user.type(tillId, 'till-1');
    await user.click(within(row).getByRole('button', { name: 'Save' }));
    expect(bridge.updateCounter).toHaveBeenCalledWith({ counterId: 3, tillId: 'till-1' });
    expect((await within(row).findByRole('alert')).textContent).toBe(
      'Another till of this shop already uses till-1.',
    );
    expect(tillId.getAttribute('aria-invalid')).toBe('true');

    // A till id no till could have is refused here, before main is asked.
    await user.clear(tillId);
    await user.type(tillId, 'till 2!');
    await user.click(within(row).getByRole('button', { name: 'Save' }));
    expect(within(row).getByRole('alert').textContent).toContain('Letters, digits and -');
    expect(bridge.updateCounter).toHaveBeenCalledTimes(1);
  });

  it('renames a counter, sending only what changed', async () => {
    const user = userEvent.setup();
    const bridge = hubBridge();
    bridge.updateCounter.mockImplementation(() =>
      ok(hubView({ counters: [pairedCounter({ name: 'Till by the door' })] })),
    );
    renderScreen(bridge);
    const row = await rowOf('Front counter');
    await user.click(within(row).getByRole('button', { name: 'Rename' }));
    const name = within(row).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Till by the door');
    await user.click(within(row).getByRole('button', { name: 'Save' }));
    expect(bridge.updateCounter).toHaveBeenCalledWith({ counterId: 3, name: 'Till by the door' });
    expect(await rowOf('Till by the door')).toBeTruthy();
  });
});

describe('lastContactWords', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it('says how long ago, or that the counter is connected now', () => {
    expect(lastContactWords(pairedCounter({ connected: true }), now)).toBe('connected now');
    const idle = (ago: number) =>
      lastContactWords(pairedCounter({ connected: false, lastContactAt: now - ago }), now);
    expect(idle(20_000)).toBe('less than a minute ago');
    expect(idle(59 * 60_000)).toBe('59 min ago');
    expect(idle(5 * 3_600_000)).toBe('5 h ago');
    expect(idle(3 * 86_400_000)).toMatch(/2026/);
    expect(lastContactWords(pairedCounter({ connected: false, lastContactAt: null }), now)).toBe(
      'never',
    );
  });
});
