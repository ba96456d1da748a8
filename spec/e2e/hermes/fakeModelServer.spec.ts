/** The fake OpenAI-compatible model on its own (no Hermes): both response modes, the script, the recording. */
import { expect } from 'chai';
import { startFakeModel, EXHAUSTED_TEXT, type FakeModel } from './support/fakeModelServer.ts';

const tools = [{ type: 'function', function: { name: 'terminal', parameters: { type: 'object' } } }];

const post = async (model: FakeModel, body: Record<string, unknown>) => {
  const response = await fetch(`${model.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
};

/** Folds an SSE chat-completions stream the way the OpenAI SDK does. */
const foldStream = (text: string) => {
  let content = '';
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  let finish: string | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const chunk = JSON.parse(line.slice(6)) as { choices: { delta: { content?: string | null; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[] };
    for (const choice of chunk.choices) {
      content += choice.delta.content ?? '';
      for (const call of choice.delta.tool_calls ?? []) {
        const slot = (calls[call.index] ??= { arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function.name) slot.name = call.function.name;
        slot.arguments += call.function.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
  }
  return { content, calls, finish, done: text.trimEnd().endsWith('data: [DONE]') };
};

describe('fake OpenAI-compatible model', () => {
  let model: FakeModel;
  afterEach(async () => { await model?.close(); });

  it('replays tool calls and text, streaming and not, and records what it received', async () => {
    model = await startFakeModel([
      { tool: 'terminal', args: { command: 'ls' }, id: 'call_one' },
      { text: 'streamed reply' },
      { calls: [{ tool: 'terminal', args: { command: 'a' } }, { tool: 'terminal', args: { command: 'b' } }] },
    ]);
    const first = await post(model, { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], tools });
    expect(first.type).to.contain('application/json');
    const message = (JSON.parse(first.text) as { choices: { message: { tool_calls: { id: string; function: { name: string; arguments: string } }[] }; finish_reason: string }[] }).choices[0]!;
    expect(message.finish_reason).to.equal('tool_calls');
    expect(message.message.tool_calls[0]).to.deep.include({ id: 'call_one' });
    expect(JSON.parse(message.message.tool_calls[0]!.function.arguments)).to.deep.equal({ command: 'ls' });

    const second = await post(model, {
      stream: true, model: 'fake-model', tools,
      messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_one', content: '{"output": "x"}' }],
    });
    expect(second.type).to.contain('text/event-stream');
    expect(foldStream(second.text)).to.deep.equal({ content: 'streamed reply', calls: [], finish: 'stop', done: true });

    const third = foldStream((await post(model, { stream: true, model: 'fake-model', tools, messages: [] })).text);
    expect(third.calls.map((c) => [c.name, JSON.parse(c.arguments)])).to.deep.equal([['terminal', { command: 'a' }], ['terminal', { command: 'b' }]]);
    expect(third.finish).to.equal('tool_calls');

    expect(model.toolResults()).to.deep.equal([{ toolCallId: 'call_one', content: '{"output": "x"}' }]);
    expect(model.requests.map((r) => [r.turn, r.stream])).to.deep.equal([[0, false], [1, true], [2, true]]);
  });

  it('answers requests without tools aside, and a spent script with a fixed text', async () => {
    model = await startFakeModel([{ text: 'only turn' }]);
    const aside = JSON.parse((await post(model, { model: 'fake-model', messages: [] })).text) as { choices: { message: { content: string } }[] };
    expect(aside.choices[0]!.message.content).to.equal('fake title');
    await post(model, { model: 'fake-model', messages: [], tools });
    const spent = JSON.parse((await post(model, { model: 'fake-model', messages: [], tools })).text) as { choices: { message: { content: string } }[] };
    expect(spent.choices[0]!.message.content).to.equal(EXHAUSTED_TEXT);
    expect(model.served).to.equal(2);
    const models = await (await fetch(`${model.baseUrl}/models`)).json() as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).to.deep.equal(['fake-model']);
  });

  it('runs a turn\'s before() first, and turns its failure into HTTP 500', async () => {
    const order: string[] = [];
    model = await startFakeModel([
      { text: 'after before', before: async () => { order.push('before'); } },
      { text: 'never', before: () => { throw new Error('boom'); } },
    ]);
    await post(model, { model: 'fake-model', messages: [], tools });
    order.push('answered');
    const failed = await post(model, { model: 'fake-model', messages: [], tools });
    expect(order).to.deep.equal(['before', 'answered']);
    expect(failed.status).to.equal(500);
    expect(model.failures.map((e) => e.message)).to.deep.equal(['boom']);
  });
});
