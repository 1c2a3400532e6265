// The agents a user can choose: the built-in ElizACP (served by our own conductor bundle) and those
// of `symposium.agents` (agentSettings.ts), and how our own bundles run on the extension's Node.
// The agent configuration (src/agents/agentConfiguration.ts) is built from these. Pure.

/** An agent from the `symposium.agents` setting (or the built-in ElizACP). */
export interface AgentDefinition {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Where the extension's own files and Node live (process.execPath runs the bundles). */
export interface Runtime {
  execPath: string;
  extensionPath: string;
  /**
   * Where Node may keep the conductor bundle compiled between starts (NODE_COMPILE_CACHE: Node
   * 22.1 and later, which VS Code's Electron and code-server run; older Node ignores it). Cuts
   * the conductor's (and the built-in agent's) start-up: compiling the bundle is most of it.
   */
  compileCacheDir?: string;
}

export const BUILTIN_AGENT_NAME = 'ElizACP';

/**
 * On desktop VS Code process.execPath is the Electron binary; this makes it behave as plain Node.
 * Harmless under code-server, whose host runs on real Node.
 */
const AS_NODE = { ELECTRON_RUN_AS_NODE: '1' };

/**
 * glibc keeps freed memory at the top of the heap for reuse unless told a threshold: a process
 * that has read pipes for a while (64 KB buffers, freed) then sits idle holds about 8 MB of it.
 * With a fixed threshold it gives that back (the conductor's idle RSS: 66 → 59 MB, Node 24);
 * other C libraries ignore the variable. For our own processes only (conductor/main.ts takes it
 * out of what agents inherit).
 */
const MALLOC_TRIM = { MALLOC_TRIM_THRESHOLD_: String(128 * 1024) };

/** The environment our own bundle runs with: as Node, memory given back, with the compile cache when there is one. */
export const bundleEnv = (rt: Runtime): Record<string, string> => ({
  ...AS_NODE,
  ...MALLOC_TRIM,
  ...(rt.compileCacheDir ? { NODE_COMPILE_CACHE: rt.compileCacheDir } : {}),
});

export const conductorScript = (rt: Runtime): string => `${rt.extensionPath}/out/conductor.js`;

/** The embedded test agent: deterministic ELIZA, served by the conductor bundle itself. */
export function builtinAgent(rt: Runtime): AgentDefinition {
  return { name: BUILTIN_AGENT_NAME, command: rt.execPath, args: [conductorScript(rt), 'eliza', '--deterministic'], env: bundleEnv(rt) };
}
