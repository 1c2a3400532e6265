// rust_crate_query end to end: the conductor (crate-sources component) in front of ElizACP, both
// real processes. The user's session calls the tool; ElizACP, seeing a research session, calls
// get_rust_crate_source, reads Cargo.toml from checkout_path and answers through
// return_response_to_user; the user's tool result carries that answer.
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import { conductorArgs, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const serdeVersion = readdirSync('/usr/share/cargo/registry')
  .find((d) => d.startsWith('serde-'))!
  .slice('serde-'.length);

describe('crate sources through the conductor (real processes)', function () {
  this.timeout(30000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  function start(permissions: acp.RequestPermissionRequest[], reads: string[]): Harness {
    return startProcess(
      conductorArgs({ components: ['crate-sources'] }),
      {
        permission: async (p) => (permissions.push(p), { outcome: { outcome: 'selected', optionId: 'reject-once' } }),
        readTextFile: async (p) => (reads.push(p.path), { content: 'editor content' }),
      },
      {
        // No network in tests: an unreachable index, so serde comes from Debian's system tree.
        SYMPOSIUM_CRATES_INDEX_URL: 'http://127.0.0.1:9/index',
        SYMPOSIUM_CRATE_CACHE: tempDir('symposium-cache-'),
        CARGO_HOME: tempDir('symposium-cargo-'),
      },
    );
  }

  it('researches a crate in a separate session and returns the findings as the tool result', async () => {
    const permissions: acp.RequestPermissionRequest[] = [];
    const reads: string[] = [];
    h = start(permissions, reads);
    await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
    const sessionId = await newSession(h, tempDir());
    const listed = await prompt(h, sessionId, 'list tools from rust-crate-sources');
    assert.match(listed.text, /rust_crate_query/);
    const query = JSON.stringify({
      crate_name: 'serde',
      crate_version: '1',
      prompt: 'What is this crate for? Read the manifest with permission.',
    });
    const r = await prompt(h, sessionId, `use tool rust-crate-sources::rust_crate_query with ${query}`);
    assert.equal(r.stopReason, 'end_turn');
    assert.match(
      r.text,
      new RegExp(`Research on serde ${serdeVersion.replace(/\./g, '\\.')}: A generic serialization/deserialization framework`),
    );
    // The research session's permission request was approved by the component, not the user.
    assert.match(r.text, /permission: allow-once/);
    assert.equal(permissions.length, 0, 'the editor was not asked');
    // Its file read was served by the component, confined to the crate sources.
    assert.deepEqual(reads, []);
    // Research traffic never reached the user's chat.
    assert.deepEqual([...new Set(h.updates.map((u) => u.sessionId))], [sessionId]);
  });

  it('runs several research sessions at once', async () => {
    h = start([], []);
    await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
    const [a, b] = [await newSession(h, tempDir()), await newSession(h, tempDir())];
    const ask = (session: string, crate: string): Promise<{ text: string }> =>
      prompt(
        h!,
        session,
        `use tool rust-crate-sources::rust_crate_query with ${JSON.stringify({ crate_name: crate, prompt: 'what is it?' })}`,
      );
    const [ra, rb] = await Promise.all([ask(a, 'serde'), ask(b, 'itoa')]);
    assert.match(ra.text, /Research on serde /);
    assert.match(rb.text, /Research on itoa /);
  });

  it('passes permission requests of user sessions through to the editor untouched', async () => {
    const permissions: acp.RequestPermissionRequest[] = [];
    h = start(permissions, []);
    await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
    const sessionId = await newSession(h, tempDir());
    const r = await prompt(h, sessionId, 'request permission for deleting the build folder');
    assert.equal(permissions.length, 1);
    assert.equal(permissions[0]!.sessionId, sessionId);
    assert.deepEqual(
      permissions[0]!.options.map((o) => o.optionId),
      ['allow-once', 'allow-always', 'reject-once', 'reject-always'],
    );
    assert.match(r.text, /Permission outcome: selected reject-once/);
  });

  it('returns a clear tool error when the crate cannot be found', async () => {
    h = start([], []);
    await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
    const sessionId = await newSession(h, tempDir());
    const query = JSON.stringify({ crate_name: 'serde', crate_version: '0.7', prompt: 'anything' });
    const r = await prompt(h, sessionId, `use tool rust-crate-sources::rust_crate_query with ${query}`);
    assert.match(r.text, /no version of crate "serde" matching "0.7"/);
  });
});
