/**
 * Runtime registrations: the key each registered runtime signs its requests with (and the daemon its answers).
 * Kept in memory and, for a daemon with a data folder, in `<data.dir>/keys/runtime-registrations.json` (mode 0600)
 * so a daemon restart keeps them: a running Hermes keeps its key in memory only and must not lose its sessions.
 * The ledger records `RuntimeRegistered` without the key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { processGone, processStartTime } from './processLiveness.ts';

export interface Registration {
  readonly registrationId: string;
  readonly runtime: string;
  readonly pid: number | null;
  readonly pidStart: string | null;
  readonly key: Buffer;
  readonly at: string;
}

/** Registrations kept; the oldest are forgotten (their sessions then cannot be claimed: unknown counts as alive). */
const maxRegistrations = 1000;
/** Nonces remembered per registration, against replayed requests. */
const noncesKept = 4096;

/** The ledger stream of RuntimeRegistered and RegistrationDropped. */
export const registrationsStream = 'runtime-registrations';

/** What the ledger recorded of a registration (RuntimeRegistered). */
export interface RecordedRegistration {
  readonly runtime: string;
  readonly pid: number | null;
  readonly pidStart: string | null;
  readonly keyDigest?: string | undefined;
}

export const keyDigestOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex');

const registrationProblem = (stored: Registration, recorded: RecordedRegistration | undefined): string | null => {
  if (recorded === undefined) return 'the ledger has no RuntimeRegistered for it';
  if (recorded.keyDigest === undefined) return 'the ledger recorded no key digest for it (an older release); its runtime must register again';
  if (keyDigestOf(stored.key) !== recorded.keyDigest) return 'its key is not the one the daemon handed out';
  if (stored.runtime !== recorded.runtime || stored.pid !== recorded.pid || stored.pidStart !== recorded.pidStart)
    return 'its runtime or process differs from the one recorded';
  return null;
};

interface StoredRegistration { registrationId: string; runtime: string; pid: number | null; pidStart: string | null; key: string; at: string }

export class RuntimeRegistry {
  private readonly byId = new Map<string, Registration>();
  private readonly nonces = new Map<string, Set<string>>();

  private constructor(private readonly path: string | null) {}

  /** Opens the registry (path null: in memory only, for memory ledgers and tests). A damaged file is an error. */
  static open(path: string | null): RuntimeRegistry {
    const registry = new RuntimeRegistry(path);
    if (path === null) return registry;
    let text: string;
    try { text = readFileSync(path, 'utf8'); } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return registry;
      throw error;
    }
    let stored: StoredRegistration[] | undefined;
    try { stored = (JSON.parse(text) as { registrations?: StoredRegistration[] }).registrations; } catch (error) {
      throw new Error(`${path} is not valid JSON (${(error as Error).message}); move it aside to start without registrations (running runtimes then block until restarted)`);
    }
    if (!Array.isArray(stored)) throw new Error(`${path} holds no registrations list`);
    for (const r of stored) registry.byId.set(r.registrationId, { ...r, key: Buffer.from(r.key, 'base64') });
    return registry;
  }

  register(input: { readonly registrationId: string; readonly runtime: string; readonly pid: number | null; readonly at: string }): Registration {
    const registration: Registration = {
      ...input, pidStart: input.pid === null ? null : processStartTime(input.pid), key: randomBytes(32),
    };
    this.byId.set(registration.registrationId, registration);
    while (this.byId.size > maxRegistrations) this.byId.delete(this.byId.keys().next().value as string);
    this.save();
    return registration;
  }

  /**
   * Keeps only the stored registrations the ledger vouches for: a `RuntimeRegistered` with the same runtime, pid
   * and process start, and the digest of the same key. The file is writable by whoever can write the data folder;
   * the ledger is hash-chained, so a registration added or re-keyed in the file alone is dropped (and reported).
   */
  keepRecorded(recorded: ReadonlyMap<string, RecordedRegistration>): { registrationId: string; problem: string }[] {
    const dropped = this.unvouched(recorded);
    for (const d of dropped) this.byId.delete(d.registrationId);
    if (dropped.length > 0) this.save();
    return dropped;
  }

  /** The stored registrations the ledger does not vouch for, and why (nothing is changed: doctor asks this). */
  unvouched(recorded: ReadonlyMap<string, RecordedRegistration>): { registrationId: string; problem: string }[] {
    const out: { registrationId: string; problem: string }[] = [];
    for (const [id, r] of this.byId) {
      const problem = registrationProblem(r, recorded.get(id));
      if (problem !== null) out.push({ registrationId: id, problem });
    }
    return out;
  }

  get(registrationId: string): Registration | undefined {
    return this.byId.get(registrationId);
  }

  /**
   * Records a request nonce; false when this registration already used it (a replayed request). The last
   * `noncesKept` nonces of each registration are remembered, in memory only.
   */
  useNonce(registrationId: string, nonce: string): boolean {
    let seen = this.nonces.get(registrationId);
    if (seen === undefined) { seen = new Set(); this.nonces.set(registrationId, seen); }
    if (seen.has(nonce)) return false;
    seen.add(nonce);
    if (seen.size > noncesKept) seen.delete(seen.values().next().value as string);
    return true;
  }

  /** Whether the registration's process is known to be gone (unknown registrations and liveness count as alive). */
  isGone(registrationId: string): boolean {
    const r = this.byId.get(registrationId);
    return r !== undefined && processGone(r.pid, r.pidStart);
  }

  private save(): void {
    if (this.path === null) return;
    const registrations: StoredRegistration[] = [...this.byId.values()].map((r) => ({ ...r, key: r.key.toString('base64') }));
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, registrations })}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.path);
  }
}
