import { useEffect, useState } from 'react';
import { voicesOf, type Speech } from './speech';

/**
 * The voices this computer offers, kept current: browsers fill the list asynchronously and
 * announce it with 'voiceschanged'. Empty where there is no speech at all.
 */
export function useVoices(speech: Speech | null): readonly SpeechSynthesisVoice[] {
  const [voices, setVoices] = useState<readonly SpeechSynthesisVoice[]>(() => voicesOf(speech));
  useEffect(() => {
    if (!speech) return undefined;
    const refresh = (): void => setVoices(voicesOf(speech));
    refresh();
    speech.synthesis.addEventListener('voiceschanged', refresh);
    return () => speech.synthesis.removeEventListener('voiceschanged', refresh);
  }, [speech]);
  return voices;
}
