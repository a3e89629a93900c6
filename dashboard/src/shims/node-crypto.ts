// The SDK's webhook signature check runs on servers; in the page these exist only to satisfy the import.
function unavailable(..._args: unknown[]): never {
  throw new Error('node:crypto is not available in the browser');
}
export const createHmac = unavailable;
export const timingSafeEqual = unavailable;
