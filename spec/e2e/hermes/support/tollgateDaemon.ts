/**
 * A real `tollgate serve` in a test folder (its default sqlite ledger and payload store under `<dir>/data`), plus
 * read access to what it recorded: decoded ledger events and the raw text in the payload store.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openLedger } from '../../../../adapters/ledger/openLedger.ts';
import { decodeEvent } from '../../../../domain/events/codec.ts';
import type { TollgateEvent } from '../../../../domain/events/catalogue.ts';
import { hmacDigest } from '../../../../adapters/payloads/hmacDigest.ts';
import { requestOverSocket, type DaemonResponse } from '../../../support/httpClient.ts';
import { startDaemon } from '../../../support/runCli.ts';

export interface RecordedTollgateEvent { readonly position: number; readonly stream: string; readonly event: TollgateEvent }

export interface TollgateDaemon {
  readonly dir: string;
  readonly socket: string;
  readonly running: boolean;
  /** The daemon's process id. */
  readonly pid: number;
  /** SIGTERM and wait; a no-op once stopped. */
  stop(): Promise<void>;
  output(): string;
  request(method: string, path: string, body?: Readonly<Record<string, unknown>>): Promise<DaemonResponse>;
  /** Every event in the ledger, decoded (works while the daemon runs and after it stopped). */
  events(): Promise<RecordedTollgateEvent[]>;
  /** Raw text in the payload store for a reference, and whether its HMAC matches `digest`. */
  payload(ref: string): { readonly text: string | undefined; digestOf(text: string): string };
}

export const startTollgate = async (dir: string): Promise<TollgateDaemon> => {
  const daemon = await startDaemon([], dir);
  let running = true;
  const closed = new Promise<void>((done) => daemon.child.once('close', () => { running = false; done(); }));
  const socket = join(dir, 'data', 'tollgate.sock');
  return {
    dir,
    socket,
    get running() { return running; },
    pid: daemon.child.pid ?? -1,
    stop: async () => {
      if (running) daemon.child.kill('SIGTERM');
      await closed;
    },
    output: daemon.output,
    request: (method, path, body) => requestOverSocket(socket, method, path, body),
    events: async () => {
      const ledger = await openLedger(`sqlite:${join(dir, 'data', 'ledger.db')}`);
      try {
        return (await ledger.readAll()).map((record) => ({ position: record.position, stream: record.stream, event: decodeEvent(record) }));
      } finally {
        await ledger.close();
      }
    },
    payload: (ref) => {
      const storePath = join(dir, 'data', 'payloads.db');
      const keyPath = join(dir, 'data', 'keys', 'payload-hmac.key');
      let text: string | undefined;
      if (existsSync(storePath)) {
        const db = new Database(storePath, { readonly: true, fileMustExist: true });
        try { text = db.prepare<[string], string>('SELECT text FROM payloads WHERE ref = ?').pluck().get(ref); } finally { db.close(); }
      }
      const key = readFileSync(keyPath);
      return { text, digestOf: (candidate: string) => hmacDigest(key, candidate) };
    },
  };
};

/** The events of one type, with their data typed. */
export const ofType = <T extends TollgateEvent['type']>(events: readonly RecordedTollgateEvent[], type: T) =>
  events.filter((e) => e.event.type === type).map((e) => ({ ...e, data: e.event.data as Extract<TollgateEvent, { type: T }>['data'] }));
