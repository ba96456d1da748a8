/**
 * Filters of `GET /v1/stream`, from the query: `session`, `verdict`, `layer`, `tool`, `type`. Each takes one value,
 * a comma-separated list or repeated parameters; different filters must all match. `verdict` and `layer` keep
 * only decisions (ToolCallDecided, OutputChecked) with that verdict or layer; `session` and `tool` keep events
 * whose data names that session or tool.
 */
import { catalogue, type TollgateEvent } from '../../../domain/events/catalogue.ts';
import { layerNameSchema, verdictSchema } from '../../../domain/events/schemas.ts';
import { HttpProblem } from '../httpProblem.ts';

export interface StreamFilter {
  readonly sessions: ReadonlySet<string> | null;
  readonly verdicts: ReadonlySet<string> | null;
  readonly layers: ReadonlySet<string> | null;
  readonly tools: ReadonlySet<string> | null;
  readonly types: ReadonlySet<string> | null;
}

const eventTypes = new Set<string>(catalogue.map((t) => t.type));

const values = (query: URLSearchParams, key: string, allowed?: ReadonlySet<string>): ReadonlySet<string> | null => {
  const all = query.getAll(key).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (all.length === 0) return null;
  if (allowed) for (const v of all)
    if (!allowed.has(v)) throw new HttpProblem(400, 'invalid-query', `"${v.slice(0, 100)}" is not a known ${key}; use one of: ${[...allowed].join(', ')}.`, `query.${key}`);
  return new Set(all);
};

export const parseStreamFilter = (query: URLSearchParams): StreamFilter => ({
  sessions: values(query, 'session'),
  verdicts: values(query, 'verdict', new Set(verdictSchema.options)),
  layers: values(query, 'layer', new Set(layerNameSchema.options)),
  tools: values(query, 'tool'),
  types: values(query, 'type', eventTypes),
});

const field = (event: TollgateEvent, name: string): unknown => (event.data as Readonly<Record<string, unknown>>)[name];

export const matchesStreamFilter = (filter: StreamFilter, event: TollgateEvent): boolean => {
  if (filter.types && !filter.types.has(event.type)) return false;
  if (filter.sessions && !filter.sessions.has(field(event, 'sessionId') as string)) return false;
  if (filter.tools && !filter.tools.has(field(event, 'tool') as string)) return false;
  const decision = event.type === 'ToolCallDecided' || event.type === 'OutputChecked';
  if (filter.verdicts && !(decision && filter.verdicts.has(event.data.verdict))) return false;
  if (filter.layers && !(decision && filter.layers.has(event.data.layer))) return false;
  return true;
};
