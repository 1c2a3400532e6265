// The conductor's command line. One sidecar serves several roles, so the extension ships a single
// command (out/conductor.js: launcher.ts, which calls runConductor below):
//   conductor [--trace-dir D] [--log LEVEL] [--components a,b] -- <agent command> [args…]   (proxy, default)
//   conductor eliza [--deterministic]                                                      (ElizACP test agent)
//   conductor mcp-bridge --url U | --remote --transport http|sse                             (stdio ⇄ HTTP MCP shim)
//   conductor vscodelm [--log LEVEL]                                                       (LM provider backend, lm/*)
//   conductor --help | --version
// Every role is a dynamic import, and esbuild.mjs builds each into a bundle of its own
// (out/conductor-proxy.js, -eliza, -mcp-bridge; the LM backend shares the proxy's): a process
// reads and compiles only its role's code, so the proxy does not pay for ElizACP's (and ElizACP
// not for the proxy's) at start or in memory. The launcher has already removed the variables meant
// for our own bundle from the environment (startupEnv.ts BUNDLE_ONLY_VARS) and, for the proxy,
// started the agent.
//
// `mode`: `editor` for the extension's out/conductor.js, which gets every setting as a flag;
// `standalone` for the npm package's `symposium-acp` (standalone.ts), whose proxy also reads the
// user's configuration file (configFile.ts), the flags overriding it.

import { isOtherRole, isUsageError } from './roles';
import { CONDUCTOR_VERSION } from './version';

export type ConductorMode = 'editor' | 'standalone';

async function run(argv: string[], mode: ConductorMode): Promise<void> {
  const [role, ...rest] = argv;
  if (!isOtherRole(role)) {
    const { runProxyCli } = await import('./cli');
    return runProxyCli(argv, mode);
  }
  // Every role of roles.ts, and only those (the compiler checks both ways).
  switch (role) {
    case 'eliza': {
      const { runEliza } = await import('./eliza/main');
      return runEliza(rest);
    }
    case 'mcp-bridge': {
      const { runMcpBridge } = await import('./mcp/stdioBridge');
      return runMcpBridge(rest);
    }
    case 'vscodelm': {
      const { runVscodeLm } = await import('./lm/vscodelm');
      return runVscodeLm(rest);
    }
    case '--help':
    case '-h': {
      const { helpText } = await import('./cli');
      process.stdout.write(helpText(mode));
      return;
    }
    case '--version':
    case '-V':
      process.stdout.write(`${CONDUCTOR_VERSION}\n`);
      return;
    default:
      return role satisfies never;
  }
}

/** Runs the role `argv` names; a failure to start it is printed and ends the process. */
export function runConductor(argv: string[], mode: ConductorMode): void {
  run(argv, mode).catch((err: unknown) => {
    // A command-line or configuration mistake is said in one line (with the usage); anything
    // else keeps its stack, for a bug report.
    const text = isUsageError(err) ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`${mode === 'standalone' ? 'symposium-acp' : 'conductor'}: ${text}\n`);
    process.exit(1);
  });
}
