import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { conductorSpawnSpec, vscodelmSpawnSpec, type AgentConfiguration } from './agentConfiguration';
import { builtinAgent } from '../settings/agentDefinition';
import { builtBundle } from '../../conductor/test/builtBundle';

const rt = { execPath: '/bin/node', extensionPath: '/ext', compileCacheDir: '/storage/compile-cache' };
const config = (agent: AgentConfiguration['agent']): AgentConfiguration => ({ agent, components: null, workspaceFolder: '/w' });

describe("our own bundle's start-up environment: the compile cache (NODE_COMPILE_CACHE) and malloc trimming (MALLOC_TRIM_THRESHOLD_)", () => {
  it('is given to the conductor, the LM process and the built-in agent, not to other agents', () => {
    assert.equal(conductorSpawnSpec(config(builtinAgent(rt)), rt).env.NODE_COMPILE_CACHE, rt.compileCacheDir);
    assert.equal(vscodelmSpawnSpec(rt, '/w').env.NODE_COMPILE_CACHE, rt.compileCacheDir);
    const builtin = conductorSpawnSpec(config(builtinAgent(rt)), rt).startup!.agentEnv;
    assert.equal(builtin.NODE_COMPILE_CACHE, rt.compileCacheDir);
    const other = conductorSpawnSpec(config({ name: 'X', command: 'x-agent', args: [], env: { TOKEN: 't' } }), rt).startup!.agentEnv;
    assert.deepEqual(other, { TOKEN: 't' });
    assert.equal(conductorSpawnSpec(config(builtinAgent(rt)), rt).env.MALLOC_TRIM_THRESHOLD_, '131072');
    assert.equal(vscodelmSpawnSpec(rt, '/w').env.MALLOC_TRIM_THRESHOLD_, '131072');
    assert.equal(builtin.MALLOC_TRIM_THRESHOLD_, '131072');
    assert.equal(
      conductorSpawnSpec(config(builtinAgent({ execPath: '/bin/node', extensionPath: '/ext' })), rt).env.NODE_COMPILE_CACHE,
      rt.compileCacheDir,
    );
  });

  it('the conductor keeps both from the processes it starts (a real conductor and agent)', async function () {
    const bundle = builtBundle('conductor.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
    const seen = path.join(dir, 'agent-env.txt');
    // The "agent" writes what it got, then waits for the conductor to end it.
    const agent = `require('fs').writeFileSync(${JSON.stringify(seen)}, [process.env.NODE_COMPILE_CACHE, process.env.MALLOC_TRIM_THRESHOLD_].join()); process.stdin.resume()`;
    const conductor = spawn(process.execPath, [bundle, '--log', 'error', '--components', '', '--', process.execPath, '-e', agent], {
      env: { ...process.env, NODE_COMPILE_CACHE: path.join(dir, 'cache'), MALLOC_TRIM_THRESHOLD_: '131072' },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((resolve) => conductor.once('exit', resolve));
    try {
      for (let i = 0; i < 200 && !fs.existsSync(seen); i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(fs.readFileSync(seen, 'utf8'), ',', 'neither variable reached the agent');
    } finally {
      conductor.stdin.end();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
