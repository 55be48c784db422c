/**
 * The Web Speech API's synthesis side, as the till uses it: the page's speechSynthesis and its
 * utterance constructor, or null where the browser has none (jsdom, a stripped-down browser).
 */
export interface Speech {
  readonly synthesis: SpeechSynthesis;
  readonly Utterance: typeof SpeechSynthesisUtterance;
}

/** The globals read, optional: the DOM typings declare them everywhere, browsers do not. */
interface SpeechGlobals {
  readonly speechSynthesis?: SpeechSynthesis | undefined;
  readonly SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance | undefined;
}

export function speechOf(win: SpeechGlobals): Speech | null {
  const synthesis = win.speechSynthesis;
  const Utterance = win.SpeechSynthesisUtterance;
  return synthesis && Utterance ? { synthesis, Utterance } : null;
}

/** The voices known now. Chromium fills the list asynchronously; asking also starts loading it. */
export function voicesOf(speech: Speech | null): readonly SpeechSynthesisVoice[] {
  if (!speech) return [];
  try {
    return speech.synthesis.getVoices();
  } catch {
    return [];
  }
}
