/**
 * The app icon files electron-builder takes from build/ (see scripts/make-app-icon.ts, which
 * writes them): icon.png for every platform, icon.ico for Windows, icon.icns for macOS, an
 * icons/ set for Linux, and the SVG the shapes are drawn from.
 */
import { APP_ICON, iconSvg, renderIcon } from './icon-art';
import { encodePng } from './png';

export interface SizedPng {
  readonly size: number;
  readonly png: Buffer;
}

/**
 * A Windows .ico holding PNG images (Windows Vista and later read PNG entries). A size of 256
 * is written as 0 in the one-byte directory fields, as the format says.
 */
export function encodeIco(images: readonly SizedPng[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  const directory = Buffer.alloc(16 * images.length);
  let offset = header.length + directory.length;
  images.forEach(({ size, png }, index) => {
    if (size < 1 || size > 256) throw new RangeError(`An .ico entry is 1..256 pixels, not ${size}`);
    const at = index * 16;
    directory[at] = size === 256 ? 0 : size;
    directory[at + 1] = size === 256 ? 0 : size;
    directory[at + 2] = 0; // no palette
    directory[at + 3] = 0;
    directory.writeUInt16LE(1, at + 4); // colour planes
    directory.writeUInt16LE(32, at + 6); // bits per pixel
    directory.writeUInt32LE(png.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, directory, ...images.map((image) => image.png)]);
}

/** The PNG-based entry types of a macOS .icns, by pixel size (the @2x types of the same size are left out). */
const ICNS_TYPES: Readonly<Record<number, string>> = {
  16: 'icp4',
  32: 'icp5',
  64: 'icp6',
  128: 'ic07',
  256: 'ic08',
  512: 'ic09',
  1024: 'ic10',
};

/** A macOS .icns: the 'icns' header, then one (type, length, PNG) entry per size. */
export function encodeIcns(images: readonly SizedPng[]): Buffer {
  const entries = images.map(({ size, png }) => {
    const type = ICNS_TYPES[size];
    if (!type) throw new RangeError(`No .icns entry type for ${size} pixels`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(8 + entries.reduce((sum, entry) => sum + entry.length, 0), 4);
  return Buffer.concat([header, ...entries]);
}

export interface IconFile {
  /** Relative to build/. */
  readonly path: string;
  readonly bytes: Buffer;
}

export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
export const ICNS_SIZES = [16, 32, 64, 128, 256, 512, 1024] as const;
export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512] as const;
/** electron-builder wants at least 512 x 512 for macOS from a PNG, 256 for the others. */
export const ICON_PNG_SIZE = 512;

/** Every file of the app icon, made from the shapes (each size drawn once). */
export function appIconFiles(): readonly IconFile[] {
  const cache = new Map<number, Buffer>();
  const png = (size: number): Buffer => {
    let bytes = cache.get(size);
    if (!bytes) {
      bytes = encodePng(renderIcon(size, APP_ICON));
      cache.set(size, bytes);
    }
    return bytes;
  };
  return [
    { path: 'icon-source.svg', bytes: Buffer.from(iconSvg(APP_ICON), 'utf8') },
    { path: 'icon.png', bytes: png(ICON_PNG_SIZE) },
    { path: 'icon.ico', bytes: encodeIco(ICO_SIZES.map((size) => ({ size, png: png(size) }))) },
    { path: 'icon.icns', bytes: encodeIcns(ICNS_SIZES.map((size) => ({ size, png: png(size) }))) },
    ...LINUX_SIZES.map((size) => ({ path: `icons/${size}x${size}.png`, bytes: png(size) })),
  ];
}
