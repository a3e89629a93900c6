import { isUuid } from './uuid';

describe('isUuid', () => {
  it('accepts a UUID of either case and refuses anything PostgreSQL would not take as one', () => {
    expect(isUuid('0b7c2f4e-9d1a-4c3b-8e2f-1a2b3c4d5e6f')).toBe(true);
    expect(isUuid('0B7C2F4E-9D1A-4C3B-8E2F-1A2B3C4D5E6F')).toBe(true);
    for (const bad of ['', 'tx-1', '0b7c2f4e9d1a4c3b8e2f1a2b3c4d5e6f', '0b7c2f4e-9d1a-4c3b-8e2f-1a2b3c4d5e6f0', ' 0b7c2f4e-9d1a-4c3b-8e2f-1a2b3c4d5e6f', '0b7c2f4e-9d1a-4c3b-8e2f-1a2b3c4d5e6g']) expect(isUuid(bad)).toBe(false);
  });
});
