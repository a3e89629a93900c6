import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { currentTraceId } from './trace-context';
import { forgetTxTrace, markTracingEnabled, rememberTxTrace, runDetached, runInTxTrace, stageSpan } from './tracing';

/**
 * With tracing on, a stage span recorded for one transaction lands in that transaction's trace,
 * whichever job or pass happens to be running when it is recorded.
 */
describe('tracing: whose trace a stage lands in', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
    markTracingEnabled();
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  /** A send job's span with the transaction's context remembered in it, as SendProcessor does; its trace id. */
  function sendJob(txId: string, then?: () => void): string {
    return trace.getTracer('spec').startActiveSpan(`relay.send ${txId}`, (span) => {
      rememberTxTrace(txId);
      then?.();
      span.end();
      return span.spanContext().traceId;
    });
  }

  const spanOf = (txId: string, stage: string) => exporter.getFinishedSpans().find((s) => s.name === `relay.stage.${stage}` && s.attributes['relay.tx_id'] === txId);

  it("a transaction's settlement recorded while another's job is active lands in its own trace, and its log lines carry its id", () => {
    const a = sendJob('A');
    let traceIdInLog: string | undefined;
    const b = sendJob('B', () => {
      // Inside B's job (the context a tracker pass scheduled by B inherits): A settles.
      runInTxTrace('A', () => {
        traceIdInLog = currentTraceId();
        stageSpan('settlement', Date.now(), {}, 'A');
      });
    });
    expect(a).not.toBe(b);
    expect(spanOf('A', 'settlement')?.spanContext().traceId).toBe(a);
    expect(traceIdInLog).toBe('tx-A');
    // The final status's log line comes after the settlement stage: it is still in A's trace (its OTel trace id in the line).
    expect(runInTxTrace('A', () => trace.getActiveSpan()?.spanContext().traceId)).toBe(a);
    forgetTxTrace('A');
    expect(runInTxTrace('A', () => trace.getActiveSpan())).toBeUndefined();
  });

  it('a detached pass has no active span: each stage it records goes to its transaction', () => {
    const c = sendJob('C');
    sendJob('D', () =>
      runDetached('track-1-0', () => {
        expect(trace.getActiveSpan()).toBeUndefined();
        expect(currentTraceId()).toBe('track-1-0');
        stageSpan('inclusion', Date.now(), {}, 'C');
      }),
    );
    expect(spanOf('C', 'inclusion')?.spanContext().traceId).toBe(c);
  });
});
