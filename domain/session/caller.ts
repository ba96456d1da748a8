/**
 * Who is asking, as the channel proved it (never as the request body claims). The HTTP layer decides the caller
 * from the listener and the request's registration MAC; the command carries it so `decide` can check it and replay
 * re-derives the same refusals.
 *
 * - `runtime`: a hook on the runtime socket. `registrationId` is set only when the request was signed with a key
 *   the daemon handed out at `POST /v1/runtime/register`; null is an anonymous caller (shell hooks, curl, scripts).
 * - `human`: the human channel (`server.human_socket`), named by its channel.
 * - `in-process`: eval and tests, which run the gate in their own process (trusted).
 */
import { z } from 'zod';

export const callerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('runtime'), registrationId: z.string().min(1).nullable() }),
  z.object({ kind: z.literal('human'), channel: z.string().min(1) }),
  z.object({ kind: z.literal('in-process') }),
]);
export type Caller = z.infer<typeof callerSchema>;

export const inProcessCaller: Caller = { kind: 'in-process' };
export const anonymousRuntime: Caller = { kind: 'runtime', registrationId: null };
export const registeredRuntime = (registrationId: string): Caller => ({ kind: 'runtime', registrationId });
export const humanCaller = (channel: string): Caller => ({ kind: 'human', channel });

/** The owner a session opened by this caller gets: its registration, or null (anonymous). */
export const principalOf = (caller: Caller): string | null => (caller.kind === 'runtime' ? caller.registrationId : null);

/** A caller as recorded in refusals. */
export const describeCaller = (caller: Caller): string =>
  caller.kind === 'runtime' ? (caller.registrationId === null ? 'runtime:anonymous' : `runtime:${caller.registrationId}`)
    : caller.kind === 'human' ? `human:${caller.channel}` : 'in-process';
