import { chmodSync, writeFileSync } from 'node:fs';

/**
 * Files under .local that hold keys or tokens (admin token, JWT and webhook keys, the API's env,
 * the demo account's key, the stack manifest): readable by their owner only. The mode given to
 * writeFileSync applies only when the file is created, so an existing file is chmod'ed too.
 */
export function writeSecretFile(path: string, data: string): void {
  writeFileSync(path, data, { mode: 0o600 });
  chmodSync(path, 0o600);
}
