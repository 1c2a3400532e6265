// The conductor's command line. One sidecar serves several roles, so the extension ships a single
// command (out/conductor.js: launcher.ts, which calls runConductor below):
//   conductor [--trace-dir D] [--log LEVEL] [--components a,b] -- <agent command> [args…]   (proxy, default)
//   conductor eliza [--deterministic]                                                      (ElizACP test agent)
//   conductor mcp-bridge --url U                                                           (stdio ⇄ loopback MCP shim)
//   conductor vscodelm [--log LEVEL]                                                       (LM provider backend, lm/*)
// Every role is a dynamic import, and esbuild.mjs builds each into a bundle of its own
// (out/conductor-proxy.js, -eliza, -mcp-bridge; the LM backend shares the proxy's): a process
// reads and compiles only its role's code, so the proxy does not pay for ElizACP's (and ElizACP
// not for the proxy's) at start or in memory. The launcher has already removed the variables meant
// for our own bundle from the environment (startupEnv.ts BUNDLE_ONLY_VARS) and, for the proxy,
// started the agent.

import { isOtherRole } from './roles';

async function run(argv: string[]): Promise<void> {
  const [role, ...rest] = argv;
  if (!isOtherRole(role)) {
    const { runProxyCli } = await import('./cli');
    return runProxyCli(argv);
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
      const { USAGE } = await import('./cli');
      process.stdout.write(USAGE + '\n');
      return;
    }
    default:
      return role satisfies never;
  }
}

/** Runs the role `argv` names; a failure to start it is printed and ends the process. */
export function runConductor(argv: string[]): void {
  run(argv).catch((err: unknown) => {
    process.stderr.write(`conductor: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
