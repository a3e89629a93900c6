export default async function globalTeardown(): Promise<void> {
  const stops = (globalThis as { __STOPS__?: Array<() => Promise<void>> }).__STOPS__ ?? [];
  await Promise.all(stops.map((stop) => stop()));
}
