/** `tollgate serve`: the daemon. Unix socket by default (mode 0600); `--http` adds loopback HTTP with a bearer token. */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { createDaemonServer } from '../../../adapters/http/daemonServer.ts';
import { openRuntime } from '../../runtime/openRuntime.ts';
import { warmUpGate } from '../../runtime/warmUp.ts';
import { startRetention } from '../../jobs/retention.ts';
import { tollgateVersion } from '../../version.ts';
import { configPath } from '../../config/loadConfig.ts';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';

export const serveCommand = (): Command => new Command('serve')
  .description('Run the gate daemon on the embedded ledger (or the ledger.url of the configuration).')
  .option('--socket <path>', 'Unix socket path (default: server.socket)')
  .option('--http', 'also listen on loopback HTTP (server.http.host:port) with a bearer token')
  .addHelpText('after', '\nExample:\n  tollgate serve\n  tollgate -c tollgate.yaml serve --http')
  .action(async (options: { socket?: string; http?: boolean }, command: Command) => {
    const config = configFrom(command);
    // The configuration is recorded (ConfigLoaded) at every start, so a changed yolo shows in the ledger and in doctor.
    const path = configPath((command.parent ?? command).opts<{ config?: string }>().config);
    const runtime = await openRuntime(config, { expiryTimers: true, recordConfig: { path, version: tollgateVersion } });
    // Before listening: the first real calls then meet compiled code (ops/runtime/warmUp.ts). A warm-up that fails
    // only costs speed, so the daemon starts anyway and says why.
    const warmed = config.server.warm_up_calls === 0 ? 'warm-up off (server.warm_up_calls: 0)'
      : await warmUpGate(config, config.server.warm_up_calls, tollgateVersion)
        .then((w) => `warmed up: ${w.calls} made-up calls answered by a throwaway in-memory gate in ${Math.round(w.ms)} ms`)
        .catch((error: unknown) => `warm-up skipped: ${(error as Error).message}`);
    const server = createDaemonServer(runtime.gate, { version: tollgateVersion });
    const retention = startRetention(runtime, config);
    const socket = resolve(options.socket ?? config.server.socket);
    const lines = [`tollgate ${tollgateVersion} listening on unix socket ${socket} (mode ${config.server.socket_mode})`];
    try {
      await server.listenSocket(socket);
      if (config.server.human_socket !== null) {
        // The human channel: answers there are recorded as answered by human-socket (docs/architecture.md).
        const human = resolve(config.server.human_socket);
        await server.listenHumanSocket(human, config.server.human_group);
        lines.push(`human channel on unix socket ${human}${config.server.human_group === null ? ' (mode 0600: the daemon\'s user only)' : ` (group ${config.server.human_group}, mode 0660)`}`);
      }
      // Created 0600; a wider server.socket_mode lets a runtime of another user connect (install system).
      if (config.server.socket_mode !== '0600') chmodSync(socket, parseInt(config.server.socket_mode, 8));
      if (options.http || config.server.http.enabled) {
        const token = bearerToken(resolve(config.server.http.token_file));
        const bound = await server.listenHttp(config.server.http.host, config.server.http.port, token);
        lines.push(`tollgate listening on http://${bound.host}:${bound.port} (Authorization: Bearer <token in ${resolve(config.server.http.token_file)}>)`);
      }
    } catch (error) {
      // Nothing listens, so nothing may be left open: the ledger closes cleanly and the reason is the message.
      retention.stop();
      await server.close().catch(() => undefined);
      await runtime.close();
      throw error instanceof UsageError ? error : new UsageError((error as Error).message, 1);
    }
    lines.push(
      warmed,
      `ledger ${config.ledger.url} — head at position ${await runtime.ledger.headPosition()}; data in ${runtime.dataDir}`,
      `point a runtime at it: POST http://tollgate/v1/hooks/hermes/<hook> over the socket, e.g.`,
      `  curl --unix-socket ${socket} -X POST http://tollgate/v1/hooks/hermes/pre_tool_call -d '{"session_id":"s","tool_name":"terminal","args":{"command":"ls"}}'`,
      `watch decisions: tollgate tail   ·   answer questions: tollgate approvals / tollgate approve <id>   ·   check the ledger: tollgate verify`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    await new Promise<void>((done) => {
      const stop = () => done();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    retention.stop();
    await server.close();
    await runtime.close();
    process.stdout.write('tollgate stopped; ledger closed\n');
  });

/** Reads the HTTP bearer token, creating a random one (mode 0600) on first use; refuses a file others can read. */
const bearerToken = (path: string): string => {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  }
  if ((statSync(path).mode & 0o077) !== 0) throw new UsageError(`${path} is readable by other users; run chmod 600 ${path}`);
  const token = readFileSync(path, 'utf8').trim();
  if (token.length < 16) throw new UsageError(`${path} holds a token shorter than 16 characters`);
  return token;
};
