// The `sparkle` MCP server through a real MCP client (in-memory transport): upstream's tool names
// and parameters, each tool's effect on disk, structured results, and refusals as `isError`.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createLogger } from '../../log';
import { SparkleHome } from './homeStore';
import { createSparkleServer } from './tools';
import { SparkleSpace } from './workspaceStore';

interface Setup {
  client: Client;
  home: SparkleHome;
  ws: string;
}

async function connect(mode: 'full' | 'core'): Promise<Setup> {
  const root = mkdtempSync(join(tmpdir(), 'sparkle-tools-'));
  const home = new SparkleHome(join(root, 'home', '.sparkle'));
  const ws = join(root, 'ws');
  let current = 'Sparkle';
  const server = createSparkleServer({
    home,
    space: mode === 'full' ? new SparkleSpace(ws) : undefined,
    log: createLogger('off'),
    sessionSparkler: async () => current,
    renamed: (from, to) => {
      if (current === from) current = to;
    },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, home, ws };
}

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
const call = async (s: Setup, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> =>
  (await s.client.callTool({ name, arguments: args })) as ToolResult;
const text = (r: ToolResult): string => r.content.map((c) => c.text ?? '').join('\n');

describe('sparkle MCP tools', () => {
  it("lists upstream's tools (no embody_sparkle: the component embodies); core mode has no session_checkpoint", async () => {
    const full = await connect('full');
    const names = (await full.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      'create_sparkler',
      'fetch_profile_data',
      'list_sparklers',
      'load_evolution',
      'rename_sparkler',
      'save_insight',
      'session_checkpoint',
      'setup_sparkle',
      'update_collaborator_profile',
      'update_sparkler_identity',
    ]);
    const core = await connect('core');
    assert.ok(!(await core.client.listTools()).tools.some((t) => t.name === 'session_checkpoint'));
  });

  it('session_checkpoint takes an object or a string holding JSON, and refuses other strings', async () => {
    const s = await connect('full');
    const r = await call(s, 'session_checkpoint', { working_memory: '{"focus":"x"}', checkpoint_content: 'Done for today.' });
    assert.equal(r.isError, undefined, text(r));
    assert.deepEqual(JSON.parse(readFileSync(join(s.ws, '.sparkle-space', 'working-memory.json'), 'utf8')), { focus: 'x' });
    assert.equal(r.structuredContent!.workingMemoryPath, join(s.ws, '.sparkle-space', 'working-memory.json'));
    assert.ok(existsSync(r.structuredContent!.checkpointPath as string));
    const o = await call(s, 'session_checkpoint', { working_memory: { focus: 'y' }, checkpoint_content: 'More.' });
    assert.equal(o.isError, undefined, text(o));
    const bad = await call(s, 'session_checkpoint', { working_memory: 'not json', checkpoint_content: 'x' });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /working_memory must be a JSON object or a string holding JSON/);
  });

  it('save_insight: sparkler files under the home store, WorkspaceInsight in .sparkle-space (full) or the home store (core)', async () => {
    const s = await connect('full');
    const r = await call(s, 'save_insight', { insight_type: 'PatternAnchor', content: 'Exactly these words.', tags: ['t'] });
    assert.equal(r.structuredContent!.path, join(s.home.dir, 'pattern-anchors.md'));
    assert.match(readFileSync(join(s.home.dir, 'pattern-anchors.md'), 'utf8'), /Exactly these words\.\n\n\*\*Tags\*\*: t/);
    const w = await call(s, 'save_insight', { insight_type: 'WorkspaceInsight', content: 'db/ is generated' });
    assert.equal(w.structuredContent!.path, join(s.ws, '.sparkle-space', 'workspace-map.md'));
    const core = await connect('core');
    const c = await call(core, 'save_insight', { insight_type: 'WorkspaceInsight', content: 'db/ is generated' });
    assert.equal(c.structuredContent!.path, join(core.home.dir, 'workspace-map.md'));
    assert.equal(existsSync(join(core.ws, '.sparkle-space')), false);
  });

  for (const [args, why] of [
    [{ insight_type: 'Gossip', content: 'x' }, /unknown insight_type "Gossip"/],
    [{ insight_type: '../PatternAnchor', content: 'x' }, /path separator|"\.\."/],
    [{ insight_type: 'PatternAnchor', content: 'x', sparkler: '../../etc' }, /sparkler .*path separator/],
    [{ insight_type: 'PatternAnchor', content: 'x', sparkler: '' }, /sparkler is empty/],
    [
      { insight_type: 'PatternAnchor', content: 'x', sparkler: 'Nova\u202egpj.exe' },
      /sparkler "Nova\?gpj\.exe" contains an invisible.*U\+202E/,
    ],
    [{ insight_type: 'PatternAnchor', content: 'x', sparkler: 'Spar\u200bkle' }, /sparkler "Spar\?kle" contains an invisible.*U\+200B/],
    [{ insight_type: 'PatternAnchor', content: '   ' }, /content is empty/],
  ] as const) {
    it(`save_insight ${JSON.stringify(args).slice(0, 70)} is refused as an MCP error saying why`, async () => {
      const s = await connect('full');
      const r = await call(s, 'save_insight', args);
      assert.equal(r.isError, true);
      assert.match(text(r), why);
    });
  }

  it('create, list, rename, identity, profile, setup, load_evolution through the tools', async () => {
    const s = await connect('full');
    assert.match(text(await call(s, 'create_sparkler', { name: 'Nova' })), /Created sparkler Nova/);
    const list = await call(s, 'list_sparklers');
    assert.match(text(list), /- Sparkle \(default\)\n- Nova/);
    assert.equal(list.structuredContent!.count, 2);
    assert.match(text(await call(s, 'create_sparkler', { name: 'a/b' })), /path separator/);
    // Looks like "Sparkle" (a zero-width space) or reads backwards (a bidi override): refused, nothing made.
    assert.match(text(await call(s, 'create_sparkler', { name: 'Spar\u200bkle' })), /invisible.*U\+200B/);
    assert.match(text(await call(s, 'create_sparkler', { name: '\u202eelkrapS' })), /invisible.*U\+202E/);
    assert.match(text(await call(s, 'rename_sparkler', { new_name: 'Spark' })), /Renamed Sparkle to Spark/);
    const id = await call(s, 'update_sparkler_identity', { content: '# Spark\n' });
    assert.equal(
      id.structuredContent!.path,
      join(s.home.dir, 'sparklers', 'Spark', 'sparkler-identity.md'),
      'the session follows its renamed sparkler',
    );
    const p = await call(s, 'update_collaborator_profile', { content: '# Ada\n' });
    assert.ok(p.structuredContent!.backup, 'the first-run profile was kept as a backup');
    assert.match(text(await call(s, 'setup_sparkle', { name: 'Ada' })), /set up for Ada/);
    const ev = await call(s, 'load_evolution', { sparkler: 'Nova' });
    assert.equal(ev.structuredContent!.count, 2);
    assert.deepEqual(readdirSync(join(s.home.dir, 'sparklers')).sort(), ['Nova', 'Spark']);
  });

  it('fetch_profile_data fails at once: no network', async () => {
    const s = await connect('core');
    const r = await call(s, 'fetch_profile_data', { profile_sources: [{ type: 'github', value: 'someone' }] });
    assert.equal(r.isError, true);
    assert.match(text(r), /never uses the network/);
  });
});
