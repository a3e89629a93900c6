import { Logger } from '@nestjs/common';
import { OperatorAlerts } from '../../modules/relayer-wallets/domain/operator-alerts.service';
import type { AppConfig } from '../../config/app-config';
import { AppLogger } from './app-logger';
import { runWithTrace } from './trace-context';

/** The JSON lines a call writes to stdout and stderr. */
async function captured(fn: () => unknown | Promise<unknown>): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const take = (chunk: string | Uint8Array) => (lines.push(String(chunk)), true);
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(take);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(take);
  try {
    await fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('AppLogger with LOG_FORMAT=json', () => {
  const previous = process.env.LOG_FORMAT;
  let logger: AppLogger;
  beforeAll(() => {
    process.env.LOG_FORMAT = 'json';
    logger = new AppLogger();
    Logger.overrideLogger(logger);
  });
  afterAll(() => {
    Logger.overrideLogger(['error']);
    if (previous === undefined) delete process.env.LOG_FORMAT;
    else process.env.LOG_FORMAT = previous;
  });

  it('writes one JSON object per line: level names shippers know, ISO time, context, the trace id, the message as msg', async () => {
    const lines = await captured(() =>
      runWithTrace('trace-0123456789', () => {
        new Logger('Ctx').log('hello');
        new Logger('Ctx').warn('careful');
        new Logger('Ctx').debug('detail');
        new Logger('Ctx').verbose('chatty');
      }),
    );
    expect(lines.map((l) => l.level)).toEqual(['info', 'warn', 'debug', 'trace']);
    for (const l of lines) expect(l).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), context: 'Ctx', traceId: 'trace-0123456789' });
    expect(lines[0].msg).toBe('hello');
  });

  it('an object message is fields, not a string; an error keeps its stack as a field of the same line', async () => {
    const [record, failure] = await captured(() => {
      new Logger('HTTP').log({ msg: 'GET /x 200', method: 'GET', status: 200, durationMs: 1.5 });
      new Logger('Ctx').error('it broke', 'Error: it broke\n    at somewhere');
    });
    expect(record).toMatchObject({ level: 'info', msg: 'GET /x 200', method: 'GET', status: 200, durationMs: 1.5, traceId: '-' });
    expect(failure).toMatchObject({ level: 'error', msg: 'it broke', stack: expect.stringContaining('at somewhere') });
  });

  it('an operator alert is a warn line with its fields (kind, chainId, address...), not JSON inside msg', async () => {
    const alerts = new OperatorAlerts({ OPERATOR_WEBHOOK_URL: undefined } as unknown as AppConfig);
    const [line] = await captured(() => alerts.raise({ kind: 'relayer.low_balance', chainId: 31337, address: '0xabc', balanceWei: '5', floorWei: '10' }));
    expect(line).toMatchObject({ level: 'warn', context: 'OperatorAlert', msg: 'operator_alert', kind: 'relayer.low_balance', chainId: 31337, address: '0xabc', balanceWei: '5', floorWei: '10', at: expect.any(String) });
  });
});
