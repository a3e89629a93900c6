import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../api';

export interface Polled<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Loads on mount and when `deps` change, then every `intervalMs` (0: once); the last good data stays while a reload fails. */
export function usePoll<T>(load: () => Promise<T>, intervalMs: number, deps: unknown[] = []): Polled<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const loader = useRef(load);
  loader.current = load;
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setLoading(true);
    loader
      .current()
      .then((value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(null);
      })
      .catch((err: unknown) => mine === generation.current && setError(errorText(err)))
      .finally(() => mine === generation.current && setLoading(false));
  }, []);

  useEffect(() => {
    reload();
    if (!intervalMs) return undefined;
    const timer = setInterval(reload, intervalMs);
    return () => clearInterval(timer);
  }, deps);

  return { data, error, loading, reload };
}
