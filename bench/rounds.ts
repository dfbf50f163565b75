/**
 * The load benchmark's verdict over rounds (`--rounds`, load.ts): every target is measured once per
 * round, in turns, and each target's ratio to the floor is taken within a round (both measured in the
 * same minutes) before the median of the rounds is taken. Pure functions; tested in rounds.test.ts.
 */

/** What a summary needs of one measured run. */
export interface RoundRun {
  target: string;
  /** 1-based. */
  round: number;
  latencyMs: { p50: number; p95: number; p99: number };
  server: { cpuMicrosPerCommand: number; peakRssMb: number };
}

/** One target over all its rounds: medians of the rounds (the ratios per round first), the highest RSS. */
export interface RoundsSummary {
  rounds: number;
  latencyMs: { p50: number; p95: number; p99: number };
  /** Null for the floor itself, or when no round measured both this target and the floor. */
  ratioToFloor: { p50: number; p95: number; p99: number } | null;
  cpuMicrosPerCommand: number;
  peakRssMb: number;
}

/** The median (the mean of the middle two for an even count). NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Per target (the floor is the target named 'floor'): its summary over the rounds it was measured in. */
export function summarizeRounds(runs: readonly RoundRun[]): Record<string, RoundsSummary> {
  const out: Record<string, RoundsSummary> = {};
  for (const target of new Set(runs.map((r) => r.target))) {
    const own = runs.filter((r) => r.target === target);
    const pairs = own.flatMap((r) => {
      const floor = runs.find((f) => f.target === 'floor' && f.round === r.round);
      return floor && target !== 'floor' ? [{ r, floor }] : [];
    });
    const ratio = (k: 'p50' | 'p95' | 'p99') =>
      round2(median(pairs.map(({ r, floor }) => r.latencyMs[k] / floor.latencyMs[k])));
    out[target] = {
      rounds: own.length,
      latencyMs: {
        p50: round2(median(own.map((r) => r.latencyMs.p50))),
        p95: round2(median(own.map((r) => r.latencyMs.p95))),
        p99: round2(median(own.map((r) => r.latencyMs.p99))),
      },
      ratioToFloor: pairs.length > 0 ? { p50: ratio('p50'), p95: ratio('p95'), p99: ratio('p99') } : null,
      cpuMicrosPerCommand: Math.round(median(own.map((r) => r.server.cpuMicrosPerCommand))),
      peakRssMb: Math.max(...own.map((r) => r.server.peakRssMb)),
    };
  }
  return out;
}
