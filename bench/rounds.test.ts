/** The load benchmark's verdict over rounds: per-round ratios, medians, the highest RSS. */
import { describe, expect, it } from 'vitest';
import { median, type RoundRun, summarizeRounds } from './rounds';

function run(target: string, round: number, p50: number, p99: number, cpu: number, rss: number): RoundRun {
  return {
    target,
    round,
    latencyMs: { p50, p95: p50 * 4, p99 },
    server: { cpuMicrosPerCommand: cpu, peakRssMb: rss },
  };
}

describe('median', () => {
  it('is the middle value, or the mean of the middle two, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });
});

describe('summarizeRounds', () => {
  it('takes each ratio to the floor within its round, then the median of the rounds', () => {
    const summary = summarizeRounds([
      run('sqlite', 1, 0.6, 20, 350, 420),
      run('floor', 1, 0.4, 10, 160, 300),
      run('sqlite', 2, 0.7, 30, 360, 430),
      run('floor', 2, 0.35, 12, 150, 330),
      run('sqlite', 3, 0.65, 25, 340, 425),
      run('floor', 3, 0.5, 8, 170, 310),
    ]);
    // Ratios per round 1.5, 2.0, 1.3 (median 1.5), not the ratio of the medians (0.65 / 0.4 = 1.625).
    expect(summary.sqlite).toEqual({
      rounds: 3,
      latencyMs: { p50: 0.65, p95: 2.6, p99: 25 },
      ratioToFloor: { p50: 1.5, p95: 1.5, p99: 2.5 },
      cpuMicrosPerCommand: 350,
      peakRssMb: 430,
    });
    expect(summary.floor).toEqual({
      rounds: 3,
      latencyMs: { p50: 0.4, p95: 1.6, p99: 10 },
      ratioToFloor: null,
      cpuMicrosPerCommand: 160,
      peakRssMb: 330,
    });
  });

  it('pairs a run only with the floor of its own round; a round without one does not count', () => {
    const summary = summarizeRounds([
      run('redis', 1, 0.9, 100, 500, 480),
      run('floor', 1, 0.3, 9, 150, 300),
      run('redis', 2, 0.8, 150, 520, 470),
      // Round 2's floor failed; round 3's redis failed.
      run('floor', 3, 0.4, 10, 160, 310),
    ]);
    expect(summary.redis?.ratioToFloor).toEqual({ p50: 3, p95: 3, p99: 11.11 });
    expect(summary.redis?.rounds).toBe(2);
    expect(summary.redis?.latencyMs.p50).toBe(0.85);
    expect(summary.floor?.rounds).toBe(2);
  });

  it('has no ratio without a floor', () => {
    const summary = summarizeRounds([run('sqlite', 1, 0.6, 20, 350, 420)]);
    expect(summary.sqlite?.ratioToFloor).toBeNull();
    expect(summary).not.toHaveProperty('floor');
  });
});
