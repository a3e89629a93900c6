/**
 * A native addon's binding when its prebuilt binary loads on this platform, else null. Never the
 * package's own pure-JS fallback: the callers fall back to ethers, which is faster than those.
 */
export function nativeBinding<T>(id: 'secp256k1/bindings' | 'keccak/bindings'): T | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(id) as T;
  } catch {
    return null;
  }
}
