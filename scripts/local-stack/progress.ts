/** One line when a step of `npm start` begins and one with its timing when it ends, so a first run (~20 s) never sits silent. */
export interface Progress {
  step<T>(label: string, run: (note: (line: string) => void) => Promise<T>): Promise<T>;
}

export function progress(write: (line: string) => void = (line) => console.log(line)): Progress {
  const started = performance.now();
  const secs = (from: number): string => `${((performance.now() - from) / 1000).toFixed(1)}s`;
  return {
    async step(label, run) {
      const t = performance.now();
      write(`[${secs(started).padStart(6)}] ${label} ...`);
      try {
        const result = await run((line) => write(`           ${line}`));
        write(`[${secs(started).padStart(6)}] ${label}: done in ${secs(t)}`);
        return result;
      } catch (err) {
        write(`[${secs(started).padStart(6)}] ${label}: failed after ${secs(t)}`);
        throw err;
      }
    },
  };
}
