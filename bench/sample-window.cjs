// Profiles of a window of a measured process, written when the window ends. Preload it in the server
// (BENCH_SERVER_FLAGS, the floor gets it too) or in the load workers (BENCH_WORKER_FLAGS):
//
//   BENCH_SERVER_FLAGS="--require ./bench/sample-window.cjs" HEAP_SAMPLE_OUT=/tmp/hs \
//     npm run bench -- --store redis --rounds 1
//
// then `node bench/sample-top.mjs FILE`. Which profiles, by the variables set:
// - HEAP_SAMPLE_OUT=dir: a sampling heap profile (.heapprofile) with the objects collected by GC, so it
//   counts what the process allocates; with HEAP_SAMPLE_LIVE=1 only those still alive at the end
//   (what it keeps). The sampler costs the process ~15% and stretches its tail.
// - CPU_SAMPLE_OUT=dir: a CPU profile (.cpuprofile). node's --cpu-prof writes only at a clean exit,
//   and the load bench stops its workers with a signal.
// The window starts SAMPLE_AFTER_S seconds (default 26) after the process starts, inside the load
// bench's measured window (setup ~10 s, warm-up 10 s), and lasts SAMPLE_S seconds (default 12).
// Latency in such a run is not comparable with a run without it. Not used by the product.
'use strict';
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const after = Number(process.env.SAMPLE_AFTER_S ?? 26) * 1000;
const span = Number(process.env.SAMPLE_S ?? 12) * 1000;
const all = process.env.HEAP_SAMPLE_LIVE !== '1';
const kinds = [
  {
    out: process.env.HEAP_SAMPLE_OUT,
    ext: 'heapprofile',
    start: [
      'HeapProfiler.startSampling',
      {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: all,
        includeObjectsCollectedByMinorGC: all,
      },
    ],
    stop: 'HeapProfiler.stopSampling',
    enable: 'HeapProfiler.enable',
  },
  {
    out: process.env.CPU_SAMPLE_OUT,
    ext: 'cpuprofile',
    start: ['Profiler.start', {}],
    stop: 'Profiler.stop',
    enable: 'Profiler.enable',
  },
];

const wanted = kinds.filter((k) => k.out);
const session = new inspector.Session();
if (wanted.length > 0) session.connect();
for (const kind of wanted) {
  const fail = (err) => console.error(`sample-window (${kind.ext}): ${err.message}`);
  setTimeout(() => {
    session.post(kind.enable, () =>
      session.post(kind.start[0], kind.start[1], (err) => {
        if (err) return fail(err);
        const t0 = Date.now();
        setTimeout(() => {
          session.post(kind.stop, (err2, result) => {
            if (err2) return fail(err2);
            mkdirSync(kind.out, { recursive: true });
            const file = join(kind.out, `${process.pid}-${Date.now()}.${kind.ext}`);
            writeFileSync(file, JSON.stringify({ ...result.profile, sampledMs: Date.now() - t0 }));
            console.error(`sample-window: ${file}`);
          });
        }, span).unref();
      }),
    );
  }, after).unref();
}
