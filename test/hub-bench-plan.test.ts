import { describe, expect, it } from 'vitest';
import { REPETITIONS } from '../bench/bench-figure';
import {
  counterAddress,
  FLOOD_ADDRESS,
  hubPlan,
  loopbackAddress,
  refusedAddresses,
} from '../bench/hub-plan';

describe('the hub bench plan', () => {
  it('runs the usual repetitions of 20 s, and two short rounds in quick mode', () => {
    expect(hubPlan(false)).toEqual({ rounds: REPETITIONS, windowMs: 20_000 });
    const quick = hubPlan(true);
    expect(quick.rounds).toBeLessThan(REPETITIONS);
    expect(quick.rounds * 3 * quick.windowMs).toBeLessThan(45_000);
  });

  it('gives each counter a loopback address of its own, none of them the flood’s', () => {
    const counters = Array.from({ length: 20 }, (_, i) => counterAddress(i));
    expect(counters[0]).toBe('127.0.0.10');
    expect(counters[19]).toBe('127.0.0.29');
    expect(new Set(counters).size).toBe(20);
    expect(counters).not.toContain(FLOOD_ADDRESS);
    expect(counters).not.toContain('127.0.0.1');
  });

  it('refuses a host that is not a loopback address to give', () => {
    expect(loopbackAddress(2)).toBe('127.0.0.2');
    for (const host of [0, 1, 255, 2.5]) {
      expect(() => loopbackAddress(host)).toThrow(RangeError);
    }
    expect(() => counterAddress(245)).toThrow(RangeError);
  });
});

describe('the addresses the hub refused', () => {
  it('reads them from the hub’s log lines, whatever else the log holds', () => {
    const log = [
      '{"level":30,"msg":"LAN listener started"}',
      '{"level":40,"from":"127.0.0.200","cap":"per-address","refused":1,"msg":"LAN connections refused: over the connection cap"}',
      'not JSON, "cap" mentioned',
      '{"level":40,"from":"127.0.0.12","cap":"total","refused":3,"msg":"LAN connections refused: over the connection cap"}',
      '{"level":40,"from":"127.0.0.200","cap":"per-address","refused":7,"msg":"LAN connections refused: over the connection cap"}',
      '{"level":30,"cap":"per-address","msg":"no address"}',
      '',
    ].join('\n');
    expect([...refusedAddresses(log)].sort()).toEqual(['127.0.0.12', '127.0.0.200']);
    expect(refusedAddresses('').size).toBe(0);
  });
});
