/**
 * A stand-in for the Web Speech API's synthesis in jsdom (which has none): window.speechSynthesis
 * and window.SpeechSynthesisUtterance, recording what was said and answering as told.
 */

/**
 * How the fake engine answers speak(): starts and ends, reports an error, reports that it was
 * cancelled by a later utterance ('interrupted'), never answers, or throws.
 */
export type FakeSpeechBehaviour = 'speaks' | 'errors' | 'interrupted' | 'hangs' | 'throws';

export interface SpokenUtterance {
  readonly text: string;
  readonly voiceURI: string | null;
  readonly lang: string;
  readonly volume: number;
}

export interface FakeSpeech {
  /** Every utterance handed to speak(), in order. */
  readonly spoken: readonly SpokenUtterance[];
  readonly cancels: () => number;
  behaviour: FakeSpeechBehaviour;
  /** Replaces the voice list and fires 'voiceschanged', as a browser does once it has loaded. */
  setVoices(voices: readonly SpeechSynthesisVoice[]): void;
  uninstall(): void;
}

export function fakeVoice(overrides: Partial<SpeechSynthesisVoice> = {}): SpeechSynthesisVoice {
  const name = overrides.name ?? 'Ngozi';
  return {
    name,
    voiceURI: overrides.voiceURI ?? `fake:${name}`,
    lang: 'en-NG',
    localService: true,
    default: false,
    ...overrides,
  };
}

type Handler = ((event: { readonly error?: string }) => void) | null;

class FakeUtterance {
  text: string;
  lang = '';
  volume = 1;
  rate = 1;
  pitch = 1;
  voice: SpeechSynthesisVoice | null = null;
  onstart: Handler = null;
  onend: Handler = null;
  onerror: Handler = null;
  constructor(text = '') {
    this.text = text;
  }
}

class FakeSynthesis extends EventTarget {
  voices: readonly SpeechSynthesisVoice[];
  behaviour: FakeSpeechBehaviour;
  readonly spoken: SpokenUtterance[] = [];
  cancelCount = 0;
  readonly speaking = false;
  readonly pending = false;
  readonly paused = false;
  onvoiceschanged: Handler = null;

  constructor(voices: readonly SpeechSynthesisVoice[], behaviour: FakeSpeechBehaviour) {
    super();
    this.voices = voices;
    this.behaviour = behaviour;
  }

  getVoices(): readonly SpeechSynthesisVoice[] {
    return this.voices;
  }

  speak(utterance: FakeUtterance): void {
    if (this.behaviour === 'throws') throw new Error('speech is not allowed here');
    this.spoken.push({
      text: utterance.text,
      voiceURI: utterance.voice?.voiceURI ?? null,
      lang: utterance.lang,
      volume: utterance.volume,
    });
    const behaviour = this.behaviour;
    // Real engines answer asynchronously.
    queueMicrotask(() => {
      if (behaviour === 'speaks') {
        utterance.onstart?.({});
        utterance.onend?.({});
      } else if (behaviour === 'errors') {
        utterance.onerror?.({ error: 'synthesis-failed' });
      } else if (behaviour === 'interrupted') {
        utterance.onerror?.({ error: 'interrupted' });
      }
    });
  }

  cancel(): void {
    this.cancelCount += 1;
  }

  pause(): void {}
  resume(): void {}
}

/** Puts a fake speechSynthesis on `win` (jsdom's window by default) until uninstall(). */
export function installFakeSpeech(
  voices: readonly SpeechSynthesisVoice[] = [fakeVoice()],
  behaviour: FakeSpeechBehaviour = 'speaks',
  win: Window = window,
): FakeSpeech {
  const synthesis = new FakeSynthesis(voices, behaviour);
  Object.defineProperty(win, 'speechSynthesis', { value: synthesis, configurable: true });
  Object.defineProperty(win, 'SpeechSynthesisUtterance', {
    value: FakeUtterance,
    configurable: true,
  });
  return {
    spoken: synthesis.spoken,
    cancels: () => synthesis.cancelCount,
    get behaviour() {
      return synthesis.behaviour;
    },
    set behaviour(next: FakeSpeechBehaviour) {
      synthesis.behaviour = next;
    },
    setVoices(next) {
      synthesis.voices = next;
      synthesis.dispatchEvent(new Event('voiceschanged'));
    },
    uninstall() {
      Reflect.deleteProperty(win, 'speechSynthesis');
      Reflect.deleteProperty(win, 'SpeechSynthesisUtterance');
    },
  };
}
