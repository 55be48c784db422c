import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VOICE_SETTINGS } from '#shared/settings-schema';
import { fakeVoice, installFakeSpeech, type FakeSpeech } from '#support/renderer/fake-speech';
import { announcePaid, sayOrChime, TEST_VOICE_TEXT, type CounterSounds } from './announce';
import { speechOf } from './speech';

const SOUNDS: CounterSounds = { enabled: true, volume: 0.4, voice: DEFAULT_VOICE_SETTINGS };

let fake: FakeSpeech | null = null;
afterEach(() => {
  fake?.uninstall();
  fake = null;
});

function install(...args: Parameters<typeof installFakeSpeech>): FakeSpeech {
  fake = installFakeSpeech(...args);
  return fake;
}

function speaker(startTimeoutMs?: number) {
  const chime = vi.fn((_volume: number) => true);
  return {
    chime,
    speaker: {
      speech: speechOf(window),
      chime,
      ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
    },
  };
}

describe('announcePaid', () => {
  it('says the amount with the best voice at the voice volume, and no chime', async () => {
    const speech = install([
      fakeVoice({ name: 'Daniel', lang: 'en-GB' }),
      fakeVoice({ name: 'Ngozi', lang: 'en-NG' }),
    ]);
    const { chime, speaker: s } = speaker();
    const sounds = { ...SOUNDS, voice: { ...DEFAULT_VOICE_SETTINGS, volume: 0.7 } };
    await expect(announcePaid(150_050, sounds, s)).resolves.toBe('spoken');
    expect(speech.spoken).toEqual([
      {
        text: 'one thousand five hundred naira, fifty kobo received',
        voiceURI: 'fake:Ngozi',
        lang: 'en-NG',
        volume: 0.7,
      },
    ]);
    expect(chime).not.toHaveBeenCalled();
  });

  it('uses the saved voice when this computer has it', async () => {
    const speech = install([
      fakeVoice({ name: 'Ngozi' }),
      fakeVoice({ name: 'Daniel', lang: 'en-GB' }),
    ]);
    const sounds = { ...SOUNDS, voice: { ...DEFAULT_VOICE_SETTINGS, voiceURI: 'fake:Daniel' } };
    await expect(announcePaid(150_000, sounds, speaker().speaker)).resolves.toBe('spoken');
    expect(speech.spoken.map((u) => [u.text, u.voiceURI])).toEqual([
      ['one thousand five hundred naira received', 'fake:Daniel'],
    ]);
  });

  it('speaks by default when the settings predate the voice', async () => {
    const speech = install();
    const { enabled, volume } = SOUNDS;
    await expect(announcePaid(100, { enabled, volume }, speaker().speaker)).resolves.toBe('spoken');
    expect(speech.spoken[0]?.text).toBe('one naira received');
    expect(speech.spoken[0]?.volume).toBe(1);
  });

  it('chimes at the chime volume, at once, where the browser has no speech', () => {
    const { chime, speaker: s } = speaker();
    expect(s.speech).toBeNull();
    void announcePaid(150_000, SOUNDS, s);
    expect(chime).toHaveBeenCalledExactlyOnceWith(0.4);
  });

  it('chimes at once where the browser has speech but no voice', async () => {
    const speech = install([]);
    const { chime, speaker: s } = speaker();
    const outcome = announcePaid(150_000, SOUNDS, s);
    expect(chime).toHaveBeenCalledTimes(1);
    await expect(outcome).resolves.toBe('chimed');
    expect(speech.spoken).toEqual([]);
  });

  it('chimes when the speech engine reports an error', async () => {
    const speech = install([fakeVoice()], 'errors');
    const { chime, speaker: s } = speaker();
    await expect(announcePaid(150_000, SOUNDS, s)).resolves.toBe('chimed');
    expect(speech.spoken).toHaveLength(1);
    expect(chime).toHaveBeenCalledExactlyOnceWith(0.4);
  });

  it('chimes when speak() itself throws', async () => {
    install([fakeVoice()], 'throws');
    const { chime, speaker: s } = speaker();
    await expect(announcePaid(150_000, SOUNDS, s)).resolves.toBe('chimed');
    expect(chime).toHaveBeenCalledTimes(1);
  });

  it('chimes, and drops the utterance, when the engine never starts speaking', async () => {
    vi.useFakeTimers();
    try {
      const speech = install([fakeVoice()], 'hangs');
      const { chime, speaker: s } = speaker(2_000);
      const outcome = announcePaid(150_000, SOUNDS, s);
      await vi.advanceTimersByTimeAsync(1_999);
      expect(chime).not.toHaveBeenCalled();
      const cancelsBefore = speech.cancels();
      await vi.advanceTimersByTimeAsync(1);
      await expect(outcome).resolves.toBe('chimed');
      expect(chime).toHaveBeenCalledTimes(1);
      expect(speech.cancels()).toBe(cancelsBefore + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the fallback to the chime settings: chime off, no voice: silent', async () => {
    install([]);
    const { chime, speaker: s } = speaker();
    await expect(announcePaid(150_000, { ...SOUNDS, enabled: false }, s)).resolves.toBe('silent');
    expect(chime).not.toHaveBeenCalled();
  });

  it('reports silence when the chime cannot play either (no Web Audio)', async () => {
    const chime = vi.fn(() => false);
    await expect(announcePaid(150_000, SOUNDS, { speech: null, chime })).resolves.toBe('silent');
    expect(chime).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['the voice is off', { ...DEFAULT_VOICE_SETTINGS, enabled: false }],
    ['the voice is turned down to 0', { ...DEFAULT_VOICE_SETTINGS, volume: 0 }],
  ])('chimes instead of speaking when %s', async (_name, voice) => {
    const speech = install();
    const { chime, speaker: s } = speaker();
    await expect(announcePaid(150_000, { ...SOUNDS, voice }, s)).resolves.toBe('chimed');
    expect(speech.spoken).toEqual([]);
    expect(chime).toHaveBeenCalledExactlyOnceWith(0.4);
  });

  it('chimes for an amount the words cannot say', async () => {
    const speech = install();
    const { chime, speaker: s } = speaker();
    await expect(announcePaid(-5, SOUNDS, s)).resolves.toBe('chimed');
    expect(speech.spoken).toEqual([]);
    expect(chime).toHaveBeenCalledTimes(1);
  });
});

describe('sayOrChime', () => {
  it('says the test sentence', async () => {
    const speech = install();
    await expect(sayOrChime(TEST_VOICE_TEXT, SOUNDS, speaker().speaker)).resolves.toBe('spoken');
    expect(speech.spoken.map((u) => u.text)).toEqual(['one thousand five hundred naira received']);
  });

  it('cancels what was being said before it speaks', async () => {
    const speech = install();
    await sayOrChime('first', SOUNDS, speaker().speaker);
    await sayOrChime('second', SOUNDS, speaker().speaker);
    expect(speech.cancels()).toBe(2);
    expect(speech.spoken.map((u) => u.text)).toEqual(['first', 'second']);
  });

  it('does not chime for an utterance replaced on purpose', async () => {
    const speech = install([fakeVoice()], 'interrupted');
    const { chime, speaker: s } = speaker();
    await expect(sayOrChime('first', SOUNDS, s)).resolves.toBe('silent');
    expect(speech.spoken).toHaveLength(1);
    expect(chime).not.toHaveBeenCalled();
  });
});
