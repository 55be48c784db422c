import { paidAnnouncement } from '#shared/naira-words';
import { DEFAULT_VOICE_SETTINGS } from '#shared/schema-data';
import type { VoiceSettings } from '#shared/settings-schema';
import { pickVoice } from './pick-voice';
import { speak, type SpeakOptions } from './speak';
import { voicesOf, type Speech } from './speech';

/**
 * The sounds settings as a counter has them (through its session): the chime, and the voice
 * inside them. `voice` may be missing (settings saved before the voice existed): the defaults.
 */
export interface CounterSounds {
  readonly enabled: boolean;
  readonly volume: number;
  readonly voice?: VoiceSettings | undefined;
}

/** What the page can make noise with; injected so that tests and the settings can stand in. */
export interface Speaker {
  readonly speech: Speech | null;
  /** Plays the chime at a volume (0..1); false when it could not (no Web Audio). */
  readonly chime: (volume: number) => boolean;
  readonly startTimeoutMs?: number;
}

/** 'spoken': the voice started saying it; 'chimed': the chime played instead; 'silent': neither. */
export type Announced = 'spoken' | 'chimed' | 'silent';

/** What the "Test voice" button says. */
export const TEST_VOICE_TEXT = paidAnnouncement(150_000);

/**
 * Says `text` with the settings' voice, or plays the chime (when the chime is on) where the
 * voice is off, this computer has no voice, or speaking fails. The chime stands in for the voice,
 * never plays with it. Where no voice can speak the chime plays before this returns, so that a
 * caller (and a test) sees it at once.
 */
export function sayOrChime(
  text: string,
  sounds: CounterSounds,
  speaker: Speaker,
): Promise<Announced> {
  const chimeInstead = (): Announced =>
    sounds.enabled && speaker.chime(sounds.volume) ? 'chimed' : 'silent';
  const voiceSettings = sounds.voice ?? DEFAULT_VOICE_SETTINGS;
  // Volume 0 is the voice turned down to nothing: as good as off, so the chime decides.
  if (!voiceSettings.enabled || !(voiceSettings.volume > 0)) {
    return Promise.resolve(chimeInstead());
  }
  const voice = pickVoice(voicesOf(speaker.speech), voiceSettings.voiceURI);
  if (!speaker.speech || !voice) return Promise.resolve(chimeInstead());
  const options: SpeakOptions = {
    voice,
    volume: voiceSettings.volume,
    ...(speaker.startTimeoutMs === undefined ? {} : { startTimeoutMs: speaker.startTimeoutMs }),
  };
  return speak(speaker.speech, text, options).then((outcome) => {
    if (outcome.kind === 'started') return 'spoken';
    if (outcome.kind === 'interrupted') return 'silent';
    return chimeInstead();
  });
}

/** A paid sale out loud: "one thousand five hundred naira, fifty kobo received". */
export function announcePaid(
  amountKobo: number,
  sounds: CounterSounds,
  speaker: Speaker,
): Promise<Announced> {
  let text: string;
  try {
    text = paidAnnouncement(amountKobo);
  } catch {
    // An amount the words cannot say (none the till accepts): the chime still says "paid".
    return sayOrChime(
      '',
      { ...sounds, voice: { ...DEFAULT_VOICE_SETTINGS, enabled: false } },
      speaker,
    );
  }
  return sayOrChime(text, sounds, speaker);
}
