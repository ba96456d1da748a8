/** A real gate whose self-protection facts name a test data folder, socket and Hermes homes, with one session open. */
import type { Gate } from '../../../../ops/gate/gate.ts';
import type { TollgateConfigInput } from '../../../../ops/config/configSchema.ts';
import { openTestGate } from '../../../support/openTestGate.ts';

export interface FloorGateOptions {
  readonly data: string;
  readonly sock: string;
  readonly hermesHomes: readonly string[];
  readonly approvals: NonNullable<TollgateConfigInput['approvals']>;
}

export const openFloorGate = async (options: FloorGateOptions): Promise<Gate> => {
  const gate = await openTestGate({ config: {
    data: { dir: options.data }, server: { socket: options.sock, http: { enabled: true, port: 8787 } }, approvals: options.approvals,
    protection: { rules_files: ['AGENTS.md'], hermes_homes: [...options.hermesHomes], paths: [] },
  } });
  await gate.userMessage({ sessionId: 's', text: 'tidy the project' });
  return gate;
};
