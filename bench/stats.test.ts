import { describe, expect, it } from 'vitest';
import { parseProcStat } from './stats';

describe('parseProcStat', () => {
  it('adds user, nice, system, irq and softirq into busy and keeps steal apart (idle and iowait out)', () => {
    // A line read off this machine: user nice system idle iowait irq softirq steal guest guest_nice.
    expect(parseProcStat('cpu  57798 0 21928 93760 684 0 3256 10055 0 0')).toEqual({
      busy: 57798 + 0 + 21928 + 0 + 3256,
      steal: 10055,
    });
    expect(parseProcStat('cpu  1 2 3 4 5 6 7 8')).toEqual({ busy: 1 + 2 + 3 + 6 + 7, steal: 8 });
  });

  it('refuses a line that is not the machine-wide cpu line', () => {
    expect(() => parseProcStat('cpu0 1 2 3 4 5 6 7 8 0 0')).toThrow('not the cpu line of /proc/stat');
    expect(() => parseProcStat('cpu  1 2 3')).toThrow('not the cpu line of /proc/stat');
  });
});
