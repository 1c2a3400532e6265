// The conductor's command line. One sidecar serves several roles, so the extension ships a single
// one (out/conductor.js: launcher.ts, which loads this file's bundle, out/conductor-core.js):
//   conductor [--trace-dir D] [--log LEVEL] [--components a,b] -- <agent command> [args…]   (proxy, default)
//   conductor eliza [--deterministic]                                                      (ElizACP test agent)
//   conductor mcp-bridge --url U                                                           (stdio ⇄ loopback MCP shim)
//   conductor vscodelm [--log LEVEL]                                                       (LM provider backend, lm/*)
// Every role is a dynamic import: esbuild keeps one file but evaluates a role's modules only when
// that role runs, so the proxy does not pay for ElizACP's (and ElizACP not for the proxy's) at start.
// The launcher has already removed the variables meant for our own bundle from the environment
// (startupEnv.ts BUNDLE_ONLY_VARS) and, for the proxy, started the agent.

import { isOtherRole } from './roles';

async function main(argv: string[]): Promise<void> {
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

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`conductor: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
