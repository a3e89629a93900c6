import { BroadcastJob, Reaction, reactionTo } from './broadcast-reaction';

const JOBS: BroadcastJob[] = ['first', 'resend', 'user-signed', 'replacement', 'cancel'];

/** One case per row of the table: the reaction of each job to one node answer. */
const CASES: Array<[Parameters<typeof reactionTo>[0], Record<BroadcastJob, Reaction['kind'] | 'fail+fill'>]> = [
  ['sent', { first: 'sent', resend: 'sent', 'user-signed': 'sent', replacement: 'sent', cancel: 'sent' }],
  ['known', { first: 'sent', resend: 'sent', 'user-signed': 'sent', replacement: 'sent', cancel: 'sent' }],
  ['nonce-used', { first: 'ask-fate', resend: 'ask-fate', 'user-signed': 'ask-fate', replacement: 'ask-fate', cancel: 'ask-fate' }],
  ['replacement-underpriced', { first: 'watch', resend: 'watch', 'user-signed': 'watch', replacement: 'watch', cancel: 'watch' }],
  ['busy', { first: 'hold', resend: 'hold', 'user-signed': 'hold', replacement: 'hold', cancel: 'hold' }],
  ['under-base-fee', { first: 'reprice', resend: 'reprice', 'user-signed': 'retry', replacement: 'retry', cancel: 'retry' }],
  ['rejected', { first: 'fail+fill', resend: 'fail', 'user-signed': 'fail', replacement: 'fail', cancel: 'retry' }],
  ['unknown', { first: 'retry', resend: 'retry', 'user-signed': 'retry', replacement: 'retry', cancel: 'retry' }],
  ['unfunded', { first: 'retry', resend: 'retry', 'user-signed': 'retry', replacement: 'retry', cancel: 'retry' }],
];

const shown = (r: Reaction) => (r.kind === 'fail' && r.fillNonce ? 'fail+fill' : r.kind);

describe('broadcast outcome → reaction', () => {
  it.each(CASES)('%s', (answer, expected) => {
    expect(Object.fromEntries(JOBS.map((job) => [job, shown(reactionTo(answer, job))]))).toEqual(expected);
  });

  it('never concludes a consumed nonce from the answer alone: only NonceFate may', () => {
    for (const job of JOBS) expect(reactionTo('nonce-used', job).kind).toBe('ask-fate');
  });

  it('fills a nonce only for the first signature at it', () => {
    for (const job of JOBS.filter((j) => j !== 'first')) for (const [answer] of CASES) expect(shown(reactionTo(answer, job))).not.toBe('fail+fill');
  });
});
