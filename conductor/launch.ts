// The conductor's start, kept to a few kilobytes (it is the entry bundle): it starts the agent
// first, then loads the role it runs (main.ts), each role a bundle of its own (esbuild.mjs). Loading
// and compiling half a megabyte of JavaScript takes tens of milliseconds, and the agent's own start
// usually takes longer; run one after the other, they added up to the conductor's cold start. Now
// they overlap (earlyAgent.ts hands the process to the AgentProcess that would have started it).
//
// It also gives our bundles Node's compile cache (Node ≥ 22.1) when the editor has not: a
// conductor run from a terminal (acpx, Zed) starts as fast as the extension's from its second run.
//
// The same start serves the editor's command (out/conductor.js, launcher.ts) and the npm package's
// `symposium-acp` (standalone.ts), which differ only in `mode` (main.ts).
import { homedir } from 'node:os';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { startEarlyAgent } from './earlyAgent';
import { runConductor, type ConductorMode } from './main';
import { isOtherRole } from './roles';
import { agentEnvironment, BUNDLE_ONLY_VARS } from './startupEnv';

/** Starts the agent of a proxy command line early, then runs the role `argv` names. */
export function launch(argv: string[], mode: ConductorMode): void {
  const cacheGiven = Boolean(process.env.NODE_COMPILE_CACHE);
  for (const name of BUNDLE_ONLY_VARS) delete process.env[name];
  if (!cacheGiven) enableCompileCache();

  const separator = argv.indexOf('--');
  const [command, ...args] = separator >= 0 ? argv.slice(separator + 1) : [];
  if (command !== undefined && !isOtherRole(argv[0])) {
    let env: NodeJS.ProcessEnv | undefined;
    try {
      env = agentEnvironment(process.env);
    } catch {
      // A malformed variable: the conductor reports it, and starts nothing.
    }
    if (env) startEarlyAgent(command, args, env);
  }

  runConductor(argv, mode);
}

/** Node's compile cache for our bundles, in the user's cache folder; skipped where Node has none. */
function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (!enable) return;
  const base =
    process.platform === 'win32'
      ? process.env.LOCALAPPDATA
      : process.env.XDG_CACHE_HOME?.startsWith('/')
        ? process.env.XDG_CACHE_HOME
        : join(homedir(), '.cache');
  if (!base) return;
  try {
    enable(join(base, 'symposium', 'node-compile-cache'));
  } catch {
    // A read-only home: no cache, the same start as before.
  }
}
