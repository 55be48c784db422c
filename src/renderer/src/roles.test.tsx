import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionView } from '#shared/bridge/contract';
import { createFakeBridge, type FakeBridge } from '#support/renderer/fake-bridge';
import {
  cashierSession,
  standingAccount,
  fail,
  ok,
  sale,
  session,
} from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { settingsBridge, findSection } from '#support/renderer/settings-bridge';

function goTo(hash: string): void {
  act(() => {
    window.location.hash = hash;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
}

function navNames(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Screens' });
  return within(nav)
    .queryAllByRole('link')
    .map((link) => link.textContent ?? '');
}

/** A bridge whose session changes as main would after each sign-in call. */
function withSession(bridge: FakeBridge, initial: SessionView): { current: () => SessionView } {
  let current = initial;
  const answer = (next: SessionView) => {
    current = next;
    return ok(next);
  };
  bridge.getSession.mockImplementation(() => ok(current));
  bridge.signIn.mockImplementation(({ name }) =>
    answer({ ...current, role: 'cashier', name, ownerUntil: null }),
  );
  bridge.signOut.mockImplementation(() =>
    answer({ ...current, role: 'cashier', name: null, ownerUntil: null }),
  );
  bridge.lock.mockImplementation(() => answer({ ...current, role: 'cashier', ownerUntil: null }));
  bridge.unlockOwner.mockImplementation(({ pin }) =>
    pin === '482913'
      ? answer({ ...current, role: 'owner', ownerUntil: Date.now() + 15 * 60_000 })
      : fail('WRONG_PIN', 'Wrong PIN. 4 more wrong PINs lock PIN entry for a while.', 'pin'),
  );
  return { current: () => current };
}

describe('roles in the app: one-person shop (no owner PIN)', () => {
  it('offers every screen, says who is here, and suggests a PIN on the owner screens', async () => {
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    expect((await screen.findByTestId('session-who')).textContent).toBe('Owner (no PIN)');
    expect(navNames()).toEqual(['Sale', 'Activity', 'Report', 'Balance', 'Settings', 'Counters']);
    expect((await screen.findByTestId('no-owner-pin-notice')).textContent).toContain(
      'Set an owner PIN',
    );
    // No Lock or Sign out when there is nothing to lock.
    expect(screen.queryByRole('button', { name: 'Lock' })).toBeNull();
    goTo('#/sale');
    expect(screen.queryByTestId('no-owner-pin-notice')).toBeNull();
  });
});

describe('roles in the app: a cashier signed in', () => {
  it('hides Report, Balance and Settings, and asks for the owner PIN if one is opened', async () => {
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession());
    renderApp(bridge, '#/settings');
    expect(await screen.findByRole('heading', { name: 'For the owner' })).toBeTruthy();
    expect(screen.getByText(/Settings is for the owner/)).toBeTruthy();
    expect(navNames()).toEqual(['Sale', 'Activity']);
    expect(screen.getByTestId('session-who').textContent).toBe('Cashier: Ada');
    expect(bridge.getSettings).not.toHaveBeenCalled();
    goTo('#/balance');
    expect(screen.getByText(/The balance is for the owner/)).toBeTruthy();
    expect(bridge.getBalance).not.toHaveBeenCalled();
    goTo('#/report');
    expect(screen.getByText(/end-of-day report is for the owner/)).toBeTruthy();
    expect(bridge.getZReport).not.toHaveBeenCalled();
  });

  it('unlocks with the right owner PIN only, then Lock closes the owner screens again', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    withSession(bridge, cashierSession());
    renderApp(bridge, '#/settings');
    const pin = await screen.findByLabelText('Owner PIN');
    await user.type(pin, '1111');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong PIN');
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('heading', { name: 'Settings' })).toBeNull();

    await user.type(screen.getByLabelText('Owner PIN'), '482913');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('heading', { name: 'Settings', level: 2 })).toBeTruthy();
    expect(bridge.unlockOwner).toHaveBeenLastCalledWith({ pin: '482913' });
    expect(screen.getByTestId('session-who').textContent).toBe('Ada · owner unlocked');
    expect(navNames()).toContain('Settings');

    await user.click(screen.getByRole('button', { name: 'Lock' }));
    expect(await screen.findByRole('heading', { name: 'For the owner' })).toBeTruthy();
    expect(navNames()).not.toContain('Settings');
  });

  it('shows a lock-out in main’s words', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession());
    bridge.unlockOwner.mockImplementation(() =>
      fail(
        'LOCKED_OUT',
        'Too many wrong PINs: PIN entry is locked. Try again in 5 minutes.',
        'pin',
      ),
    );
    renderApp(bridge, '#/balance');
    await user.type(await screen.findByLabelText('Owner PIN'), '482913');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many wrong PINs: PIN entry is locked. Try again in 5 minutes.',
    );
  });

  it('opens the owner unlock from the header on a cashier screen', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession());
    renderApp(bridge, '#/sale');
    await user.click(await screen.findByRole('button', { name: 'Owner unlock' }));
    await user.type(screen.getByLabelText('Owner PIN'), '482913');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(navNames()).toContain('Settings'));
  });

  it('does not offer standing accounts (the owner’s) on the activity screen', async () => {
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession());
    bridge.getActivity.mockImplementation(() =>
      ok({ sales: [sale()], inflows: [], alerts: [], standingAccounts: [standingAccount()] }),
    );
    renderApp(bridge, '#/activity');
    expect(await screen.findByTestId('activity-sales')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Standing accounts' })).toBeNull();
  });

  it('re-reads who it is when main refuses a call by role (an unlock ran out)', async () => {
    const bridge = settingsBridge();
    const state = withSession(
      bridge,
      cashierSession({ role: 'owner', ownerUntil: Date.now() + 60_000 }),
    );
    renderApp(bridge, '#/sale');
    await screen.findByTestId('session-who');
    // Main ended the unlock; the page still thinks it is owner until a call is refused.
    bridge.getSession.mockImplementation(() =>
      ok({ ...state.current(), role: 'cashier', ownerUntil: null }),
    );
    bridge.getBalance.mockImplementation(() => fail('FORBIDDEN', 'Only the owner can do this.'));
    goTo('#/balance');
    await waitFor(() => expect(screen.getByTestId('session-who').textContent).toBe('Cashier: Ada'));
    expect(await screen.findByRole('heading', { name: 'For the owner' })).toBeTruthy();
  });

  it('signs out: the counter goes back to sign-in and the sale on screen is dropped', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession());
    bridge.createSale.mockImplementation(() => ok(sale()));
    renderApp(bridge, '#/sale');
    await user.type(await screen.findByRole('textbox', { name: /Amount/ }), '1500{Enter}');
    await screen.findByTestId('sale-status');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(navNames()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Bola' }));
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    expect(screen.queryByTestId('sale-status')).toBeNull();
  });
});

describe('roles in the app: signing in at the counter', () => {
  it('signs a cashier in by name with one tap', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession({ name: null }));
    renderApp(bridge, '#/sale');
    expect(await screen.findByRole('heading', { name: 'Who is at this till?' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Amount/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Ada' }));
    expect(bridge.signIn).toHaveBeenCalledWith({ name: 'Ada' });
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
    expect(screen.getByTestId('session-who').textContent).toBe('Cashier: Ada');
  });

  it('asks for the cashier’s PIN when the owner requires one, and shows a wrong one', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    withSession(
      bridge,
      cashierSession({
        name: null,
        cashierPinsRequired: true,
        cashiers: [{ name: 'Ada', pinSet: true }],
      }),
    );
    bridge.signIn.mockImplementationOnce(() =>
      fail('WRONG_PIN', 'Wrong PIN. 4 more wrong PINs lock PIN entry for a while.', 'pin'),
    );
    renderApp(bridge, '#/sale');
    await user.click(await screen.findByRole('button', { name: 'Ada' }));
    expect(bridge.signIn).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('PIN for Ada'), '1111');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong PIN');
    await user.type(screen.getByLabelText('PIN for Ada'), '5566');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(bridge.signIn).toHaveBeenLastCalledWith({ name: 'Ada', pin: '5566' });
    expect(await screen.findByRole('textbox', { name: /Amount/ })).toBeTruthy();
  });

  it('lets the owner unlock from the sign-in screen, and says when no cashiers exist', async () => {
    const user = userEvent.setup();
    const bridge = createFakeBridge();
    withSession(bridge, cashierSession({ name: null, cashiers: [] }));
    renderApp(bridge, '#/sale');
    expect(await screen.findByText(/No cashiers are set up yet/)).toBeTruthy();
    await user.type(screen.getByLabelText('Owner PIN'), '482913');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByTestId('session-who')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('session-who').textContent).toBe('Owner'));
  });
});

describe('Settings: owner and cashiers', () => {
  it('sets the owner PIN after checking both entries match', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    const state = withSession(bridge, session());
    bridge.setOwnerPin.mockImplementation(() =>
      ok({ ...state.current(), ownerPinSet: true, ownerUntil: Date.now() + 60_000 }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Owner and cashiers');
    expect(within(section).getByTestId('owner-pin-status').textContent).toContain('No owner PIN');
    await user.type(within(section).getByLabelText('Owner PIN (4 to 12 digits)'), '12');
    await user.type(within(section).getByLabelText('The same PIN again'), '12');
    await user.click(within(section).getByRole('button', { name: 'Set owner PIN' }));
    expect(within(section).getByRole('alert').textContent).toBe('A PIN is 4 to 12 digits');
    await user.clear(within(section).getByLabelText('Owner PIN (4 to 12 digits)'));
    await user.type(within(section).getByLabelText('Owner PIN (4 to 12 digits)'), '482913');
    await user.clear(within(section).getByLabelText('The same PIN again'));
    await user.type(within(section).getByLabelText('The same PIN again'), '482914');
    await user.click(within(section).getByRole('button', { name: 'Set owner PIN' }));
    expect(within(section).getByRole('alert').textContent).toBe('The two PINs are not the same');
    expect(bridge.setOwnerPin).not.toHaveBeenCalled();
    await user.clear(within(section).getByLabelText('The same PIN again'));
    await user.type(within(section).getByLabelText('The same PIN again'), '482913');
    await user.click(within(section).getByRole('button', { name: 'Set owner PIN' }));
    expect(bridge.setOwnerPin).toHaveBeenCalledWith({ pin: '482913' });
    expect(await within(section).findByText('Owner PIN set.')).toBeTruthy();
    expect(within(section).getByTestId('owner-pin-status').textContent).toContain(
      'An owner PIN is set',
    );
    // The notice suggesting a PIN goes; Lock appears.
    expect(screen.queryByTestId('no-owner-pin-notice')).toBeNull();
    expect(screen.getByRole('button', { name: 'Lock' })).toBeTruthy();
  });

  it('needs the current PIN to change or remove it, and shows main’s refusal', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    const state = withSession(
      bridge,
      session({ ownerPinSet: true, ownerUntil: Date.now() + 60_000 }),
    );
    bridge.setOwnerPin.mockImplementation(() =>
      fail('WRONG_PIN', 'Wrong PIN. 4 more wrong PINs lock PIN entry for a while.', 'currentPin'),
    );
    bridge.removeOwnerPin.mockImplementation(() =>
      ok({ ...state.current(), ownerPinSet: false, ownerUntil: null }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Owner and cashiers');
    await user.type(within(section).getByLabelText('New owner PIN'), '111111');
    await user.type(within(section).getByLabelText('The same PIN again'), '111111');
    await user.click(within(section).getByRole('button', { name: 'Change owner PIN' }));
    expect(within(section).getByRole('alert').textContent).toBe('Enter the current owner PIN');
    await user.type(within(section).getByLabelText('Current owner PIN'), '000000');
    await user.click(within(section).getByRole('button', { name: 'Change owner PIN' }));
    expect(bridge.setOwnerPin).toHaveBeenCalledWith({ pin: '111111', currentPin: '000000' });
    expect((await within(section).findByRole('alert')).textContent).toContain('Wrong PIN');

    await user.type(within(section).getByLabelText('Current owner PIN (to remove it)'), '482913');
    await user.click(within(section).getByRole('button', { name: 'Remove owner PIN' }));
    expect(bridge.removeOwnerPin).toHaveBeenCalledWith({ currentPin: '482913' });
    expect(await within(section).findByText(/Owner PIN removed/)).toBeTruthy();
  });

  it('turns cashier PINs on and sets one cashier’s PIN', async () => {
    const user = userEvent.setup();
    const bridge = settingsBridge();
    const state = withSession(
      bridge,
      session({ ownerPinSet: true, ownerUntil: Date.now() + 60_000 }),
    );
    bridge.getSession.mockImplementation(() => ok(state.current()));
    bridge.setCashierPin.mockImplementation(({ name }) =>
      ok({
        ...state.current(),
        cashiers: state
          .current()
          .cashiers.map((c) => (c.name === name ? { ...c, pinSet: true } : c)),
      }),
    );
    renderApp(bridge, '#/settings');
    const section = await findSection('Owner and cashiers');
    await user.click(
      within(section).getByRole('checkbox', { name: 'Cashiers need their own PIN to sign in' }),
    );
    expect(bridge.updateSettings).not.toHaveBeenCalled();
    await user.click(within(section).getByRole('button', { name: 'Save cashier sign-in' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({ patch: { roles: { cashierPins: true } } });
    expect(await within(section).findByText('Saved.')).toBeTruthy();

    await user.type(within(section).getByLabelText('New PIN for Ada'), '12');
    await user.click(within(section).getByRole('button', { name: 'Set PIN for Ada' }));
    expect(within(section).getByRole('alert').textContent).toBe('A PIN is 4 to 12 digits');
    await user.type(within(section).getByLabelText('New PIN for Ada'), '34');
    await user.click(within(section).getByRole('button', { name: 'Set PIN for Ada' }));
    expect(bridge.setCashierPin).toHaveBeenCalledWith({ name: 'Ada', pin: '1234' });
    expect(await within(section).findByText("Ada's PIN set.")).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Remove PIN for Ada' })).toBeTruthy();
  });
});
