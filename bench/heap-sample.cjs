// A sampling heap profile of a measured process, objects collected by GC included, so it counts what
// a process allocates (not what it keeps). Preload it in the server (and the floor) of a load run:
//
//   BENCH_SERVER_FLAGS="--require ./bench/heap-sample.cjs" HEAP_SAMPLE_OUT=/tmp/hs \
//     npm run bench -- --store redis --rounds 1
//
// then `node bench/heap-top.mjs /tmp/hs/<file>.heapprofile [commands-per-second]`. It starts
// HEAP_SAMPLE_AFTER_S seconds (default 26) after the process starts, inside the load bench's measured
// window (setup ~10 s, warm-up 10 s), and samples for HEAP_SAMPLE_S seconds (default 12). The
// inspector's sampler costs the process ~15% and stretches its tail: latency in such a run is not
// comparable with a run without it. HEAP_SAMPLE_LIVE=1 counts only the sampled objects still alive when
// sampling stops (what the process keeps of what it allocated). Not used by anything in the product.
'use strict';
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const out = process.env.HEAP_SAMPLE_OUT;
if (out) {
  const after = Number(process.env.HEAP_SAMPLE_AFTER_S ?? 26) * 1000;
  const span = Number(process.env.HEAP_SAMPLE_S ?? 12) * 1000;
  // HEAP_SAMPLE_LIVE=1: only what is still alive when sampling stops (what a process keeps).
  const all = process.env.HEAP_SAMPLE_LIVE !== '1';
  const session = new inspector.Session();
  session.connect();
  const started = setTimeout(() => {
    session.post(
      'HeapProfiler.startSampling',
      {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: all,
        includeObjectsCollectedByMinorGC: all,
      },
      (err) => {
        if (err) return console.error('heap-sample:', err.message);
        const t0 = Date.now();
        const stopped = setTimeout(() => {
          session.post('HeapProfiler.stopSampling', (err2, result) => {
            if (err2) return console.error('heap-sample:', err2.message);
            mkdirSync(out, { recursive: true });
            const file = join(out, `${process.pid}-${Date.now()}.heapprofile`);
            const profile = { ...result.profile, sampledMs: Date.now() - t0, argv: process.argv.slice(1) };
            writeFileSync(file, JSON.stringify(profile));
            console.error(`heap-sample: ${file}`);
          });
        }, span);
        stopped.unref();
      },
    );
  }, after);
  started.unref();
}
