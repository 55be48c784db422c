import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { playChime } from '../../components/chime';
import { fakeVoice, installFakeSpeech, type FakeSpeech } from '#support/renderer/fake-speech';
import type { FakeBridge } from '#support/renderer/fake-bridge';
import { ok, sale, settings, settingsView } from '#support/renderer/fixtures';
import { renderApp } from '#support/renderer/render-app';
import { findSection, settingsBridge } from '#support/renderer/settings-bridge';

// The chime itself is tested in chime.test.ts (jsdom has no Web Audio); here whether it is asked for.
vi.mock('../../components/chime', () => ({
  DEFAULT_CHIME_VOLUME: 0.6,
  playChime: vi.fn(() => true),
}));

const NGOZI = fakeVoice({ name: 'Ngozi', lang: 'en-NG' });
const DANIEL = fakeVoice({ name: 'Daniel', lang: 'en-GB' });
const CLOUD = fakeVoice({ name: 'Cloud', lang: 'en-US', localService: false });

let speech: FakeSpeech | null = null;
function install(...args: Parameters<typeof installFakeSpeech>): FakeSpeech {
  speech = installFakeSpeech(...args);
  return speech;
}

afterEach(() => {
  speech?.uninstall();
  speech = null;
  vi.mocked(playChime).mockClear();
});

function goTo(hash: string): void {
  act(() => {
    window.location.hash = hash;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
}

async function voiceSection(): Promise<HTMLElement> {
  return findSection('Say the amount');
}

function voiceSelect(section: HTMLElement): HTMLSelectElement {
  const select = within(section).getByRole('combobox', { name: 'Voice' });
  if (!(select instanceof HTMLSelectElement)) throw new Error('the voice list is not a select');
  return select;
}

function optionTexts(select: HTMLSelectElement): readonly string[] {
  return [...select.options].map((option) => option.textContent);
}

/** Sells ₦1,500.50 from the sale screen and has the bank say it is paid. */
async function sellAndGetPaid(bridge: FakeBridge, user: UserEvent): Promise<void> {
  bridge.createSale.mockImplementation(() => ok(sale({ amountKobo: 150_050 })));
  goTo('#/sale');
  await user.type(await screen.findByRole('textbox', { name: /Amount/ }), '1500.50{Enter}');
  await screen.findByTestId('sale-status');
  bridge.emit({
    type: 'sale-changed',
    payload: sale({
      amountKobo: 150_050,
      state: 'paid',
      paidAt: Date.now(),
      updatedAt: Date.now() + 1,
    }),
  });
  expect(screen.getByTestId('sale-status').textContent).toContain('Paid');
}

describe('Settings: say the amount', () => {
  it('lists the voices once the browser has loaded them, the automatic one first', async () => {
    const fake = install([]);
    renderApp(settingsBridge(), '#/settings');
    const section = await voiceSection();
    expect(optionTexts(voiceSelect(section))).toEqual(['Automatic']);
    expect(within(section).getByTestId('voice-availability').textContent).toMatch(
      /offers no voice .* the chime plays instead/,
    );

    act(() => fake.setVoices([CLOUD, DANIEL, NGOZI]));
    // The list follows 'voiceschanged' through an effect, which React may flush a moment later.
    await waitFor(() =>
      expect(optionTexts(voiceSelect(section))).toEqual([
        'Automatic: Ngozi (en-NG)',
        'Cloud (en-US, needs the internet)',
        'Daniel (en-GB)',
        'Ngozi (en-NG)',
      ]),
    );
    expect(within(section).getByTestId('voice-availability').textContent).toMatch(
      /Nigerian English/,
    );
  });

  it('says where the browser cannot speak at all', async () => {
    renderApp(settingsBridge(), '#/settings');
    const section = await voiceSection();
    expect(within(section).getByTestId('voice-availability').textContent).toBe(
      'This browser cannot speak: the chime plays instead.',
    );
  });

  it('saves on/off, volume and voice, and the next paid sale is said with them', async () => {
    const fake = install([NGOZI, DANIEL]);
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await voiceSection();
    expect(within(section).getByRole('checkbox', { name: /Say the amount/ })).toHaveProperty(
      'checked',
      true,
    );
    const volume = within(section).getByRole('slider', { name: 'Voice volume' });
    expect(volume.getAttribute('aria-valuetext')).toBe('100%');
    // user-event cannot drag a slider; a change event is what the browser sends.
    fireEvent.change(volume, { target: { value: '45' } });
    await user.selectOptions(voiceSelect(section), 'Daniel (en-GB)');
    await user.click(within(section).getByRole('button', { name: 'Save voice settings' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: { sounds: { voice: { enabled: true, volume: 0.45, voiceURI: 'fake:Daniel' } } },
    });
    expect(await within(section).findByText('Saved.')).toBeTruthy();

    await sellAndGetPaid(bridge, user);
    await vi.waitFor(() => expect(fake.spoken).toHaveLength(1));
    expect(fake.spoken[0]).toEqual({
      text: 'one thousand five hundred naira, fifty kobo received',
      voiceURI: 'fake:Daniel',
      lang: 'en-GB',
      volume: 0.45,
    });
    expect(playChime).not.toHaveBeenCalled();
  });

  it('turned off, a paid sale gets the chime instead', async () => {
    const fake = install([NGOZI]);
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await voiceSection();
    await user.click(within(section).getByRole('checkbox', { name: /Say the amount/ }));
    expect(voiceSelect(section).disabled).toBe(true);
    await user.click(within(section).getByRole('button', { name: 'Save voice settings' }));
    expect(bridge.updateSettings).toHaveBeenCalledWith({
      patch: { sounds: { voice: { enabled: false, volume: 1, voiceURI: '' } } },
    });
    expect(await within(section).findByText('Saved.')).toBeTruthy();

    await sellAndGetPaid(bridge, user);
    expect(playChime).toHaveBeenCalledExactlyOnceWith(window, 0.6);
    expect(fake.spoken).toEqual([]);
  });

  it('"Test voice" says the test sentence with the voice and volume chosen, before saving', async () => {
    const fake = install([NGOZI, DANIEL]);
    const user = userEvent.setup();
    const bridge = settingsBridge();
    renderApp(bridge, '#/settings');
    const section = await voiceSection();
    fireEvent.change(within(section).getByRole('slider', { name: 'Voice volume' }), {
      target: { value: '30' },
    });
    await user.selectOptions(voiceSelect(section), 'Daniel (en-GB)');
    await user.click(within(section).getByRole('button', { name: 'Test voice' }));
    expect((await within(section).findByTestId('voice-test-result')).textContent).toBe(
      'Said: "one thousand five hundred naira received".',
    );
    expect(fake.spoken).toEqual([
      {
        text: 'one thousand five hundred naira received',
        voiceURI: 'fake:Daniel',
        lang: 'en-GB',
        volume: 0.3,
      },
    ]);
    expect(bridge.updateSettings).not.toHaveBeenCalled();
  });

  it('"Test voice" plays the chime, and says so, where no voice can speak', async () => {
    install([NGOZI], 'errors');
    const user = userEvent.setup();
    renderApp(settingsBridge(), '#/settings');
    const section = await voiceSection();
    await user.click(within(section).getByRole('button', { name: 'Test voice' }));
    expect((await within(section).findByTestId('voice-test-result')).textContent).toBe(
      'No voice could speak here, so the chime played instead.',
    );
    expect(playChime).toHaveBeenCalledExactlyOnceWith(window, 0.6);
  });

  it('keeps a saved voice this computer lacks, and says the best one it has', async () => {
    const fake = install([DANIEL]);
    const user = userEvent.setup();
    const saved = settings({
      sounds: {
        enabled: true,
        volume: 0.6,
        voice: { enabled: true, volume: 1, voiceURI: 'fake:Ngozi' },
      },
    });
    const bridge = settingsBridge(settingsView({ settings: saved }));
    renderApp(bridge, '#/settings');
    const section = await voiceSection();
    const select = voiceSelect(section);
    expect(select.value).toBe('fake:Ngozi');
    expect(optionTexts(select)).toContain('fake:Ngozi (not on this computer)');
    await user.click(within(section).getByRole('button', { name: 'Test voice' }));
    await within(section).findByTestId('voice-test-result');
    expect(fake.spoken.map((u) => u.voiceURI)).toEqual(['fake:Daniel']);
  });
});
