/**
 * Small measuring helpers for the load benchmark: percentiles over latency samples, a seeded PRNG,
 * and readers for a process's CPU time and memory from /proc (Linux).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Summary of latency samples in milliseconds. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array (p in 0..100). NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Count, mean, p50, p95, p99 and max of the samples (ms, rounded to 0.01). */
export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const arr = Array.from(sorted);
  let sum = 0;
  for (const s of arr) sum += s;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    count: arr.length,
    mean: r(arr.length ? sum / arr.length : Number.NaN),
    p50: r(percentile(arr, 50)),
    p95: r(percentile(arr, 95)),
    p99: r(percentile(arr, 99)),
    max: r(arr.length ? arr[arr.length - 1]! : Number.NaN),
  };
}

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). Same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let clockTicks: number | undefined;
/** Kernel clock ticks per second (the unit of utime/stime in /proc/<pid>/stat). */
export function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields we need come after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicksPerSecond();
}

/** Resident memory now (VmRSS) and at its peak (VmHWM), in MB, from /proc/<pid>/status. */
export function processMemoryMb(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, peakRssMb: Math.round(kb('VmHWM') / 102.4) / 10 };
}

/**
 * The first line of /proc/stat in clock ticks: `busy` is the time the machine's own CPUs ran anything
 * (user, nice, system, irq, softirq), `steal` the time the hypervisor gave this VM's vCPUs to others
 * while they had work (the box is shared: it slows every process here alike, floor included).
 */
export function parseProcStat(firstLine: string): { busy: number; steal: number } {
  const [label, ...fields] = firstLine.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  if (label !== 'cpu' || [user, nice, system, irq, softirq, steal].some((n) => !Number.isFinite(n))) {
    throw new Error(`not the cpu line of /proc/stat: ${firstLine}`);
  }
  return { busy: user! + nice! + system! + irq! + softirq!, steal: steal! };
}

/** CPU time (ms, all cores together) the whole machine has spent busy so far, and stolen, from /proc/stat. */
export function machineCpuMs(): { busyMs: number; stealMs: number } {
  const { busy, steal } = parseProcStat(readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!);
  const perTick = 1000 / clockTicksPerSecond();
  return { busyMs: busy * perTick, stealMs: steal * perTick };
}
