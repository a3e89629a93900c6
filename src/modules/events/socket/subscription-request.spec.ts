import { AppError } from '../../../common/errors/app-error';
import { parseSubscription } from './subscription-request';

describe('parseSubscription', () => {
  it('accepts a transaction id or all', () => {
    expect(parseSubscription({ txId: ' abc ' })).toEqual({ txId: 'abc' });
    expect(parseSubscription({ all: true })).toEqual({ all: true });
  });

  it.each([undefined, null, 'tx', [], {}, { all: false }, { all: 'true' }, { txId: '' }, { txId: 1 }, { txId: 'a', all: true }])('refuses %p', (body) => {
    expect(() => parseSubscription(body)).toThrow(AppError);
  });
});
