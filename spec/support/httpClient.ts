/** The daemon client for specs, the CLI's tests and the bench: re-exported from the adapter that ships it. */
export {
  openEventStream, requestDaemon, requestOverSocket,
  type DaemonResponse, type DaemonTarget, type EventStreamHandle, type RequestBody,
} from '../../adapters/http/socketClient.ts';
export type { SseMessage } from '../../adapters/http/sse/sseParser.ts';
