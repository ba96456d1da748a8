/** `tollgate tail`: decisions as the daemon records them, live, with filters; reconnects where it left off. */
import { Command } from 'commander';
import { openEventStream } from '../../../adapters/http/socketClient.ts';
import { visibleJsonText, visibleText } from '../../../domain/encoding/visibleText.mjs';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { catalogue } from '../../../domain/events/catalogue.ts';
import { describeEvent } from '../describeEvent.ts';
import { socketOf, unreachable } from './daemonTarget.ts';

interface TailOptions { session?: string; verdict?: string; layer?: string; tool?: string; type?: string; after?: string; json?: boolean; socket?: string }

export const tailCommand = (): Command => new Command('tail')
  .description('Follow decisions live from the running daemon.')
  .option('--session <id>', 'only this session')
  .option('--verdict <verdict>', 'only allow, ask or block decisions')
  .option('--layer <layer>', 'only decisions of this layer (hardline, approvals, parse, session, …)')
  .option('--tool <name>', 'only calls of this tool')
  .option('--type <event-type>', 'only this event type')
  .option('--after <position>', 'start after this ledger position instead of now')
  .option('--json', 'one JSON object per event')
  .option('--socket <path>', 'daemon socket (default: server.socket)')
  .action(async (options: TailOptions, command: Command) => {
    const socket = socketOf(command, options.socket);
    const query = new URLSearchParams();
    for (const key of ['session', 'verdict', 'layer', 'tool', 'type', 'after'] as const) if (options[key]) query.set(key, options[key]!);
    let lastId: string | undefined;
    const stop = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    for (;;) {
      const stream = openEventStream({ socketPath: socket }, `/v1/stream?${query}`, {
        ...(lastId === undefined ? {} : { lastEventId: lastId }),
        onMessage: (message) => {
          if (message.id) lastId = message.id;
          print(message.event, message.data, options.json === true);
        },
      });
      const ended = await Promise.race([stream.done.then(() => 'ended' as const, (error: unknown) => error), stop.then(() => 'stop' as const)]);
      if (ended === 'stop') { stream.close(); return; }
      if (ended !== 'ended' && lastId === undefined) throw unreachable(socket, ended);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });

const versions = new Map<string, number>(catalogue.map((t) => [t.type, t.version]));

const print = (type: string, data: string, json: boolean): void => {
  if (type === 'caught-up') { if (!json) process.stderr.write('— live —\n'); return; }
  // The daemon's stream is already escaped; this is the second line, for a stream from anything else on the socket.
  if (json) { process.stdout.write(`${visibleJsonText(data)}\n`); return; }
  try {
    const body = JSON.parse(data) as { position: number; stream: string; recordedAt: string; type: string; data: unknown };
    const event = decodeEvent({ type: body.type, version: versions.get(body.type) ?? 1, data: body.data, position: body.position });
    process.stdout.write(`${describeEvent({ position: body.position, stream: body.stream, recordedAt: body.recordedAt, event })}\n`);
  } catch {
    process.stdout.write(`${visibleText(type)} ${visibleText(data)}\n`);
  }
};
