/**
 * The hash chain shared by every adapter: each event's hash is the hex SHA-256 of the previous event's hash followed
 * by canonicalJson({ id, position, stream, revision, type, version, data, metadata, recordedAt }).
 */
import { hash } from 'node:crypto';
import type { VerifyReport } from './port.ts';
import type { StoredEvent } from './storedEvent.ts';

/** The prevHash of the event at position 1. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a hash covers; `data` and `metadata` are canonical JSON text. */
export type HashedFields = Omit<StoredEvent, 'prevHash' | 'hash'>;

/**
 * canonicalJson of the hashed fields, spelled out with the keys already in sorted order. Because `data` and
 * `metadata` are stored as canonical text, this equals canonicalJson of the decoded event (a spec checks that) and
 * costs no parse; a stored text edited into equivalent-but-different JSON still changes the hash.
 */
export const canonicalEventText = (e: HashedFields): string =>
  `{"data":${e.data},"id":${JSON.stringify(e.id)},"metadata":${e.metadata},"position":${e.position},` +
  `"recordedAt":${JSON.stringify(e.recordedAt)},"revision":${e.revision},"stream":${JSON.stringify(e.stream)},` +
  `"type":${JSON.stringify(e.type)},"version":${e.version}}`;

export const eventHash = (prevHash: string, e: HashedFields): string =>
  hash('sha256', prevHash + canonicalEventText(e), 'hex');

/** A checkpoint as verify compares it: where it points and whether its signature is ours. */
export interface CheckedCheckpoint {
  readonly position: number;
  readonly hash: string;
  readonly signatureValid: boolean;
  /** Why the signature does not hold, when it does not. */
  readonly signatureProblem?: string;
}

/** Walks stored events in global order, one push at a time, and stops at the first break. */
export interface ChainWalker {
  /** Checks one event; returns false once the chain is broken (later pushes are ignored). */
  push(row: StoredEvent): boolean;
  readonly broken: boolean;
  /** The verdict once every event up to `head` was pushed. */
  report(head: number): VerifyReport;
}

/** How each break of the chain is told, the same whichever walk found it. */
export const chainProblems = {
  missing: (expected: number, next: number) => `event at position ${expected} is missing: the next stored event has position ${next}`,
  order: (position: number, expected: number) => `event at position ${position} is out of order: expected position ${expected}`,
  link: (position: number) => `chain link broken at position ${position}: prevHash is not the hash of position ${position - 1}`,
  changed: (position: number) => `event at position ${position} was changed: its stored fields do not match its hash`,
};

export const chainWalker = (checkpoint?: CheckedCheckpoint): ChainWalker => {
  let expected = 1;
  let prevHash = GENESIS_HASH;
  let checked = 0;
  let hashAtCheckpoint: string | undefined;
  let bad: { position: number; problem: string } | undefined;
  const checkpointPosition = checkpoint?.position ?? 0;

  const push = (row: StoredEvent): boolean => {
    if (bad) return false;
    if (row.position !== expected) {
      bad = { position: expected, problem: row.position > expected ? chainProblems.missing(expected, row.position) : chainProblems.order(row.position, expected) };
      return false;
    }
    if (row.prevHash !== prevHash) {
      bad = { position: expected, problem: chainProblems.link(expected) };
      return false;
    }
    if (eventHash(prevHash, row) !== row.hash) {
      bad = { position: expected, problem: chainProblems.changed(expected) };
      return false;
    }
    if (expected === checkpointPosition) hashAtCheckpoint = row.hash;
    prevHash = row.hash;
    expected += 1;
    checked += 1;
    return true;
  };

  const report = (head: number): VerifyReport => chainReport({ checked, expected, bad, hashAtCheckpoint }, head, checkpoint);

  return {
    push,
    get broken() {
      return bad !== undefined;
    },
    report,
  };
};

/** Where a walk of the chain ended: events checked, the next position expected, the first break, the hash at the checkpoint. */
export interface ChainWalkState {
  readonly checked: number;
  readonly expected: number;
  readonly bad: { readonly position: number; readonly problem: string } | undefined;
  readonly hashAtCheckpoint: string | undefined;
}

/** The verdict on a walk that stopped at `state`, against the head and the signed checkpoint (the sequential and parallel walks share it). */
export const chainReport = ({ checked, expected, bad, hashAtCheckpoint }: ChainWalkState, head: number, checkpoint?: CheckedCheckpoint): VerifyReport => {
    const base = { checked, head, ...(checkpoint ? { checkpoint: publicPart(checkpoint) } : {}) };
    if (bad) return { ...base, ok: false, firstBadPosition: bad.position, problem: bad.problem };
    if (expected - 1 !== head)
      return { ...base, ok: false, firstBadPosition: expected, problem: `event at position ${expected} is missing: the ledger's head is ${head}` };
    if (!checkpoint) return { ...base, ok: true };
    if (!checkpoint.signatureValid)
      return { ...base, ok: false, problem: `the signed checkpoint cannot be trusted: ${checkpoint.signatureProblem ?? 'its signature is invalid'}` };
    if (head < checkpoint.position)
      return {
        ...base,
        ok: false,
        firstBadPosition: head + 1,
        problem: `events were cut off the end: the ledger ends at position ${head} but the signed checkpoint vouches for position ${checkpoint.position}`,
      };
    if (hashAtCheckpoint !== checkpoint.hash)
      return {
        ...base,
        ok: false,
        firstBadPosition: checkpoint.position,
        problem: `the chain was rewritten: the hash at position ${checkpoint.position} differs from the signed checkpoint`,
      };
    return { ...base, ok: true };
};

const publicPart = ({ position, hash: h, signatureValid }: CheckedCheckpoint) => ({ position, hash: h, signatureValid });
