import { describe, expect, it } from 'vitest';
import { MIN_VISIBLE_BAR, axisTop, barHeight, formatNairaShort, transfers } from './chart-scale';

describe('the charts’ scale', () => {
  it('tops the axis with the smallest round figure at or above the biggest bar', () => {
    expect(axisTop(10_345_600)).toBe(12_000_000);
    expect(axisTop(12_000_000)).toBe(12_000_000);
    expect(axisTop(12_000_001)).toBe(15_000_000);
    expect(axisTop(100)).toBe(100);
    expect(axisTop(101)).toBe(120);
    expect(axisTop(81)).toBe(100);
    expect(axisTop(7)).toBe(8);
    // No money at all: an axis of one kobo, so nothing divides by zero.
    expect(axisTop(0)).toBe(1);
    expect(axisTop(Number.NaN)).toBe(1);
  });

  it('draws bars in proportion to their amounts', () => {
    expect(barHeight(6_000_000, 12_000_000, 160)).toBe(80);
    expect(barHeight(12_000_000, 12_000_000, 160)).toBe(160);
    expect(barHeight(3_000_000, 12_000_000, 160) * 2).toBe(barHeight(6_000_000, 12_000_000, 160));
  });

  it('keeps a bar with any money visible beside one big hour, and draws nothing for none', () => {
    expect(barHeight(100, 1_000_000_000, 160)).toBe(MIN_VISIBLE_BAR);
    expect(barHeight(0, 1_000_000_000, 160)).toBe(0);
    expect(barHeight(-5, 100, 160)).toBe(0);
    // Never above the plot, even for a value over the axis top.
    expect(barHeight(200, 100, 160)).toBe(160);
  });

  it('labels the axis in short naira and counts transfers in words', () => {
    expect(formatNairaShort(12_000_000)).toBe('₦120K');
    expect(formatNairaShort(150_000_000)).toBe('₦1.5M');
    expect(formatNairaShort(0)).toBe('₦0');
    expect(transfers(1)).toBe('1 transfer');
    expect(transfers(1234)).toBe('1,234 transfers');
  });
});
