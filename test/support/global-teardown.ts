export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __DEVNET__?: { stop(): Promise<void> } }).__DEVNET__?.stop();
}
