// The protocol traffic viewer in the real extension (code-server): the conductor streams its trace
// to the extension over its fd-3 pipe, and "Symposium: Show Protocol Traffic" shows a tab's
// session in a webview panel. What the page rendered is read back (symposium.test.getTrafficRendered).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RenderedTrafficRow } from '../../protocol/traffic';
import { cmd, expectedReply, openChat, screenshot, waitFor, waitForIdle } from '../helpers';

interface Rendered {
  filter: string;
  rows: RenderedTrafficRow[];
}

// A first webview panel can take seconds to load in a fresh host (the fresh-clone CI run took over 2 s).
const rendered = (until?: string): Thenable<Rendered | undefined> => cmd<Rendered | undefined>('getTrafficRendered', until, 20_000);

/** The text of the agent_message_chunk updates a row list shows at one hop, in order. */
function chunkText(rows: RenderedTrafficRow[], hop: string): string {
  return rows
    .filter((r) => r.hop === hop && r.method === 'session/update')
    .map((r) => JSON.parse(r.payload) as { params: { update: { sessionUpdate: string; content?: { text?: string }; _meta?: unknown } } })
    .filter((m) => m.params.update.sessionUpdate === 'agent_message_chunk' && m.params.update._meta === undefined)
    .map((m) => m.params.update.content?.text ?? '')
    .join('');
}

suite('protocol traffic viewer', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test("a prompt's messages appear at every hop, in order, paired, with the MCP token masked; the view follows live; Save trace writes them", async () => {
    const tabId = await cmd<string>('simulateNewTab');
    await cmd('sendPrompt', tabId, 'I wonder what the conductor says');
    await waitForIdle(tabId);
    await vscode.commands.executeCommand('symposium.showProtocolTraffic', tabId);
    // The trace reaches the extension on its own pipe and may trail the protocol a little: the view
    // can first show only Sparkle's embodiment prompt. Wait until it shows the user's prompt
    // answered at the last hop; then check all of it.
    let view: Rendered | undefined;
    await waitFor(
      "the prompt's answer to the editor, in the view",
      async () =>
        (view = await rendered('session/prompt'))?.rows.some(
          (r) => r.method === 'session/prompt' && r.kind === 'response' && r.hop === 'editor-edge → editor',
        ) ?? false,
      20_000,
    );
    assert.ok(view, 'the viewer rendered');
    const rows = view.rows;
    const index = (pred: (r: RenderedTrafficRow) => boolean, from = 0): number => rows.findIndex((r, i) => i >= from && pred(r));
    const prompt = (kind: string, hop: string) => (r: RenderedTrafficRow) =>
      r.method === 'session/prompt' && r.kind === kind && r.hop === hop;

    // editor ↔ conductor, every component ↔ the next, conductor ↔ agent, in the order they happened.
    const asked = index(prompt('request', 'editor → editor-edge'));
    const toAgent = index(prompt('request', 'agent-edge → agent'), asked);
    const update = index((r) => r.method === 'session/update' && r.hop === 'agent → agent-edge', toAgent);
    const agentAnswered = index(prompt('response', 'agent → agent-edge'), update);
    const answered = index(prompt('response', 'editor-edge → editor'), agentAnswered);
    assert.ok(
      asked >= 0 && toAgent > asked && update > toAgent && agentAnswered > update && answered > agentAnswered,
      JSON.stringify(rows.map((r) => `${r.kind} ${r.method} ${r.hop}`)),
    );
    const requestHops = rows.filter((r) => r.method === 'session/prompt' && r.kind === 'request').map((r) => r.hop);
    assert.ok(requestHops.length >= 4, `the prompt crossed every component: ${requestHops.join(', ')}`);
    assert.match(rows[answered]!.duration ?? '', /^\d+ ms$/, 'the response is paired with its request');
    assert.equal(chunkText(rows, 'editor-edge → editor'), expectedReply('I wonder what the conductor says'));

    // The injected MCP servers' bearer tokens are masked wherever they appear.
    const sessionNew = rows.find((r) => r.method === 'session/new' && r.kind === 'request' && r.hop === 'agent-edge → agent');
    assert.ok(
      sessionNew,
      `the session/new that created the session is shown; the view's first rows: ${JSON.stringify(rows.slice(0, 40).map((r) => `${r.seq} ${r.kind} ${r.method} ${r.hop}`))}`,
    );
    assert.match(sessionNew.payload, /"Bearer \[redacted\]"/);
    assert.ok(!rows.some((r) => /Bearer [0-9a-f]{16,}/.test(r.payload)), 'no bearer token in the view');

    // Live: a new prompt shows up without reopening.
    await cmd('sendPrompt', tabId, 'And now live');
    await waitForIdle(tabId);
    await waitFor('the live prompt', async () => ((await rendered())?.rows ?? []).some((r) => r.payload.includes('And now live')));

    await screenshot('traffic-viewer');

    // The filter.
    await cmd('setTrafficFilter', 'prompt agent-edge');
    await waitFor('the filtered view', async () => (await rendered())?.filter === 'prompt agent-edge');
    const filtered = (await rendered())!.rows;
    assert.ok(filtered.length > 0 && filtered.every((r) => r.method === 'session/prompt' && r.hop.includes('agent-edge')));

    // Save trace: the session's messages as JSON lines, tokens masked.
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-trace-')), 'trace.jsonl');
    await vscode.commands.executeCommand('symposium.saveProtocolTrace', tabId, vscode.Uri.file(target));
    const saved = fs
      .readFileSync(target, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { from: string; to: string; message: { method?: string } });
    assert.ok(saved.some((l) => l.message.method === 'session/prompt' && l.from === 'editor'));
    assert.ok(saved.length >= rows.length, 'every message of the session');
    assert.ok(!/Bearer [0-9a-f]{16,}/.test(fs.readFileSync(target, 'utf8')), 'no bearer token in the file');
  });
});
