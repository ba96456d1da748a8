/**
 * Retention: raw user text older than `retention.raw_text_days` is deleted from the payload store, and the
 * deletion is recorded as `RawTextPurged`. Idempotent (a second run finds nothing and records nothing); the
 * clock is injected; the ledger keeps every digest, so what was said stays provable without being kept.
 */
import type { Ledger } from '../../adapters/ledger/port.ts';
import type { PayloadStore } from '../../adapters/payloads/payloadStore.ts';
import { encodeEvent } from '../../domain/events/codec.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { cronScheduler, type ScheduledJob, type Scheduler } from './scheduler.ts';

export const retentionStream = 'ops-retention';

export const purgeRawText = async (
  payloads: PayloadStore, ledger: Ledger, now: Date, days: number,
): Promise<readonly string[]> => {
  const olderThan = new Date(now.getTime() - days * 86_400_000).toISOString();
  const refs = await payloads.purgeOlderThan(olderThan);
  if (refs.length > 0)
    await ledger.append(retentionStream, [encodeEvent({ type: 'RawTextPurged', data: { refs: [...refs], olderThan, at: now.toISOString() } })]);
  return refs;
};

export const startRetention = (
  runtime: { readonly payloads: PayloadStore; readonly ledger: Ledger },
  config: TollgateConfig,
  options: { readonly scheduler?: Scheduler; readonly clock?: () => Date } = {},
): ScheduledJob => (options.scheduler ?? cronScheduler)(config.retention.schedule, 'raw-text-retention', async () => {
  await purgeRawText(runtime.payloads, runtime.ledger, (options.clock ?? (() => new Date()))(), config.retention.raw_text_days);
});
