import { ValueTransformer } from 'typeorm';

/** pg returns BIGINT as a string; the domain works in bigint. */
export const bigintTransformer: ValueTransformer = {
  to: (value: bigint | null | undefined) => (value === null || value === undefined ? value : value.toString()),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};
