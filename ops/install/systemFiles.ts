/** The text of what `tollgate install system` writes: configuration, systemd unit, tmpfiles.d entry. */
import { parseDocument } from 'yaml';
import { configSchema } from '../config/configSchema.ts';
import { parseConfig } from '../config/loadConfig.ts';
import { joinWords } from './shellWords.ts';
import type { SystemLayout } from './systemLayout.ts';

export const writtenBy = '# written by tollgate install system';

/** The runtime socket's mode: any local user may connect (Hermes runs as the agent's user); it serves hooks and reads only. */
export const runtimeSocketMode = '0666';

/** Keys the configuration schema knows, so the install writes no key this tollgate's daemon would refuse. */
const schemaAccepts = (server: Record<string, unknown>): boolean => configSchema.safeParse({ server }).success;

/** The settings the layout fixes, as [path, value] pairs. */
export const requiredSettings = (layout: SystemLayout): [string[], unknown][] => [
  [['ledger', 'url'], `sqlite:${layout.stateDir}/ledger.db`],
  [['data', 'dir'], layout.stateDir],
  [['server', 'socket'], layout.socket],
  ...(schemaAccepts({ socket_mode: runtimeSocketMode }) ? [[['server', 'socket_mode'], runtimeSocketMode] as [string[], unknown]] : []),
  ...(schemaAccepts({ human_socket: layout.humanSocket }) ? [[['server', 'human_socket'], layout.humanSocket] as [string[], unknown]] : []),
  ...(schemaAccepts({ human_group: layout.approverGroup }) ? [[['server', 'human_group'], layout.approverGroup] as [string[], unknown]] : []),
  [['server', 'http', 'token_file'], `${layout.stateDir}/http-token`],
];

/**
 * The configuration: a new file with the layout's settings, or the existing one with only those keys set (comments
 * and every other setting kept). Refuses a result the daemon would not accept.
 */
export const configText = (layout: SystemLayout, existing: string | null): string => {
  const doc = parseDocument(existing ?? `${writtenBy}; every other setting has its default (README, "Configuration")\n`);
  if (doc.errors.length > 0) throw new Error(`${layout.configFile} is not valid YAML, so it is left as it is: ${doc.errors[0]!.message.split('\n')[0]}`);
  for (const [path, value] of requiredSettings(layout)) if (doc.getIn(path) !== value) doc.setIn(path, value);
  const text = doc.toString();
  parseConfig(parseDocument(text).toJS(), layout.configFile);
  return text;
};

export const unitText = (layout: SystemLayout, node: string): string => `${writtenBy}
[Unit]
Description=tollgate, the guard between an AI agent and the world
After=network.target

[Service]
Type=simple
User=${layout.user}
Group=${layout.group}
# The /run folders (tmpfs) come back after a reboot with their owners and modes.
ExecStartPre=+/usr/bin/systemd-tmpfiles --create ${layout.tmpfilesFile}
ExecStart=${joinWords([node, `${layout.codeDir}/bin/tollgate.mjs`, '-c', layout.configFile, 'serve'])}
Restart=on-failure
UMask=0077
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectControlGroups=yes
ReadWritePaths=${layout.stateDir} ${layout.runDir}

[Install]
WantedBy=multi-user.target
`;

export const tmpfilesText = (layout: SystemLayout): string => `${writtenBy}
d ${layout.runDir} 0755 ${layout.user} ${layout.group} -
d ${layout.humanDir} 0750 ${layout.user} ${layout.approverGroup} -
`;
