import type { Speech } from './speech';

/**
 * How an attempt to speak ended, as far as the caller must act on it: 'started' (the engine
 * began to say it), 'failed' (nothing was said: play the chime instead) or 'interrupted'
 * (replaced by a later utterance on purpose: the later one speaks, nothing to make up for).
 */
export type SpeakOutcome =
  | { readonly kind: 'started' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'interrupted' };

export interface SpeakOptions {
  readonly voice: SpeechSynthesisVoice;
  /** 0..1 */
  readonly volume: number;
  /**
   * How long the engine may take to start before the attempt counts as failed. Engines can
   * accept an utterance and never say it (a speech service that died, Chromium's stuck queue).
   */
  readonly startTimeoutMs?: number;
}

export const SPEECH_START_TIMEOUT_MS = 3000;

/** Errors that mean "cancelled on purpose", not "could not speak". */
const INTERRUPTIONS = new Set(['interrupted', 'canceled']);

/**
 * Utterances being spoken. Chromium may garbage-collect an utterance nobody references before
 * its events fire; holding it here until it settles keeps its start/end/error handlers alive.
 */
const inFlight = new Set<SpeechSynthesisUtterance>();

/**
 * Says `text` once, replacing whatever the page was saying (a test of the voice, an earlier
 * announcement), and resolves as soon as the outcome is known (at the start, not the end).
 */
export function speak(speech: Speech, text: string, options: SpeakOptions): Promise<SpeakOutcome> {
  return new Promise<SpeakOutcome>((resolve) => {
    let utterance: SpeechSynthesisUtterance;
    try {
      utterance = new speech.Utterance(text);
      utterance.voice = options.voice;
      utterance.lang = options.voice.lang;
      utterance.volume = Math.min(Math.max(options.volume, 0), 1);
    } catch (error) {
      resolve({ kind: 'failed', reason: reasonOf(error) });
      return;
    }
    let settled = false;
    const settle = (outcome: SpeakOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      resolve(outcome);
    };
    const forget = (): void => {
      inFlight.delete(utterance);
    };
    const watchdog = setTimeout(() => {
      forget();
      settle({ kind: 'failed', reason: 'the speech engine did not start' });
      try {
        // Drop the stuck utterance, so that it cannot start late on top of the chime.
        speech.synthesis.cancel();
      } catch {
        // Nothing more to do: the chime plays either way.
      }
    }, options.startTimeoutMs ?? SPEECH_START_TIMEOUT_MS);
    utterance.onstart = () => settle({ kind: 'started' });
    // Some engines report the end of a short utterance without its start.
    utterance.onend = () => {
      forget();
      settle({ kind: 'started' });
    };
    utterance.onerror = (event) => {
      forget();
      const reason = typeof event.error === 'string' ? event.error : 'speech failed';
      settle(INTERRUPTIONS.has(reason) ? { kind: 'interrupted' } : { kind: 'failed', reason });
    };
    inFlight.add(utterance);
    try {
      speech.synthesis.cancel();
      speech.synthesis.speak(utterance);
    } catch (error) {
      forget();
      settle({ kind: 'failed', reason: reasonOf(error) });
    }
  });
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : 'speech failed';
}
