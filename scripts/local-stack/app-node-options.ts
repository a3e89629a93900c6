/**
 * Node options of every app process we start (the local stack, bench:relay) and ship (the
 * image's NODE_OPTIONS, `npm run start:prod`): semi-spaces of 32 MB for V8's young generation
 * instead of its default 16 MB. A relayed transaction leaves mostly short-lived garbage, and the
 * scavenges that collect it cost 0.33–0.40 ms per transaction at the default against 0.21–0.26 ms
 * at 32 MB, for about 20 MB more peak memory (bench:relay phase 2, interleaved pairs;
 * docs/benchmarks.md). 64 MB saved no more and cost 110 MB.
 */
export const APP_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=32'];
