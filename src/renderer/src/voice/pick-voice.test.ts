import { describe, expect, it } from 'vitest';
import { pickVoice, voiceLabel, type VoiceFacts } from './pick-voice';

function voice(name: string, lang: string, localService = true): VoiceFacts {
  return { name, lang, localService, voiceURI: `uri:${name}` };
}

const US = voice('Samantha', 'en-US');
const GB = voice('Daniel', 'en-GB');
const NG = voice('Ngozi', 'en-NG');
const FR = voice('Amélie', 'fr-FR');
const YO = voice('Yoruba', 'yo-NG');

describe('pickVoice', () => {
  it('has nothing to pick from an empty list', () => {
    expect(pickVoice([], '')).toBeNull();
    expect(pickVoice([], 'uri:Ngozi')).toBeNull();
  });

  it.each([
    ['en-NG over everything', [FR, US, GB, NG], NG],
    ['en-GB without en-NG', [FR, US, GB], GB],
    ['any English without en-NG or en-GB', [FR, YO, US], US],
    ['plain "en"', [FR, voice('Generic', 'en')], voice('Generic', 'en')],
    ['the first when none is English', [YO, FR], YO],
    ['en_NG as Android spells it', [GB, voice('Android', 'en_NG')], voice('Android', 'en_NG')],
    ['a lower-case region', [GB, voice('Lower', 'en-ng')], voice('Lower', 'en-ng')],
    ['not en-NGx or english-like tags', [voice('Odd', 'eng-NG'), GB], GB],
  ] as const)('picks %s', (_name, voices, expected) => {
    expect(pickVoice(voices, '')).toEqual(expected);
  });

  it('prefers a voice on this computer to a network voice of the same language', () => {
    const remote = voice('Google UK English Female', 'en-GB', false);
    const local = voice('Daniel', 'en-GB', true);
    expect(pickVoice([remote, local], '')).toBe(local);
    // ... but not to a better language.
    const remoteNg = voice('Cloud Ngozi', 'en-NG', false);
    expect(pickVoice([local, remoteNg], '')).toBe(remoteNg);
  });

  it('keeps the list order among equals', () => {
    const first = voice('First', 'en-GB');
    const second = voice('Second', 'en-GB');
    expect(pickVoice([first, second], '')).toBe(first);
  });

  it('takes the saved voice when this computer has it, by voiceURI or by name', () => {
    expect(pickVoice([NG, GB, FR], 'uri:Amélie')).toBe(FR);
    expect(pickVoice([NG, GB, FR], 'Daniel')).toBe(GB);
  });

  it('falls back to the best voice when the saved one is not on this computer', () => {
    expect(pickVoice([FR, GB], 'uri:Ngozi')).toBe(GB);
  });
});

describe('voiceLabel', () => {
  it('names the language, and a network voice as needing the internet', () => {
    expect(voiceLabel(NG)).toBe('Ngozi (en-NG)');
    expect(voiceLabel(voice('Cloud', 'en-GB', false))).toBe('Cloud (en-GB, needs the internet)');
  });
});
