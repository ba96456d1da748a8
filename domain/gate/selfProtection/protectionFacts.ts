/**
 * What the self-protection floor needs to know about this machine, computed once when the gate opens
 * (ops/gate/protectedState.ts) and recorded in every ProposeToolCall, so replay needs no file system.
 * Kept small: a Hermes home is one entry; the files inside it that are protected are known to the domain.
 */
import { z } from 'zod';

export const protectedKinds = [
  /** tollgate's configuration file (the one loaded, or the ones the next start would load). */
  'config',
  /** The data folder: ledger, payloads, checkpoints, projections. */
  'data',
  /** Keys and token files: not even read. */
  'secret',
  /** A socket tollgate listens on: no client may connect to it from the agent's tools. */
  'socket',
  /** The folder holding a socket (a fake daemon could be bound there). */
  'socket-dir',
  /** The code that runs tollgate or talks to it: the clone's bin/ and adapters/, an installed package. */
  'code',
  /** Paths the configuration adds (`protection.paths`). */
  'extra',
] as const;
export type ProtectedKind = (typeof protectedKinds)[number];

export const protectionFactsSchema = z.object({
  /** The agent user's home ('~', $HOME); null when unknown. */
  home: z.string().nullable(),
  /** $HERMES_HOME as the agent sees it; null when unset. */
  hermesHome: z.string().nullable(),
  /** Every Hermes home: $HERMES_HOME, ~/.hermes, its profiles, `protection.hermes_homes`. */
  hermesHomes: z.array(z.string()),
  /** Absolute, normalised paths; a path protects itself and everything below it. */
  paths: z.array(z.object({ path: z.string(), kind: z.enum(protectedKinds) })),
  /** File names protected in every folder (`protection.rules_files`, e.g. AGENTS.md). */
  rulesFiles: z.array(z.string()),
  /** The daemon's process id, and its loopback HTTP port when HTTP is enabled. */
  pid: z.number().int().nullable(),
  httpPort: z.number().int().nullable(),
  /** The daemon's user id and name (`pkill -u` of that user reaches it); absent in older ledgers. */
  uid: z.number().int().nullable().optional(),
  user: z.string().nullable().optional(),
  /** The folder tollgate's code runs from (a clone or the installed package): `npm start` there serves it. */
  codeRoot: z.string().nullable().optional(),
});
export type ProtectionFacts = z.infer<typeof protectionFactsSchema>;

/** Nothing known about the machine: the floor still applies its name-based rules (~/.hermes, tollgate commands). */
export const noProtectionFacts: ProtectionFacts = {
  home: null, hermesHome: null, hermesHomes: [], paths: [], rulesFiles: [], pid: null, httpPort: null,
};
