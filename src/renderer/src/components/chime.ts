type AudioContextConstructor = new () => AudioContext;

interface AudioWindow {
  readonly AudioContext?: AudioContextConstructor;
  readonly webkitAudioContext?: AudioContextConstructor;
}

function audioContextConstructor(win: Window): AudioContextConstructor | undefined {
  const audio = win as Window & AudioWindow;
  return audio.AudioContext ?? audio.webkitAudioContext;
}

/** The settings' default volume (0..1); its peak gain is the chime's original 0.3. */
export const DEFAULT_CHIME_VOLUME = 0.6;
const PEAK_GAIN_AT_FULL_VOLUME = 0.5;

/**
 * A short two-note chime made with oscillators (no sound files), at `volume` from 0 to 1 (0 is
 * silence). Silently does nothing where Web Audio is missing or refuses to start (jsdom, a
 * browser that blocks autoplay).
 */
export function playChime(win: Window = window, volume: number = DEFAULT_CHIME_VOLUME): boolean {
  const peak = Math.min(Math.max(volume, 0), 1) * PEAK_GAIN_AT_FULL_VOLUME;
  // exponentialRamp cannot reach 0, and a silent chime need not start an audio context at all.
  if (!(peak > 0.0001)) return false;
  const Ctor = audioContextConstructor(win);
  if (!Ctor) return false;
  try {
    const context = new Ctor();
    const start = context.currentTime;
    const notes = [
      { frequency: 880, at: 0 },
      { frequency: 1318.5, at: 0.16 },
    ];
    for (const note of notes) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.setValueAtTime(note.frequency, start + note.at);
      gain.gain.setValueAtTime(0.0001, start + note.at);
      gain.gain.exponentialRampToValueAtTime(peak, start + note.at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + 0.4);
      oscillator.connect(gain);
      gain.connect(context.destination);
      oscillator.start(start + note.at);
      oscillator.stop(start + note.at + 0.45);
    }
    win.setTimeout(() => void context.close().catch(() => undefined), 1000);
    return true;
  } catch {
    return false;
  }
}
