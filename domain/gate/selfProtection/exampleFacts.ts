/**
 * The machine the rule tables' examples are written for (their spec runs every example against these facts):
 * a project in /home/agent/project with tollgate's config and data folder in it, tollgate installed in
 * /opt/tollgate, two Hermes homes and a profile, AGENTS.md and SOUL.md protected, the daemon as pid 4242 with
 * HTTP on port 8787, running as the agent's own user (uid 1000) from the clone in /opt/tollgate.
 */
import type { ProtectionFacts } from './protectionFacts.ts';

export const exampleFacts: ProtectionFacts = {
  home: '/home/agent',
  hermesHome: '/home/agent/.hermes',
  hermesHomes: ['/home/agent/.hermes', '/home/agent/.hermes/profiles/work', '/srv/hermes-bot'],
  paths: [
    { path: '/home/agent/project/tollgate.yaml', kind: 'config' },
    { path: '/home/agent/project/data', kind: 'data' },
    { path: '/home/agent/project/data/keys', kind: 'secret' },
    { path: '/home/agent/project/data/http-token', kind: 'secret' },
    { path: '/home/agent/project/data/tollgate.sock', kind: 'socket' },
    { path: '/run/tollgate-human/human.sock', kind: 'socket' },
    { path: '/run/tollgate-human', kind: 'socket-dir' },
    { path: '/opt/tollgate/bin', kind: 'code' },
    { path: '/opt/tollgate/adapters', kind: 'code' },
    { path: '/etc/tollgate', kind: 'extra' },
  ],
  rulesFiles: ['AGENTS.md', 'SOUL.md'],
  pid: 4242,
  httpPort: 8787,
  uid: 1000,
  user: 'agent',
  codeRoot: '/opt/tollgate',
};
