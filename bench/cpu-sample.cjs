// A CPU profile of a window of a measured process, written when the window ends (node's --cpu-prof
// writes only at a clean exit, and the load bench stops its workers with a signal). Preload it:
//
//   BENCH_WORKER_FLAGS="--require ./bench/cpu-sample.cjs" CPU_SAMPLE_OUT=/tmp/prof \
//     npm run bench -- --store sqlite --rounds 1 --no-floor
//
// (or BENCH_SERVER_FLAGS for the server), then `node bench/cpu-top.mjs /tmp/prof/<file>.cpuprofile`.
// It starts CPU_SAMPLE_AFTER_S seconds (default 26) after the process starts, inside the load bench's
// measured window, and profiles for CPU_SAMPLE_S seconds (default 12). Not used by the product.
'use strict';
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const out = process.env.CPU_SAMPLE_OUT;
if (out) {
  const after = Number(process.env.CPU_SAMPLE_AFTER_S ?? 26) * 1000;
  const span = Number(process.env.CPU_SAMPLE_S ?? 12) * 1000;
  const session = new inspector.Session();
  session.connect();
  const started = setTimeout(() => {
    session.post('Profiler.enable', () =>
      session.post('Profiler.start', (err) => {
        if (err) return console.error('cpu-sample:', err.message);
        const stopped = setTimeout(() => {
          session.post('Profiler.stop', (err2, result) => {
            if (err2) return console.error('cpu-sample:', err2.message);
            mkdirSync(out, { recursive: true });
            const file = join(out, `${process.pid}-${Date.now()}.cpuprofile`);
            writeFileSync(file, JSON.stringify(result.profile));
            console.error(`cpu-sample: ${file}`);
          });
        }, span);
        stopped.unref();
      }),
    );
  }, after);
  started.unref();
}
