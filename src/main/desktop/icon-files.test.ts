import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { APP_ICON, iconSvg, renderIcon } from './icon-art';
import {
  encodeIcns,
  encodeIco,
  ICNS_SIZES,
  ICO_SIZES,
  ICON_PNG_SIZE,
  LINUX_SIZES,
  type SizedPng,
} from './icon-files';
import { encodePng } from './png';

const BUILD = join(import.meta.dirname, '../../../build');

function sized(size: number): SizedPng {
  return { size, png: encodePng(renderIcon(size, APP_ICON)) };
}

/** The width and height in a PNG's IHDR. */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** How many bytes differ (a deep toEqual over a million bytes takes seconds). */
function differingBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}

function readIco(ico: Buffer): { size: number; png: Buffer }[] {
  expect(ico.readUInt16LE(0)).toBe(0);
  expect(ico.readUInt16LE(2)).toBe(1);
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const at = 6 + i * 16;
    expect(ico.readUInt16LE(at + 6)).toBe(32);
    const length = ico.readUInt32LE(at + 8);
    const offset = ico.readUInt32LE(at + 12);
    return { size: ico[at] || 256, png: ico.subarray(offset, offset + length) };
  });
}

function readIcns(icns: Buffer): { type: string; png: Buffer }[] {
  expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
  expect(icns.readUInt32BE(4)).toBe(icns.length);
  const entries: { type: string; png: Buffer }[] = [];
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    entries.push({
      type: icns.subarray(at, at + 4).toString('latin1'),
      png: icns.subarray(at + 8, at + length),
    });
    at += length;
  }
  return entries;
}

describe('encodeIco', () => {
  it('holds each PNG with its size (256 written as 0)', () => {
    const images = [sized(16), sized(256)];
    const entries = readIco(encodeIco(images));
    expect(entries.map((entry) => entry.size)).toEqual([16, 256]);
    expect(entries.map((entry) => pngSize(entry.png))).toEqual([
      [16, 16],
      [256, 256],
    ]);
    expect(entries[0]?.png.equals(images[0]?.png ?? Buffer.alloc(0))).toBe(true);
    expect(() => encodeIco([{ size: 512, png: Buffer.alloc(1) }])).toThrow(RangeError);
  });
});

describe('encodeIcns', () => {
  it('holds each PNG under its type, with lengths that add up', () => {
    const entries = readIcns(encodeIcns([sized(16), sized(32)]));
    expect(entries.map((entry) => entry.type)).toEqual(['icp4', 'icp5']);
    expect(entries.map((entry) => pngSize(entry.png))).toEqual([
      [16, 16],
      [32, 32],
    ]);
    expect(() => encodeIcns([{ size: 48, png: Buffer.alloc(1) }])).toThrow(RangeError);
  });
});

describe('the icon files in build/', () => {
  // If this fails, the shapes changed without the files: run `npx tsx scripts/make-app-icon.ts`.
  it('icon.png is the current drawing at 512 x 512', () => {
    const png = PNG.sync.read(readFileSync(join(BUILD, 'icon.png')));
    expect([png.width, png.height]).toEqual([ICON_PNG_SIZE, ICON_PNG_SIZE]);
    expect(differingBytes(png.data, renderIcon(ICON_PNG_SIZE, APP_ICON).data)).toBe(0);
  });

  it('the SVG source and the small Linux sizes are current', () => {
    expect(readFileSync(join(BUILD, 'icon-source.svg'), 'utf8')).toBe(iconSvg(APP_ICON));
    for (const size of [16, 32, 48]) {
      const png = PNG.sync.read(readFileSync(join(BUILD, `icons/${size}x${size}.png`)));
      expect(differingBytes(png.data, renderIcon(size, APP_ICON).data)).toBe(0);
    }
  });

  it('has every size electron-builder and the platforms ask for', () => {
    for (const size of LINUX_SIZES) {
      expect(pngSize(readFileSync(join(BUILD, `icons/${size}x${size}.png`)))).toEqual([size, size]);
    }
    const ico = readIco(readFileSync(join(BUILD, 'icon.ico')));
    expect(ico.map((entry) => entry.size)).toEqual([...ICO_SIZES]);
    expect(ico.every((entry) => pngSize(entry.png)[0] === entry.size)).toBe(true);
    const icns = readIcns(readFileSync(join(BUILD, 'icon.icns')));
    expect(icns.map((entry) => pngSize(entry.png)[0])).toEqual([...ICNS_SIZES]);
  });
});
