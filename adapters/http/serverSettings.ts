/** The daemon server's knobs: from the gate's configuration, each overridable (tests shrink limits and timers). */
import type { TollgateConfig } from '../../ops/config/configSchema.ts';

export interface StreamOptions {
  /** Interval of the `: heartbeat` comment. @defaultValue 15_000 */
  readonly heartbeatMs?: number;
  /** The reconnection delay sent as `retry:`. @defaultValue 2_000 */
  readonly retryMs?: number;
  /** Bytes a live stream may queue for a client that is not reading; past this the client is disconnected. @defaultValue 1_048_576 */
  readonly maxQueuedBytes?: number;
  /** Events read per history page (history waits for `drain` between writes). @defaultValue 500 */
  readonly pageSize?: number;
}

export interface DaemonServerOptions {
  /** Reported by `GET /v1/health`. @defaultValue '0.0.0' */
  readonly version?: string;
  /** @defaultValue config.server.max_body_bytes */
  readonly maxBodyBytes?: number;
  /** @defaultValue config.server.decision_timeout (seconds) × 1000 */
  readonly decisionTimeoutMs?: number;
  /** Time a client has to send its whole body. @defaultValue 10_000 */
  readonly bodyTimeoutMs?: number;
  /** Longest long-poll of `GET /v1/approvals/:id/wait`. @defaultValue 600_000 */
  readonly maxWaitMs?: number;
  /** Long-poll length when `timeout_ms` is not given. @defaultValue 30_000 */
  readonly defaultWaitMs?: number;
  readonly stream?: StreamOptions;
  /** Called with one structured line per notable happening (a rejected request, a dropped stream); never raw text. */
  readonly log?: (entry: Readonly<Record<string, unknown>>) => void;
}

export interface ServerSettings {
  readonly version: string;
  readonly maxBodyBytes: number;
  readonly decisionTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly maxWaitMs: number;
  readonly defaultWaitMs: number;
  readonly stream: Required<StreamOptions>;
  readonly log: (entry: Readonly<Record<string, unknown>>) => void;
}

export const serverSettings = (config: TollgateConfig, options: DaemonServerOptions): ServerSettings => ({
  version: options.version ?? '0.0.0',
  maxBodyBytes: options.maxBodyBytes ?? config.server.max_body_bytes,
  decisionTimeoutMs: options.decisionTimeoutMs ?? config.server.decision_timeout * 1000,
  bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
  maxWaitMs: options.maxWaitMs ?? 600_000,
  defaultWaitMs: options.defaultWaitMs ?? 30_000,
  stream: {
    heartbeatMs: options.stream?.heartbeatMs ?? 15_000,
    retryMs: options.stream?.retryMs ?? 2_000,
    maxQueuedBytes: options.stream?.maxQueuedBytes ?? 1_048_576,
    pageSize: options.stream?.pageSize ?? 500,
  },
  log: options.log ?? (() => undefined),
});
