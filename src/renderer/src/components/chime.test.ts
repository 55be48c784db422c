import { describe, expect, it, vi } from 'vitest';
import { playChime } from './chime';

function fakeWindow(audio: Record<string, unknown>): Window {
  return { setTimeout: vi.fn(), ...audio } as unknown as Window;
}

describe('playChime', () => {
  it('does nothing where Web Audio is missing', () => {
    expect(playChime(fakeWindow({}))).toBe(false);
  });

  it('does nothing when the audio context refuses to start', () => {
    class Refusing {
      constructor() {
        throw new Error('NotAllowedError');
      }
    }
    expect(playChime(fakeWindow({ AudioContext: Refusing }))).toBe(false);
  });

  it('plays two oscillator notes', () => {
    const frequencies: number[] = [];
    const Context = recordingContext(frequencies, []);
    expect(playChime(fakeWindow({ webkitAudioContext: Context }))).toBe(true);
    expect(frequencies).toEqual([880, 1318.5]);
  });

  it('scales its loudness with the volume setting', () => {
    const peaks: number[] = [];
    const Context = recordingContext([], peaks);
    expect(playChime(fakeWindow({ AudioContext: Context }), 1)).toBe(true);
    expect(playChime(fakeWindow({ AudioContext: Context }), 0.2)).toBe(true);
    // Each note ramps up to its peak, then down to near silence.
    expect(peaks.filter((value) => value > 0.001)).toEqual([0.5, 0.5, 0.1, 0.1]);
  });

  it('stays silent at volume 0 without starting an audio context', () => {
    const started = vi.fn();
    class Context {
      constructor() {
        started();
      }
    }
    expect(playChime(fakeWindow({ AudioContext: Context }), 0)).toBe(false);
    expect(started).not.toHaveBeenCalled();
  });
});

function recordingContext(frequencies: number[], ramps: number[]) {
  return class Context {
    readonly currentTime = 0;
    readonly destination = {};
    createOscillator() {
      return {
        type: '',
        frequency: { setValueAtTime: (value: number) => frequencies.push(value) },
        connect: vi.fn(),
        start: vi.fn(),
        stop: vi.fn(),
      };
    }
    createGain() {
      return {
        gain: {
          setValueAtTime: vi.fn(),
          exponentialRampToValueAtTime: (value: number) => ramps.push(value),
        },
        connect: vi.fn(),
      };
    }
    close() {
      return Promise.resolve();
    }
  };
}
