import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { APP_ICON, iconSvg, renderIcon, type RgbaImage } from './icon-art';
import { encodePng } from './png';

function pixel(image: RgbaImage, x: number, y: number): readonly number[] {
  const at = (Math.floor(y * image.height) * image.width + Math.floor(x * image.width)) * 4;
  return [...image.data.subarray(at, at + 4)];
}

describe('renderIcon', () => {
  const icon = renderIcon(64);

  it('draws a white Naira sign on a green square with a transparent margin', () => {
    expect(pixel(icon, 0.01, 0.01)).toEqual([0, 0, 0, 0]);
    // A stem of the N, and a bar across it.
    expect(pixel(icon, 0.3, 0.3)).toEqual([255, 255, 255, 255]);
    expect(pixel(icon, 0.22, 0.42)).toEqual([255, 255, 255, 255]);
    // The green, between the stems above the diagonal... and below it.
    const [r, g, b, a] = pixel(icon, 0.6, 0.3);
    expect(a).toBe(255);
    expect(g).toBeGreaterThan(r ?? 0);
    expect(g).toBeGreaterThan(b ?? 0);
  });

  it('blends edges (antialiasing) rather than stepping', () => {
    const alphas = new Set<number>();
    for (let i = 3; i < icon.data.length; i += 4) alphas.add(icon.data[i] ?? 0);
    expect([...alphas].some((alpha) => alpha > 0 && alpha < 255)).toBe(true);
  });

  it.each([
    ['blue', [37, 99, 235, 255]],
    ['amber', [245, 158, 11, 255]],
    ['red', [220, 38, 38, 255]],
  ] as const)('puts a %s status dot in the tray icon', (badge, colour) => {
    const tray = renderIcon(32, { margin: false, badge });
    expect(pixel(tray, 0.8, 0.8)).toEqual(colour);
    // Full bleed: the tray has no margin to waste.
    expect(pixel(tray, 0.5, 0.02)[3]).toBe(255);
  });

  it('is the same picture every time', () => {
    expect(renderIcon(32, APP_ICON).data).toEqual(renderIcon(32, APP_ICON).data);
  });

  it('refuses a size that is not a whole number of pixels', () => {
    expect(() => renderIcon(0)).toThrow(RangeError);
    expect(() => renderIcon(1.5)).toThrow(RangeError);
  });
});

describe('iconSvg', () => {
  it('writes the same shapes as SVG', () => {
    const svg = iconSvg();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<title>Transfer Till</title>');
    expect(svg).toContain('fill="url(#till-green)"');
    expect(svg.match(/<polygon /g)).toHaveLength(5);
    expect(svg).not.toContain('<circle');
    expect(iconSvg({ margin: false, badge: 'red' })).toContain('fill="#dc2626"');
  });
});

describe('encodePng', () => {
  it('writes a PNG that a decoder reads back pixel for pixel', () => {
    const image = renderIcon(24, { margin: false, badge: 'amber' });
    const decoded = PNG.sync.read(encodePng(image));
    expect(decoded.width).toBe(24);
    expect(decoded.height).toBe(24);
    expect(new Uint8Array(decoded.data)).toEqual(image.data);
  });

  it('refuses pixels that do not fill the size', () => {
    expect(() => encodePng({ width: 2, height: 2, data: new Uint8Array(15) })).toThrow(RangeError);
  });
});
