// What a Lua script's string arguments cost Redis (`node bench/redis-lua-args.mjs [calls]`, REDIS_URL or
// redis://127.0.0.1:6379): Redis's bundled Lua interns every string a script gets or makes, and its
// string hash reads every byte (lstring.c hashes with a step of 1, where stock Lua 5.1 samples at most
// 32 bytes of a long string). Each shape runs `calls` EVALSHAs one after another on an otherwise idle
// Redis and prints Redis's own time a call (INFO commandstats, so the round trip is not in it):
// - an empty script with no argument, then with one 3.3 KB argument (a room's JSON);
// - the save's shape as sessions 13 to 15 had it: the room as one argument, the message rebuilt
//   around it in Lua (two substrings and a concatenation: ~11 KB of strings a call);
// - the room and the whole message as two arguments (~7.2 KB);
// - the message alone, stored in place of the room (~3.9 KB; the save since session 16).
// Each stores into one hash and publishes to a pattern subscriber, as the real save does. Writes the
// key `chipless-bench:lua` and deletes it at the end; resets Redis's command statistics.
import { createClient } from 'redis';

const calls = Number(process.argv[2] ?? 20000);
const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
await client.connect();
const subscriber = client.duplicate();
await subscriber.connect();
await subscriber.pSubscribe('chipless-bench:channel*', () => {});

/** Text of `n` characters that looks like a room's JSON and differs with `seed`. */
function text(n, seed) {
  let out = '';
  let x = seed;
  while (out.length < n) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += `{"id":"p${x % 7}","chips":${x % 100000}},`;
  }
  return out.slice(0, n);
}

const CHECK = `local v = redis.call('HGET', KEYS[1], 'v')
if v and tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
`;
const shapes = [
  { name: 'empty script, no argument', lua: 'return 1', args: () => [] },
  { name: 'empty script, one 3.3 KB argument', lua: 'return 1', args: (i) => [text(3300, i)] },
  {
    name: 'room + message rebuilt in Lua (until session 15)',
    lua: `${CHECK}redis.call('HSET', KEYS[1], 'v', ARGV[2], 'room', ARGV[8])
local room = ARGV[8]
local message = ARGV[3] .. string.sub(room, 1, tonumber(ARGV[4])) .. ARGV[6]
  .. string.sub(room, #room - tonumber(ARGV[5]) + 1) .. ARGV[7]
redis.call('PUBLISH', 'chipless-bench:channel', message)
return 1`,
    args: (i) => [
      String(i),
      String(i + 1),
      text(300, i + 1),
      '1500',
      '1500',
      text(100, i + 2),
      text(200, i + 3),
      text(3300, i),
    ],
  },
  {
    name: 'room + whole message',
    lua: `${CHECK}redis.call('HSET', KEYS[1], 'v', ARGV[2], 'room', ARGV[4])
redis.call('PUBLISH', 'chipless-bench:channel', ARGV[3])
return 1`,
    args: (i) => {
      const room = text(3300, i);
      return [String(i), String(i + 1), `${text(300, i + 1)}${room}${text(300, i + 2)}`, room];
    },
  },
  {
    name: 'message alone, stored as the room (session 16)',
    lua: `${CHECK}redis.call('HSET', KEYS[1], 'v', ARGV[2], 'pub', ARGV[3], 'po', ARGV[4])
redis.call('PUBLISH', 'chipless-bench:channel', ARGV[3])
return 1`,
    args: (i) => [
      String(i),
      String(i + 1),
      `${text(300, i + 1)}${text(3300, i)}${text(300, i + 2)}`,
      '300,1500,300,1500',
    ],
  },
];

const key = 'chipless-bench:lua';
try {
  for (const shape of shapes) {
    const sha = await client.scriptLoad(shape.lua);
    await client.del(key);
    await client.configResetStat();
    for (let i = 0; i < calls; i++) await client.evalSha(sha, { keys: [key], arguments: shape.args(i) });
    const stats = await client.info('commandstats');
    const perCall = /cmdstat_evalsha:.*?usec_per_call=([\d.]+)/.exec(stats)?.[1];
    console.log(`${perCall?.padStart(7)} µs a call  ${shape.name}`);
  }
} finally {
  await client.del(key);
  await subscriber.close();
  await client.close();
}
