/**
 * What one message to a worker thread costs the sender (`npx tsx bench/thread-wake.ts`): the
 * `postMessage` call timed on the sending thread, (a) to a thread asleep in its event loop (one message
 * a millisecond, answered before the next: how SQLite mode's event loop hands each command to the room
 * thread at 1,000 commands a second) and (b) back to back to a thread that is awake. The difference is
 * the wake-up: the eventfd write that rouses a thread asleep on another vCPU, which on a VM is an
 * inter-processor interrupt. The same wake-up sits in every socket write to a process that is asleep
 * (the load workers, redis-server). bench/README.md, session 22.
 */
import { Worker } from 'node:worker_threads';

const ROUNDS = 3000;
const worker = new Worker(
  `const { parentPort } = require('node:worker_threads');
   parentPort.on('message', (m) => parentPort.postMessage(m[0]));`,
  { eval: true },
);
/** A message shaped like the room thread's `execute` request. */
const message = (i: number) => [
  i,
  'execute',
  'ABCDE',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  'f0e1d2c3-b4a5-4967-8877-665544332211',
  { type: 'act', action: 'CALL' },
  false,
  false,
];
const answered = () => new Promise<void>((resolve) => worker.once('message', () => resolve()));
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

await new Promise<void>((resolve) => worker.once('online', () => resolve()));
const asleep: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  await pause();
  const reply = answered();
  const t0 = process.hrtime.bigint();
  worker.postMessage(message(i));
  asleep.push(Number(process.hrtime.bigint() - t0) / 1000);
  await reply;
}
asleep.sort((a, b) => a - b);
const at = (q: number) => asleep[Math.min(asleep.length - 1, Math.floor(q * asleep.length))]!.toFixed(1);
const t1 = process.hrtime.bigint();
for (let i = 0; i < ROUNDS; i++) worker.postMessage(message(i));
const awake = Number(process.hrtime.bigint() - t1) / 1000 / ROUNDS;
console.log(
  `postMessage to a sleeping thread: p50 ${at(0.5)} µs, p90 ${at(0.9)} µs; back to back to an awake one: ${awake.toFixed(1)} µs a message`,
);
await worker.terminate();
