/** What a voice choice looks at (SpeechSynthesisVoice's own fields). */
export interface VoiceFacts {
  readonly voiceURI: string;
  readonly name: string;
  readonly lang: string;
  readonly localService: boolean;
}

/** 0 best: Nigerian English, then British English, then any English, then anything. */
function languageRank(lang: string): number {
  // BCP 47 says en-NG; some platforms (Android) say en_NG, some lower-case the region.
  const tag = lang.replace(/_/g, '-').toLowerCase();
  if (tag === 'en-ng' || tag.startsWith('en-ng-')) return 0;
  if (tag === 'en-gb' || tag.startsWith('en-gb-')) return 1;
  if (tag === 'en' || tag.startsWith('en-')) return 2;
  return 3;
}

/**
 * The voice to say amounts with: the saved one when this computer has it (by voiceURI, or by
 * name, which some browsers keep steadier), else the best language by languageRank. Within a
 * rank a voice on this computer beats a network voice (a till may be offline when money lands),
 * then the list's own order. Null when there is no voice at all.
 */
export function pickVoice<V extends VoiceFacts>(
  voices: readonly V[],
  savedVoiceURI: string,
): V | null {
  if (savedVoiceURI !== '') {
    const saved =
      voices.find((voice) => voice.voiceURI === savedVoiceURI) ??
      voices.find((voice) => voice.name === savedVoiceURI);
    if (saved) return saved;
  }
  let best: V | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const voice of voices) {
    const score = languageRank(voice.lang) * 2 + (voice.localService ? 0 : 1);
    if (score < bestScore) {
      best = voice;
      bestScore = score;
    }
  }
  return best;
}

/** How a voice is named in the settings' list: "Ada (en-NG)"; a network voice says it needs the internet. */
export function voiceLabel(voice: VoiceFacts): string {
  const where = voice.localService ? '' : ', needs the internet';
  return `${voice.name} (${voice.lang}${where})`;
}
