/**
 * `npm run bench [-- --json]`: every speed figure of the spine, measured in this run, each beside its goal.
 * Baselines that depend on the machine (raw better-sqlite3 inserts at the same durability) run in the same
 * process right before the figure they anchor.
 */
import { warmUpCalls } from './benchDaemon.ts';
import { bareParse, decisionInProcess, decisionOverSocket } from './decisionBench.ts';
import { hermesPluginOverhead, shellHookLatency } from './hermesBench.ts';
import { appendThroughput, replayVerifyEventsPerSecond } from './ledgerBench.ts';
import { shellClassifyPerSecond } from './shellBench.ts';
import { round } from './stats.ts';

interface Goal { readonly key: string; readonly op: '<=' | '>='; readonly limit: number; readonly unit: string }

const goals: readonly Goal[] = [
  { key: 'decision_inproc_p50_us', op: '<=', limit: 50, unit: 'µs' },
  { key: 'decision_inproc_p99_us', op: '<=', limit: 500, unit: 'µs' },
  { key: 'decision_socket_p50_ms', op: '<=', limit: 1, unit: 'ms' },
  { key: 'decision_socket_p99_ms', op: '<=', limit: 5, unit: 'ms' },
  { key: 'append_ratio_vs_raw_sqlite', op: '>=', limit: 0.5, unit: '×' },
  { key: 'replay_verify_events_per_s', op: '>=', limit: 200_000, unit: '/s' },
  { key: 'shell_classify_per_s', op: '>=', limit: 20_000, unit: '/s' },
  { key: 'hermes_plugin_overhead_p50_ms', op: '<=', limit: 2, unit: 'ms' },
  { key: 'hermes_plugin_overhead_p99_ms', op: '<=', limit: 10, unit: 'ms' },
];

const json = process.argv.includes('--json');
const log = (line: string) => { if (!json) process.stderr.write(`${line}\n`); };

const figures: Record<string, number> = {};
log('measuring shell classification…');
figures['shell_classify_per_s'] = Math.round(await shellClassifyPerSecond());
log('measuring in-process decisions…');
const inproc = await decisionInProcess();
figures['decision_inproc_p50_us'] = round(inproc.p50_us);
figures['decision_inproc_p99_us'] = round(inproc.p99_us);
// The machine's own parse speed beside it, no goal: the same lines through the bare grammar (decisionBench.ts).
const parse = await bareParse();
figures['bare_parse_p50_us'] = round(parse.p50_us);
figures['decision_inproc_vs_bare_parse'] = round(inproc.p50_us / parse.p50_us);
log('measuring appends against raw better-sqlite3…');
const append = await appendThroughput({ events: 5_000, batch: 1 });
figures['append_ours_per_s'] = Math.round(append.ours_per_s);
figures['append_raw_sqlite_per_s'] = Math.round(append.raw_per_s);
figures['append_ratio_vs_raw_sqlite'] = round(append.ratio, 3);
log('measuring verify…');
figures['replay_verify_events_per_s'] = Math.round(await replayVerifyEventsPerSecond(200_000));
log('measuring decisions through the Unix socket (a daemon just started, then one that served the warm-up calls)…');
const socket = await decisionOverSocket();
figures['decision_socket_p50_ms'] = round(socket.p50_ms, 3);
figures['decision_socket_p99_ms'] = round(socket.p99_ms, 3);
// The same 2,000 calls once the daemon has served 3,000 (benchDaemon.ts): its steady state, shown without a goal.
const warm = await decisionOverSocket(2_000, warmUpCalls);
figures['decision_socket_warm_p50_ms'] = round(warm.p50_ms, 3);
figures['decision_socket_warm_p99_ms'] = round(warm.p99_ms, 3);
log('measuring the Hermes plugin path (python3 → plugin → socket → gate → append)…');
const plugin = await hermesPluginOverhead();
figures['hermes_plugin_overhead_p50_ms'] = round(plugin.p50_ms, 3);
figures['hermes_plugin_overhead_p99_ms'] = round(plugin.p99_ms, 3);
log('measuring the shell hook (one `tollgate hook --hermes` process per call)…');
const hook = await shellHookLatency();
figures['shell_hook_p50_ms'] = round(hook.p50_ms, 1);
figures['node_start_p50_ms'] = round(hook.node_start_p50_ms, 1);

if (json) {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} else {
  for (const [key, value] of Object.entries(figures)) {
    const goal = goals.find((g) => g.key === key);
    const met = goal === undefined ? '' : (goal.op === '<=' ? value <= goal.limit : value >= goal.limit) ? 'ok  ' : 'MISS';
    process.stdout.write(`${met.padEnd(5)}${key.padEnd(30)}${String(value).padStart(12)}${goal ? `   goal ${goal.op} ${goal.limit} ${goal.unit}` : ''}\n`);
  }
}
