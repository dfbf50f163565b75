// Sums a profile from sample-window.cjs (or --cpu-prof): `node bench/sample-top.mjs FILE [N] [cmdPerSec]`.
// A .heapprofile: bytes allocated per command (at cmdPerSec, default 1000) by allocation site and caller.
// A .cpuprofile: self time per function, as a share of the samples.
import { readFileSync } from 'node:fs';

const [file, n = '30', rate = '1000'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/sample-top.mjs FILE [N] [cmdPerSec]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nameOf = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1')}:${f.lineNumber + 1}`;
const top = (totals) => [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(n));

if (file.endsWith('.heapprofile')) {
  const perCommand = (bytes) => bytes / (profile.sampledMs / 1000) / Number(rate) / 1024;
  const sites = new Map();
  let total = 0;
  const walk = (node, caller) => {
    const name = nameOf(node.callFrame);
    total += node.selfSize;
    if (node.selfSize > 0)
      sites.set(`${name}  <- ${caller}`, (sites.get(`${name}  <- ${caller}`) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, name);
  };
  walk(profile.head, '');
  console.log(
    `${file}: ${(profile.sampledMs / 1000).toFixed(1)} s, ${perCommand(total).toFixed(1)} KB a command at ${rate}/s`,
  );
  for (const [site, bytes] of top(sites))
    console.log(`${perCommand(bytes).toFixed(2).padStart(7)} KB  ${site}`);
} else {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  for (const id of profile.samples) {
    const name = nameOf(byId.get(id).callFrame);
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const idle = self.get(nameOf({ functionName: '(idle)', url: '', lineNumber: -1 })) ?? 0;
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  console.log(
    `${file}: ${seconds.toFixed(1)} s, ${total} samples, busy ${(100 * (1 - idle / total)).toFixed(1)}%`,
  );
  for (const [name, count] of top(self))
    console.log(`${((100 * count) / total).toFixed(2).padStart(6)}%  ${name}`);
}
