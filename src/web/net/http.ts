import { useEffect, useState } from 'react';
import { HANDS_DEALT_PLACEHOLDER } from '../../shared/limits';
import type { ConfigResponse, StatsResponse } from '../../shared/protocol';

async function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

/** Total hands dealt: the spec's placeholder until the real value loads, and when the read fails. */
export function useHandsDealt(): number {
  const [count, setCount] = useState(HANDS_DEALT_PLACEHOLDER);
  useEffect(() => {
    const ctrl = new AbortController();
    getJson<StatsResponse>('/api/stats', ctrl.signal)
      .then((s) => {
        if (typeof s.totalHandsDealt === 'number' && Number.isFinite(s.totalHandsDealt))
          setCount(s.totalHandsDealt);
      })
      .catch(() => {});
    return () => ctrl.abort();
  }, []);
  return count;
}

/** Contact e-mail and support link; null until loaded (and when the read fails). */
export function useAppConfig(): ConfigResponse | null {
  const [config, setConfig] = useState<ConfigResponse | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    getJson<ConfigResponse>('/api/config', ctrl.signal)
      .then((c) => setConfig(c))
      .catch(() => {});
    return () => ctrl.abort();
  }, []);
  return config;
}
