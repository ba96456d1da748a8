/**
 * Packet-filter and NAT rules that touch tollgate's HTTP port: `--to-ports 8787` sends another port's traffic to
 * the guard (a client that looks harmless then talks to it), `--dport 8787 -j REDIRECT --to-ports 9999` hands the
 * hooks' traffic to a listener the agent runs. Either way the rule mentions the port; a rule file the floor does
 * not read (`iptables-restore < f`, `nft -f f`) may mention it too.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** Programs that change packet filtering or NAT. */
export const packetFilters: ReadonlySet<string> = new Set([
  'iptables', 'ip6tables', 'iptables-nft', 'iptables-legacy', 'ip6tables-nft', 'ip6tables-legacy', 'iptables-restore', 'ip6tables-restore',
  'nft', 'firewall-cmd', 'ufw', 'pfctl',
]);

/** A command of theirs that only lists or checks (`iptables -t nat -L -n`, `nft list ruleset`, `ufw status`). */
const onlyLooks = (program: string, args: readonly string[]): boolean => {
  if (/^ip6?tables(?:-nft|-legacy)?$/.test(program)) return args.some((a) => /^-[a-zA-Z]*[LSC]|^--(?:list|list-rules|check)$/.test(a) && !/^--?[AIDRNXPF]$/.test(a));
  if (program === 'nft') return ['list', 'monitor', 'describe'].includes(args.find((a) => !a.startsWith('-')) ?? '');
  if (program === 'ufw') return ['status', 'show', 'version', 'app'].includes(args[0] ?? '');
  if (program === 'firewall-cmd') return args.every((a) => /^--(?:list|get|query|state|zone|permanent)/.test(a));
  return false;
};

/** Port numbers and ranges a word holds (`8787`, `:8787`, `127.0.0.1:8787`, `8000:9000`, `8000-9000`, `{ 8787, 22 }`). */
const portsIn = (word: string): { from: number; to: number }[] =>
  [...word.matchAll(/(?<![\d.])(\d{1,5})(?:[:-](\d{1,5}))?(?![\d.])/g)].map((m) => ({ from: Number(m[1]), to: Number(m[2] ?? m[1]) }));

/** The rule text that names tollgate's port, or reads rules from where the floor cannot see; null otherwise. */
export const redirectsGuardPort = (command: SimpleCommand, port: number | null): string | null => {
  const { program, args } = command;
  if (!packetFilters.has(program)) return null;
  if (onlyLooks(program, args)) return null;
  if (program.endsWith('-restore') || (program === 'nft' && args.some((a) => a === '-f' || a.startsWith('--file'))) || (program === 'pfctl' && args.includes('-f')))
    return `${program} rules read from a file`;
  const words = args.flatMap((a) => a.split(/\s+/));
  if (words.some((w) => /[$`]/.test(w))) return `${program} rule with a port filled in at run time`;
  if (port === null) return null;
  const hit = words.find((w) => portsIn(w).some((p) => p.from <= port && port <= p.to));
  return hit === undefined ? null : `${program} rule on port ${port} (${hit})`;
};

export const portRedirectExamples = {
  stops: ['iptables -t nat -A OUTPUT -p tcp --dport 9000 -j REDIRECT --to-ports 8787', 'iptables -t nat -I OUTPUT -p tcp --dport 8787 -j REDIRECT --to-ports 9999',
    'sudo iptables -t nat -A OUTPUT -p tcp -d 10.0.0.1 --dport 80 -j DNAT --to-destination 127.0.0.1:8787', 'ip6tables -t nat -A OUTPUT -p tcp --dport 8000:9000 -j REDIRECT --to-ports 1',
    "nft add rule ip nat output tcp dport 9000 redirect to :8787", "nft 'add rule ip nat output tcp dport 9000 redirect to :8787'", 'iptables-restore < /tmp/rules', 'nft -f /tmp/r.nft',
    'firewall-cmd --add-forward-port=port=9000:proto=tcp:toport=8787', 'iptables -A OUTPUT -p tcp --dport $P -j DROP'],
  allows: ['iptables -L -n', 'iptables -t nat -L', 'iptables -S', 'nft list ruleset', 'ufw status', 'iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
    'iptables -t nat -A PREROUTING -p tcp --dport 80 -j REDIRECT --to-ports 3000', 'ufw allow 443/tcp'],
};
